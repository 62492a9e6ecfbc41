// By path, not by package: vite.config.ts imports this module, and Node loads the config's packages
// without TypeScript.
import { sessionHintScript } from '../../../../packages/domain/src/session-hint.js';

// The pre-rendered pages' files: where each route's page is written in the build, and how its markup
// goes into the built index.html. The server finds a request's page by the same file names
// (apps/server/src/plugins/serve-web-app.ts).

/** The folder of the build holding the pre-rendered pages. */
export const pagesDirectory = 'pages';

/**
 * The not-found page as pre-rendered, in the build's folder (beside index.html, not among the routes'
 * pages): the server answers an address no route matches with it, and status 404.
 */
export const notFoundPageFile = '404.html';

/** The router's route patterns (src/app/route-patterns.ts) as a JSON array, in the build's folder. */
export const routePatternsFile = 'routes.json';

/** An address no route of the router matches, at which the build renders the not-found page. */
export const notFoundRenderedPath = '/404';

/**
 * The file of a route's page, inside the pages folder: `/` is `index.html`, `/features` is
 * `features.html`, and a parameter stands for any one segment in brackets: `/dev/mailbox/:id` is
 * `dev/mailbox/[id].html`.
 */
export function pageFileOf(path: string): string {
  if (path === '/') return 'index.html';
  return `${path
    .slice(1)
    .split('/')
    .map((segment) => (segment.startsWith(':') ? `[${segment.slice(1)}]` : segment))
    .join('/')}.html`;
}

/** The address the page of a parameterized route is rendered at: each parameter reads `example`. */
export function renderedPathOf(path: string): string {
  return path.replace(/:[^/]+/g, 'example');
}

/**
 * The built index.html with a page's markup inside its root element and the page's title in place of
 * the default one. React hoists a page's <title> to the start of the rendered markup; nothing else may
 * come before the app's own element, and no script may be in the markup (the content security
 * policy would refuse an inline one; it allows only the session hint, which goes in the <head>).
 */
export function pageDocument(template: string, rendered: string): string {
  const title = /^<title>[^<]*<\/title>/.exec(rendered)?.[0];
  const markup = title ? rendered.slice(title.length) : rendered;
  if (!markup.startsWith('<div'))
    throw new Error(`Unexpected markup before the page: ${markup.slice(0, 80)}`);
  if (/<script\b/i.test(markup)) throw new Error('A pre-rendered page may not contain a script');
  const root = '<div id="root"></div>';
  if (!template.includes(root)) throw new Error(`index.html has no ${root}`);
  const withMarkup = template.replace(root, () => `<div id="root">${markup}</div>`);
  const titled = title ? withMarkup.replace(/<title>[^<]*<\/title>/, () => title) : withMarkup;
  return withSessionHint(titled);
}

/**
 * The page with the session hint (`sessionHintScript`, the one inline script the content security
 * policy allows) at the start of its <head>, so it runs before the first paint.
 */
function withSessionHint(document: string): string {
  if (!document.includes('<head>')) throw new Error('index.html has no <head>');
  return document.replace('<head>', () => `<head>\n    <script>${sessionHintScript}</script>`);
}

/**
 * The built index.html with each of its stylesheets written into it as a <style> element, for the
 * pre-rendered pages: a first visit then paints from the page alone, without waiting on a second
 * request for the stylesheet (a round trip that put the public pages' first paint at about twice
 * the time; docs/performance.md). The content security policy allows inline styles. `readAsset`
 * reads a file of the build by its address (`/assets/…`).
 */
export function inlineStylesheets(template: string, readAsset: (address: string) => string): string {
  const links = /<link rel="stylesheet"(?: crossorigin)? href="(\/assets\/[^"]+\.css)">/g;
  if (!links.test(template)) throw new Error('index.html links no stylesheet to write into the pages');
  return template.replace(links, (_link, address: string) => {
    const css = readAsset(address);
    if (/<\/style/i.test(css)) throw new Error(`${address} holds "</style", which would end its element`);
    return `<style>${css}</style>`;
  });
}
