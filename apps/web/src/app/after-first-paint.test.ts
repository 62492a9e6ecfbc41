import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { afterFirstPaint, outsideMainWaitMs } from './after-first-paint.js';

// The browser's side, played by hand: LCP reports (of an element in the page's main, unless said
// otherwise), frames and timers.
let report: ((entries: number, where?: 'main' | 'header') => void) | undefined;
let frames: FrameRequestCallback[] = [];
let supported = ['largest-contentful-paint'];

class FakeObserver {
  static get supportedEntryTypes() {
    return supported;
  }
  constructor(private readonly callback: (list: { getEntries(): unknown[] }) => void) {}
  observe() {
    report = (entries, where = 'main') => {
      const element = { closest: (selector: string) => (selector === where ? {} : null) };
      this.callback({ getEntries: () => Array.from({ length: entries }, () => ({ element })) });
    };
  }
  disconnect() {
    report = undefined;
  }
}

/** One frame: its callbacks run, then the timers due now. */
function frame() {
  const due = frames;
  frames = [];
  for (const callback of due) callback(0);
  vi.advanceTimersByTime(0);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  frames = [];
  supported = ['largest-contentful-paint'];
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  report = undefined;
});

it('acts two frames after the largest paint, when no larger one came since', () => {
  const then = vi.fn();
  afterFirstPaint(then);
  frame();
  expect(then).not.toHaveBeenCalled();
  report?.(1);
  frame();
  expect(then).not.toHaveBeenCalled();
  frame();
  expect(then).toHaveBeenCalledTimes(1);
});

it('waits for the page text when the logo is reported a frame before it', () => {
  const then = vi.fn();
  afterFirstPaint(then);
  report?.(1, 'header'); // the logo
  frame();
  report?.(1); // the heading, larger
  frame();
  // Two frames after the logo, one after the heading: not yet.
  expect(then).not.toHaveBeenCalled();
  frame();
  expect(then).toHaveBeenCalledTimes(1);
  frame();
  frame();
  expect(then).toHaveBeenCalledTimes(1);
});

it('acts after the next frame where the browser reports no largest paint', () => {
  supported = [];
  const then = vi.fn();
  afterFirstPaint(then);
  expect(then).not.toHaveBeenCalled();
  frame();
  expect(then).toHaveBeenCalledTimes(1);
});

it('acts after five seconds when nothing is painted (a tab opened in the background)', () => {
  const then = vi.fn();
  afterFirstPaint(then);
  vi.advanceTimersByTime(4999);
  expect(then).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(then).toHaveBeenCalledTimes(1);
});

it('waits a while for the page text when only the logo has been reported, several frames before it', () => {
  const then = vi.fn();
  afterFirstPaint(then);
  report?.(1, 'header'); // the logo
  frame();
  frame();
  frame();
  expect(then).not.toHaveBeenCalled();
  vi.advanceTimersByTime(outsideMainWaitMs / 2);
  report?.(1); // the heading, larger, frames later
  frame();
  frame();
  expect(then).toHaveBeenCalledTimes(1);
  vi.advanceTimersByTime(outsideMainWaitMs);
  expect(then).toHaveBeenCalledTimes(1);
});

it('acts a while after a paint outside main when nothing in main is reported', () => {
  const then = vi.fn();
  afterFirstPaint(then);
  report?.(1, 'header');
  frame();
  frame();
  vi.advanceTimersByTime(outsideMainWaitMs - 1);
  expect(then).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(then).toHaveBeenCalledTimes(1);
});
