import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const screenshotDirectory = new URL('../screenshots/', import.meta.url).pathname;

/** Fails on any serious or critical accessibility violation that axe finds on the page as it is. */
export async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
  expect(serious, `axe on ${page.url()}`).toEqual([]);
}

/** Full-page screenshots at a phone width (390 px) and a desktop width (1440 px), left as they were. */
export async function saveScreenshots(page: Page, name: string) {
  mkdirSync(screenshotDirectory, { recursive: true });
  const original = page.viewportSize();
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    // Nothing may overflow sideways at either width: the page must reflow, not scroll horizontally.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
      .toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${screenshotDirectory}${name}-${width}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
