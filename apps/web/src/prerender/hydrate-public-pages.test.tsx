import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApp } from '@/app/start.js';
import { publicPaths } from '@/config/paths.js';
import { authStorageKey } from '@/lib/auth-storage-key.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { notFoundRenderedPath, renderedPathOf } from './page-document.js';

const urls = [...publicPaths.map(renderedPathOf), notFoundRenderedPath];
const rendered = new Map<string, string>();

// The pages are rendered as the build renders them (renderPage), in a process of their own as in the
// build: React's server and client renderers in one process share the contexts' current values, and a
// server render that waited on a lazy part leaves them set for the client.
beforeAll(async () => {
  const script = `
    const { renderPage } = await import('./src/prerender/render-page.tsx');
    const pages = {};
    for (const url of ${JSON.stringify(urls)}) pages[url] = await renderPage(url);
    process.stdout.write(JSON.stringify(pages));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '--eval', script],
    { cwd: join(import.meta.dirname, '../..'), maxBuffer: 64 * 1024 * 1024 },
  );
  for (const [url, markup] of Object.entries(JSON.parse(stdout) as Record<string, string>))
    rendered.set(url, markup);
}, 120_000);

/** console.error, as a mock that still prints. */
function spyOnErrors() {
  const error = console.error.bind(console);
  const errors = vi.fn();
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors(...args);
    error(...args);
  });
  return errors;
}

let root: HTMLElement | undefined;
let app: Root | undefined;
afterEach(() => {
  // Unmounted, not only removed: an app left running keeps its timers (the toaster's), which could
  // fire after this file's document is gone.
  act(() => app?.unmount());
  app = undefined;
  root?.remove();
  root = undefined;
});

/** The page of `url` as the build writes it, in this document, hydrated as the browser does it. */
async function hydratePrerendered(url: string, address = url, options?: { openedWithFragment: boolean }) {
  window.history.replaceState(null, '', address);
  root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = (rendered.get(url) ?? '').replace(/^<title>[^<]*<\/title>/, '');
  document.body.append(root);
  const heading = root.querySelector('main h1');
  const container = root;
  let started: Promise<Root> | undefined;
  await new Promise<void>((resolve) => {
    started = startApp(container, resolve, options);
  });
  app = await started;
  return { root, heading };
}

describe('a pre-rendered public page', () => {
  it.each(publicPaths.map(renderedPathOf))('hydrates %s without a mismatch', async (url) => {
    const errors = spyOnErrors();
    const reported = vi.fn();
    window.addEventListener('error', reported);
    try {
      const { root, heading } = await hydratePrerendered(url);
      // A lazily loaded part (the contact form) hydrates once its code is in.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heading).not.toBeNull();
      // Hydration kept the server's elements: a mismatch would have rendered new ones.
      expect(root.querySelector('main h1')).toBe(heading);
      expect(errors).not.toHaveBeenCalled();
      expect(reported).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('error', reported);
    }
  });

  it('shows Sign In as pre-rendered, then the session stored in the browser', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    vi.stubGlobal('fetch', server.fetch);
    window.localStorage.setItem(authStorageKey, JSON.stringify(server.issueSession('ada@example.com')));
    const errors = spyOnErrors();

    const { root } = await hydratePrerendered('/features');

    const header = within(root.querySelector('header') as HTMLElement);
    expect(await header.findByText('ada@example.com')).toBeInTheDocument();
    expect(header.queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
    expect(errors).not.toHaveBeenCalled();
  });
});

describe('the dev mailbox, pre-rendered', () => {
  it('says it is not open, as to a signed-out visitor, and keeps those elements once the server agrees', async () => {
    const markup = rendered.get('/dev/mailbox') ?? '';
    expect(markup).toContain('The dev mailbox is not open to you here.');
    expect(markup).toContain('/dev/mailbox</span> on localhost');
    expect(markup).not.toContain('Opening the mailbox');
    const mailboxRequests: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      mailboxRequests.push(new Request(input).url);
      return Response.json({ error: { code: 'NOT_FOUND' } }, { status: 404 });
    });
    const errors = spyOnErrors();
    const { root } = await hydratePrerendered('/dev/mailbox');
    const notice = root.querySelector('[role="alert"]');
    expect(notice).not.toBeNull();
    // (The pages hydrated by the tests before, still mounted, may ask too.)
    await waitFor(() => expect(mailboxRequests.length).toBeGreaterThan(0));
    // The address on this page's port once hydrated, in the same elements.
    await waitFor(() =>
      expect(notice).toHaveTextContent(
        `at http://localhost:${window.location.port}/dev/mailbox, or to an admin`,
      ),
    );
    expect(root.querySelector('[role="alert"]')).toBe(notice);
    expect(within(root).queryByText('Opening the mailbox')).not.toBeInTheDocument();
    expect(errors).not.toHaveBeenCalled();
  });
});

describe('an address no route matches', () => {
  it('hydrates the pre-rendered not-found page, whatever the address', async () => {
    const errors = spyOnErrors();
    const { root, heading } = await hydratePrerendered(notFoundRenderedPath, '/no-such/page');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heading).toHaveTextContent('404');
    expect(root.querySelector('main h1')).toBe(heading);
    // The page's own log of the address (twice in StrictMode's development checks), and nothing else.
    expect(errors).toHaveBeenCalled();
    for (const call of errors.mock.calls)
      expect(call).toEqual(['404 Error: User attempted to access non-existent route:', '/no-such/page']);
  });
});

describe('an address the server has no pre-rendered page for', () => {
  it('is rendered into the empty root', async () => {
    window.history.replaceState(null, '', '/no-such-page');
    root = document.createElement('div');
    document.body.append(root);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    app = await startApp(root);
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
  });
});

it('renders a pre-rendered page anew when the address has a fragment the server never saw', async () => {
  // jsdom lays nothing out, so it has no scrolling to the question.
  Element.prototype.scrollIntoView = () => {};
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const { root, heading } = await hydratePrerendered('/help-center', '/help-center#faq-fees');
  // New elements in place of the pre-rendered ones, with the linked question open.
  await waitFor(() => expect(root.querySelector('main h1')).not.toBe(heading));
  expect(root.querySelector('main h1')).toHaveTextContent('Help Center');
  expect(root.querySelector('#faq-fees')).toHaveAttribute('data-state', 'open');
}, 40_000);

it('hydrates a page whose fragment an in-page link added after it opened (the skip link)', async () => {
  const errors = spyOnErrors();
  const { root, heading } = await hydratePrerendered('/documentation', '/documentation#main', {
    openedWithFragment: false,
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(root.querySelector('main h1')).toBe(heading);
  expect(errors).not.toHaveBeenCalled();
});
