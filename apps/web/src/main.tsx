import { afterFirstPaint } from '@/app/after-first-paint.js';
import { holdEarlyInput } from '@/app/early-input.js';
import './index.css';

// This module is the only script a page asks for before it paints, so it stays small: React and the
// app load from here. A pre-rendered public page shows its content at once, and the app loads after
// that first paint (or at the visitor's first input, which is held until the page has hydrated);
// an empty root (a signed-in page) loads the app straight away.
const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

if (root.firstElementChild) {
  // The fragment the page was opened with, which the server never saw. One an in-page link (the skip
  // link) adds before the app has loaded changes nothing the page drew, and must not have it drawn anew.
  const openedWithFragment = window.location.hash !== '';
  let starting = false;
  const start = () => {
    if (starting) return;
    starting = true;
    void import('@/app/start.js').then((module) =>
      module.startApp(root, earlyInput.release, { openedWithFragment }),
    );
  };
  const earlyInput = holdEarlyInput(start);
  afterFirstPaint(start);
} else {
  void import('@/app/start.js').then((module) => module.startApp(root));
}
