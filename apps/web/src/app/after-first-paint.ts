/**
 * Calls `then` once the page's content is on screen: when the browser has reported its largest
 * contentful paint (made when the frame has been shown, which a frame callback or a timeout can
 * precede by a long way on a busy machine) and two more frames have passed without a larger one. A
 * small element (the logo) is often reported a frame before the page's text; loading the app on that
 * first report would put its scripts ahead of the text's paint. Where LCP is not reported, after the
 * next frame; a tab opened in the background paints nothing until shown, so `then` runs after a few
 * seconds at the latest. `then` may be called again after that (the caller acts once).
 */
export function afterFirstPaint(then: () => void): void {
  setTimeout(then, 5000);
  if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
    requestAnimationFrame(() => setTimeout(then, 0));
    return;
  }
  let reports = 0;
  const observer = new PerformanceObserver((list) => {
    reports += list.getEntries().length;
    const seen = reports;
    const settled = () => {
      if (reports !== seen) return;
      observer.disconnect();
      then();
    };
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(settled, 0)));
  });
  observer.observe({ type: 'largest-contentful-paint', buffered: true });
}
