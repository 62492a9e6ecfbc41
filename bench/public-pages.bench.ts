// Public pages: the JavaScript each route loads (gzip, from the built files) and its largest
// contentful paint, loaded cold in headless Chromium from the local production server.
// Goals (issue 16): every public route's initial JS ≤ 100 KB gzip, and its LCP (median of 5 cold
// loads) < 300 ms. Every public route of the web router is checked (publicPaths, held to the router by
// a test), and a path no route matches. BENCH_PORT fixes the server's port.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { publicPaths } from '../apps/web/src/config/paths.js';
import { reportRow } from './report-row.js';
import { buildWebIfNeeded, startBenchServer, webDistDirectory } from './start-bench-server.js';

const routes = [...publicPaths.map((path) => path.replace(/:[a-z]+/gi, 'example')), '/no-such-page'];
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

buildWebIfNeeded();
const server = await startBenchServer(process.env.BENCH_PORT ? { PORT: process.env.BENCH_PORT } : {});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

type Row = {
  route: string;
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
  for (const route of routes) {
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
      await page.goto(`${server.origin}${route}`, { waitUntil: 'networkidle' });
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
}

console.log(`\nPublic pages: ${runs} cold loads each at 1440x900, median LCP.`);
console.log(
  'initial JS = script files requested before the LCP; all JS = every script file loaded by network idle (gzip)\n',
);
console.log(
  `${'route'.padEnd(20)}${'initial JS'.padStart(12)}${'all JS'.padStart(12)}${'files'.padStart(7)}${'LCP'.padStart(10)}   runs`,
);
for (const row of rows) {
  console.log(
    `${row.route.padEnd(20)}${kilobytes(row.initialJs).padStart(12)}${kilobytes(row.allJs).padStart(12)}${String(row.scripts).padStart(7)}${`${Math.round(row.lcpMs)} ms`.padStart(10)}   ${row.lcpRuns.map((value) => Math.round(value)).join(' / ')}`,
  );
}

console.log('\nLanding page script files (gzip):');
for (const file of landingFiles.toSorted((a, b) => gzipSizeOf(b.pathname) - gzipSizeOf(a.pathname))) {
  console.log(
    `  ${kilobytes(gzipSizeOf(file.pathname)).padStart(9)}  ${file.initial ? 'initial' : 'later  '}  ${file.pathname}`,
  );
}

for (const row of rows) {
  reportRow({
    measure: `initial JS (gzip) ${row.route}`,
    value: kilobytes(row.initialJs),
    goal: `≤ ${kilobytes(initialJsGoalBytes)}`,
    pass: row.initialJs <= initialJsGoalBytes,
  });
}
for (const row of rows) {
  reportRow({
    measure: `LCP ${row.route} (median of ${runs} cold loads)`,
    value: row.lcpMs === 0 ? 'no LCP entry' : `${Math.round(row.lcpMs)} ms`,
    goal: `< ${lcpGoalMs} ms`,
    pass: row.lcpMs > 0 && row.lcpMs < lcpGoalMs,
  });
}

const failures: string[] = [];
for (const row of rows) {
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
