import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const screenshotDirectory = new URL('../screenshots/', import.meta.url).pathname;

/**
 * Fails on any serious or critical accessibility violation that axe finds on the page as it is, at
 * rest: a toast fading in or out is half transparent, and its text then fails the contrast check
 * whenever a slow machine has axe read it mid-fade. So the page is read as a visitor who asks for
 * reduced motion sees it, where toasts (sonner) appear and leave without a transition.
 */
export async function expectNoSeriousAxeViolations(page: Page) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze()
    .finally(() => page.emulateMedia({ reducedMotion: null }));
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

/**
 * Checks the page reflows without sideways scrolling from the smallest phones (360 px) to wide
 * screens, and saves full-page screenshots at 390 px and 1440 px. The viewport is left as it was.
 */
export async function saveScreenshots(page: Page, name: string) {
  mkdirSync(screenshotDirectory, { recursive: true });
  const original = page.viewportSize();
  for (const width of [360, 390, 1440, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
        message: `no horizontal overflow at ${width} px`,
      })
      .toBeLessThanOrEqual(0);
    if (width === 390 || width === 1440) {
      await page.screenshot({ path: `${screenshotDirectory}${name}-${width}.png`, fullPage: true });
    }
  }
  if (original) await page.setViewportSize(original);
}
