/** How long a paint outside the page's `main` (the header's logo) waits for one inside it. */
export const outsideMainWaitMs = 250;

/**
 * Calls `then` once the page's content is on screen: when the browser has reported its largest
 * contentful paint (made when the frame has been shown, which a frame callback or a timeout can
 * precede by a long way on a busy machine) of an element in the page's `main`, and two more frames
 * have passed without a larger one. A small element (the logo) is often reported a frame or more
 * before the page's text, several on a busy machine that paints in software; loading the app on that
 * report would put its scripts ahead of the text's paint. So a report from outside `main` waits
 * `outsideMainWaitMs` more for one from inside. Where LCP is not reported, after the next frame; a
 * tab opened in the background paints nothing until shown, so `then` runs after a few seconds at
 * the latest. `then` may be called again after that (the caller acts once).
 */
export function afterFirstPaint(then: () => void): void {
  setTimeout(then, 5000);
  if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
    requestAnimationFrame(() => setTimeout(then, 0));
    return;
  }
  let reports = 0;
  const observer = new PerformanceObserver((list) => {
    const entries = list.getEntries() as (PerformanceEntry & { element?: Element | null })[];
    reports += entries.length;
    const seen = reports;
    const inMain = entries.some((entry) => entry.element?.closest('main'));
    const settled = () => {
      if (reports !== seen) return;
      observer.disconnect();
      then();
    };
    requestAnimationFrame(() =>
      requestAnimationFrame(() => setTimeout(settled, inMain ? 0 : outsideMainWaitMs)),
    );
  });
  observer.observe({ type: 'largest-contentful-paint', buffered: true });
}
