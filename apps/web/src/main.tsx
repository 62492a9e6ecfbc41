import { holdEarlyInput } from '@/app/early-input.js';
import './index.css';

// This module is the only script a page asks for before it paints, so it stays small: React and the
// app load from here. A pre-rendered public page shows its content at once, and the app loads after
// that first paint (or at the visitor's first input, which is held until the page has hydrated);
// an empty root (a signed-in page) loads the app straight away.
const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

if (root.firstElementChild) {
  let starting = false;
  const start = () => {
    if (starting) return;
    starting = true;
    void import('@/app/start.js').then((module) => module.startApp(root, earlyInput.release));
  };
  const earlyInput = holdEarlyInput(start);
  // A frame, then a task: the timeout runs after that frame has been painted.
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  void import('@/app/start.js').then((module) => module.startApp(root));
}
