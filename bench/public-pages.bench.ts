// Public pages: the JavaScript each route loads (gzip, from the built files) and its largest
// contentful paint, loaded cold in headless Chromium from the local production server.
// Budgets (issue 3): landing page initial JS ≤ 150 KB gzip; every route's LCP < 1 s.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { buildWebIfNeeded, startBenchServer, webDistDirectory } from './start-bench-server.js';

const routes = [
  '/',
  '/features',
  '/security',
  '/how-it-works',
  '/covenant-meet',
  '/documentation',
  '/api-reference',
  '/help-center',
  '/contact',
  '/privacy-policy',
  '/terms-of-service',
  '/compliance',
  '/risk-disclosure',
  '/no-such-page',
];
const runs = 5;
const landingBudgetBytes = 150 * 1000;
const lcpBudgetMs = 1000;

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
const server = await startBenchServer();
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

const failures: string[] = [];
const landing = rows.find((row) => row.route === '/');
if (landing && landing.initialJs > landingBudgetBytes) {
  failures.push(`landing page initial JS ${kilobytes(landing.initialJs)} > ${kilobytes(landingBudgetBytes)}`);
}
for (const row of rows) {
  if (row.lcpMs === 0) failures.push(`${row.route}: no LCP entry`);
  else if (row.lcpMs >= lcpBudgetMs)
    failures.push(`${row.route}: LCP ${Math.round(row.lcpMs)} ms ≥ ${lcpBudgetMs} ms`);
}
if (failures.length > 0) {
  console.error(`\nOver budget:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `\nWithin budget: landing initial JS ${kilobytes(landing?.initialJs ?? 0)} ≤ ${kilobytes(landingBudgetBytes)}, every LCP < ${lcpBudgetMs} ms`,
);
