// Public pages: the JavaScript each route loads (gzip, from the built files) and its largest
// contentful paint, loaded cold in headless Chromium from the local production server.
// Goals (issue 16): every public route's initial JS ≤ 100 KB gzip, and its LCP (median of 5 cold
// loads) < 300 ms. Every public route of the web router is checked (publicPaths, held to the router by
// a test), and a path no route matches. BENCH_PORT fixes the server's port.
// Two comparison rows show the browser's floor on this machine, reported without a goal: a bare page
// with one heading, and the same page with the app's stylesheet, served by a plain node:http server.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { publicPaths } from '../apps/web/src/config/paths.js';
import { reportRow } from './report-row.js';
import { buildWebIfNeeded, startBenchServer, webDistDirectory } from './start-bench-server.js';

const routes = [...publicPaths.map((path) => path.replace(/:[a-z]+/gi, 'example')), '/no-such-page'];
/** The comparison pages: the browser's floor, not our app. */
const floorRoutes = ['floor: bare heading', 'floor: heading + CSS'];
const runs = 5;
const initialJsGoalBytes = 100 * 1000;
const lcpGoalMs = 300;

const gzipSizes = new Map<string, number>();
function gzipSizeOf(pathname: string): number {
  let size = gzipSizes.get(pathname);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(webDistDirectory, pathname))).length;
    gzipSizes.set(pathname, size);
  }
  return size;
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

/**
 * The comparison pages on a plain node:http server: a heading alone, and with the app's built
 * stylesheet (its brotli copy, as our server sends it). No script on either.
 */
async function startFloorServer(): Promise<{ urlOf: (route: string) => string; stop: () => Promise<void> }> {
  const stylesheet = readdirSync(join(webDistDirectory, 'assets')).find((name) => name.endsWith('.css'));
  if (!stylesheet) throw new Error('The web build has no stylesheet');
  const stylesheetPath = join(webDistDirectory, 'assets', stylesheet);
  const page = (head: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Covenant</title>${head}</head><body><main><h1 class="font-bold text-4xl">OTC crypto trading with escrow</h1></main></body></html>`;
  const pages: Record<string, string> = {
    '/bare': page(''),
    '/css': page(`<link rel="stylesheet" href="/assets/${stylesheet}">`),
  };
  const floor = createServer((request, response) => {
    const html = pages[request.url ?? ''];
    if (html !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      response.end(html);
    } else if (request.url === `/assets/${stylesheet}`) {
      const brotli = existsSync(`${stylesheetPath}.br`);
      response.writeHead(200, {
        'content-type': 'text/css; charset=utf-8',
        'cache-control': 'public, max-age=31536000, immutable',
        ...(brotli ? { 'content-encoding': 'br' } : {}),
      });
      response.end(readFileSync(brotli ? `${stylesheetPath}.br` : stylesheetPath));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => floor.listen(0, '127.0.0.1', resolve));
  const { port } = floor.address() as AddressInfo;
  return {
    urlOf: (route) => `http://127.0.0.1:${port}${route === floorRoutes[0] ? '/bare' : '/css'}`,
    stop: () => new Promise((resolve) => floor.close(() => resolve())),
  };
}

buildWebIfNeeded();
const server = await startBenchServer(process.env.BENCH_PORT ? { PORT: process.env.BENCH_PORT } : {});
const floorServer = await startFloorServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

type Row = {
  route: string;
  floor: boolean;
  initialJs: number;
  allJs: number;
  scripts: number;
  lcpMs: number;
  lcpRuns: number[];
};
type Loaded = { pathname: string; initial: boolean };
const rows: Row[] = [];
let landingFiles: Loaded[] = [];
try {
  for (const route of [...routes, ...floorRoutes]) {
    const floor = floorRoutes.includes(route);
    const url = floor ? floorServer.urlOf(route) : `${server.origin}${route}`;
    const lcps: number[] = [];
    let loaded: Loaded[] = [];
    for (let run = 0; run < runs; run += 1) {
      // A fresh context each time: nothing cached, as for a first visit.
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript(() => {
        const global = window as unknown as { __lcp: number };
        global.__lcp = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) global.__lcp = entry.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      });
      await page.goto(url, { waitUntil: 'networkidle' });
      await page.locator('main h1').first().waitFor();
      // LCP is final once the page stops painting larger content; input would end it, so none is sent.
      await page.waitForTimeout(300);
      const measured = await page.evaluate(() => {
        const lcp = (window as unknown as { __lcp: number }).__lcp;
        // Initial: requested before the largest contentful paint, i.e. what the page needed to show itself.
        const initialUntil = lcp;
        const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .map((entry) => ({
            pathname: new URL(entry.name).pathname,
            initial: entry.startTime <= initialUntil,
          }))
          .filter((entry) => entry.pathname.startsWith('/assets/') && entry.pathname.endsWith('.js'));
        return { lcp, scripts };
      });
      lcps.push(measured.lcp);
      loaded = measured.scripts;
      await context.close();
    }
    if (route === '/') landingFiles = loaded;
    const sum = (entries: Loaded[]) =>
      entries.reduce((total, entry) => total + gzipSizeOf(entry.pathname), 0);
    rows.push({
      route,
      floor,
      initialJs: sum(loaded.filter((entry) => entry.initial)),
      allJs: sum(loaded),
      scripts: loaded.length,
      lcpMs: median(lcps),
      lcpRuns: lcps,
    });
  }
} finally {
  await browser.close();
  await server.stop();
  await floorServer.stop();
}

console.log(`\nPublic pages: ${runs} cold loads each at 1440x900, median LCP.`);
console.log(
  'initial JS = script files requested before the LCP; all JS = every script file loaded by network idle (gzip)\n',
);
console.log(
  `${'route'.padEnd(22)}${'initial JS'.padStart(12)}${'all JS'.padStart(12)}${'files'.padStart(7)}${'LCP'.padStart(10)}   runs`,
);
for (const row of rows) {
  console.log(
    `${row.route.padEnd(22)}${kilobytes(row.initialJs).padStart(12)}${kilobytes(row.allJs).padStart(12)}${String(row.scripts).padStart(7)}${`${Math.round(row.lcpMs)} ms`.padStart(10)}   ${row.lcpRuns.map((value) => Math.round(value)).join(' / ')}`,
  );
}

console.log('\nLanding page script files (gzip):');
for (const file of landingFiles.toSorted((a, b) => gzipSizeOf(b.pathname) - gzipSizeOf(a.pathname))) {
  console.log(
    `  ${kilobytes(gzipSizeOf(file.pathname)).padStart(9)}  ${file.initial ? 'initial' : 'later  '}  ${file.pathname}`,
  );
}

const appRows = rows.filter((row) => !row.floor);
for (const row of rows.filter((row) => row.floor)) {
  reportRow({
    measure: `LCP ${row.route} (median of ${runs} cold loads; comparison, no script)`,
    value: row.lcpMs === 0 ? 'no LCP entry' : `${Math.round(row.lcpMs)} ms`,
    goal: 'reported',
    pass: null,
  });
}
for (const row of appRows) {
  reportRow({
    measure: `initial JS (gzip) ${row.route}`,
    value: kilobytes(row.initialJs),
    goal: `≤ ${kilobytes(initialJsGoalBytes)}`,
    pass: row.initialJs <= initialJsGoalBytes,
  });
}
for (const row of appRows) {
  reportRow({
    measure: `LCP ${row.route} (median of ${runs} cold loads)`,
    value: row.lcpMs === 0 ? 'no LCP entry' : `${Math.round(row.lcpMs)} ms`,
    goal: `< ${lcpGoalMs} ms`,
    pass: row.lcpMs > 0 && row.lcpMs < lcpGoalMs,
  });
}

const failures: string[] = [];
for (const row of appRows) {
  if (row.initialJs > initialJsGoalBytes)
    failures.push(`${row.route}: initial JS ${kilobytes(row.initialJs)} > ${kilobytes(initialJsGoalBytes)}`);
  if (row.lcpMs === 0) failures.push(`${row.route}: no LCP entry`);
  else if (row.lcpMs >= lcpGoalMs)
    failures.push(`${row.route}: LCP ${Math.round(row.lcpMs)} ms ≥ ${lcpGoalMs} ms`);
}
if (failures.length > 0) {
  console.error(`\nOver budget:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `\nWithin budget: every route's initial JS ≤ ${kilobytes(initialJsGoalBytes)}, every LCP < ${lcpGoalMs} ms`,
);
