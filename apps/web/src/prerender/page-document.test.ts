import { sessionHintScript } from '@covenant/domain';
import { describe, expect, it } from 'vitest';
import { inlineStylesheets, pageDocument, pageFileOf, renderedPathOf } from './page-document.js';

const template = `<!doctype html>
<html lang="en">
  <head>
    <title>Covenant — OTC crypto trading with escrow</title>
    <script type="module" crossorigin src="/assets/index-Ab12.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-Cd34.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('pageFileOf', () => {
  it.each([
    ['/', 'index.html'],
    ['/features', 'features.html'],
    ['/dev/mailbox', 'dev/mailbox.html'],
    ['/dev/mailbox/:id', 'dev/mailbox/[id].html'],
  ])('names the page of %s %s', (path, file) => {
    expect(pageFileOf(path)).toBe(file);
  });

  it('renders a parameterized route at an example address', () => {
    expect(renderedPathOf('/dev/mailbox/:id')).toBe('/dev/mailbox/example');
  });
});

describe('pageDocument', () => {
  it("puts the markup in the root and the page's title in the head, keeping the scripts and styles", () => {
    const page = pageDocument(
      template,
      '<title>Contact | Covenant</title><div class="flex">Contact $& us</div>',
    );
    expect(page).toContain('<div id="root"><div class="flex">Contact $& us</div></div>');
    expect(page).toContain('<title>Contact | Covenant</title>');
    expect(page).not.toContain('OTC crypto trading with escrow</title>');
    expect(page).toContain('<script type="module" crossorigin src="/assets/index-Ab12.js"></script>');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/index-Cd34.css">');
  });

  it('runs the session hint first in the head, its only inline script', () => {
    const page = pageDocument(template, '<div>a</div>');
    expect(page).toContain(`<head>\n    <script>${sessionHintScript}</script>\n    <title>`);
    expect(page.match(/<script>/g)).toHaveLength(1);
  });

  it('marks the document when a session is stored or a sign-in link answers, and only then', () => {
    const run = () => new Function(sessionHintScript)();
    const root = document.documentElement;
    delete root.dataset.session;
    window.location.hash = '';
    run();
    expect(root.dataset.session).toBeUndefined();
    window.location.hash = '#access_token=abc&type=signup';
    run();
    expect(root.dataset.session).toBe('stored');
    delete root.dataset.session;
    window.location.hash = '';
    window.localStorage.setItem('covenant-auth-token', '{}');
    run();
    expect(root.dataset.session).toBe('stored');
    window.localStorage.clear();
    delete root.dataset.session;
  });

  it('refuses markup with a script, or anything before the page other than its title', () => {
    expect(() => pageDocument(template, '<div>a</div><script>$RC("B:0")</script>')).toThrow(/script/);
    expect(() => pageDocument(template, '<link rel="preload" href="/a.png"/><div>a</div>')).toThrow(
      /before the page/,
    );
  });
});

describe('inlineStylesheets', () => {
  it('writes the linked stylesheet into the page as a style element, the rest as it was', () => {
    const read: string[] = [];
    const page = inlineStylesheets(template, (address) => {
      read.push(address);
      return '.a{color:red}';
    });
    expect(read).toEqual(['/assets/index-Cd34.css']);
    expect(page).toBe(
      template.replace(
        '<link rel="stylesheet" crossorigin href="/assets/index-Cd34.css">',
        '<style>.a{color:red}</style>',
      ),
    );
    expect(page).toContain('<script type="module" crossorigin src="/assets/index-Ab12.js"></script>');
  });

  it('refuses a stylesheet that would end its element, and a page that links none', () => {
    expect(() => inlineStylesheets(template, () => 'a::after{content:"</style>"}')).toThrow('"</style"');
    expect(() => inlineStylesheets('<head></head><div id="root"></div>', () => '')).toThrow(
      'links no stylesheet',
    );
  });
});
