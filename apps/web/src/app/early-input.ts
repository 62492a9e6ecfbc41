// What a visitor does on a pre-rendered page before its scripts have run: React is not there yet to
// answer. Typed text stays in its field; a form's submission (which the browser would otherwise send
// as a GET with the fields in the address), a click on a button and the keys a widget moves by (the
// arrows in a tab list) are held, and each starts loading the app at once. Once the page has
// hydrated, the held text reaches React, then the held keys are pressed again where the focus is,
// then the held submissions and clicks are made again, in the order they were made. The same one
// made again and again (a visitor tapping a button that does not answer yet) is made once.
//
// What is held goes no further than the document while held: between hydration and the release (the
// first render's effects) React already listens, and would act on it as well as on its replay: a menu
// opened and closed again, a form sent twice, a tab list moved two tabs.

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
type Held =
  | { kind: 'submit'; form: HTMLFormElement; submitter: HTMLElement | null }
  | { kind: 'click'; button: HTMLButtonElement };

/** Widgets that move between their items by key, in script only (the browser does nothing with the keys). */
const keyedWidgets =
  '[role="tablist"], [role="menu"], [role="menubar"], [role="radiogroup"], [role="listbox"], [role="toolbar"]';
const widgetKeys = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']);

const pressEvents = ['pointerdown', 'mousedown', 'pointerup', 'mouseup'] as const;

type HeldKey = Pick<KeyboardEventInit, 'key' | 'code' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>;

export type EarlyInput = {
  /** Stops holding, and hands what was held to the hydrated app. */
  release: () => void;
};

function isField(target: EventTarget | null): target is Field {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

// React notices a field's change by comparing its value with the last one it saw, which hydration took
// from the field as typed. Setting the field through its own property, then the browser's, makes React
// see the typed value as new when the input event below reaches it.
function replayField(field: Field) {
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
    const checked = field.checked;
    field.checked = !checked;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')?.set?.call(field, checked);
    field.dispatchEvent(new Event('click', { bubbles: true }));
    return;
  }
  const value = field.value;
  const prototype = Object.getPrototypeOf(field) as object;
  field.value = field instanceof HTMLSelectElement ? '' : `${value}\u0000`;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

/**
 * A mouse press made again as the widgets listen for it: tabs and menus act on pointer or mouse down
 * (Radix), most buttons on click, so a click alone would leave a tab pressed early unselected.
 */
function press(button: HTMLButtonElement) {
  const down = { bubbles: true, cancelable: true, composed: true, button: 0, buttons: 1 };
  const up = { ...down, buttons: 0 };
  const pointer = (type: string, init: MouseEventInit) =>
    typeof PointerEvent === 'function'
      ? new PointerEvent(type, { ...init, pointerType: 'mouse', isPrimary: true })
      : new MouseEvent(type, init);
  button.dispatchEvent(pointer('pointerdown', down));
  button.dispatchEvent(new MouseEvent('mousedown', down));
  button.dispatchEvent(pointer('pointerup', up));
  button.dispatchEvent(new MouseEvent('mouseup', up));
  button.click();
}

/** The button an event is on, unless it submits a form (that is held as the form's submission). */
function clickedButton(target: EventTarget | null): HTMLButtonElement | null {
  const button = target instanceof Element ? target.closest('button') : null;
  return button && !(button.type === 'submit' && button.form) ? button : null;
}

/** Holds early input on `document` until released; `wake` is called at the first thing held. */
export function holdEarlyInput(wake: () => void): EarlyInput {
  const changed = new Set<Field>();
  const held: Held[] = [];
  const hold = (action: Held) => {
    const last = held.at(-1);
    const target = (item: Held) => (item.kind === 'submit' ? item.form : item.button);
    if (last && target(last) === target(action)) held[held.length - 1] = action;
    else held.push(action);
  };
  const keys: HeldKey[] = [];

  const onInput = (event: Event) => {
    if (isField(event.target)) changed.add(event.target);
    wake();
  };
  const onSubmit = (event: SubmitEvent) => {
    if (!(event.target instanceof HTMLFormElement)) return;
    event.preventDefault();
    event.stopPropagation();
    hold({ kind: 'submit', form: event.target, submitter: event.submitter });
    wake();
  };
  const onClick = (event: MouseEvent) => {
    const button = clickedButton(event.target);
    if (!button) return;
    event.stopPropagation();
    hold({ kind: 'click', button });
    wake();
  };
  // The presses a held click is made of, which widgets may act on instead (a Radix menu opens on
  // pointer down): the click's replay makes them again.
  const onPress = (event: Event) => {
    if (event.type === 'pointerdown') wake();
    if (clickedButton(event.target)) event.stopPropagation();
  };
  const onFirstInteraction = () => wake();
  const onKeyDown = (event: KeyboardEvent) => {
    const { key, code, shiftKey, ctrlKey, altKey, metaKey, target } = event;
    if (widgetKeys.has(key) && target instanceof Element && target.closest(keyedWidgets)) {
      event.stopPropagation();
      keys.push({ key, code, shiftKey, ctrlKey, altKey, metaKey });
    }
    wake();
  };

  document.addEventListener('input', onInput, true);
  document.addEventListener('change', onInput, true);
  document.addEventListener('submit', onSubmit, true);
  document.addEventListener('click', onClick, true);
  for (const type of pressEvents) document.addEventListener(type, onPress, { capture: true, passive: true });
  document.addEventListener('keydown', onKeyDown, { capture: true, passive: true });
  document.addEventListener('focusin', onFirstInteraction, { capture: true, passive: true });

  return {
    release() {
      document.removeEventListener('input', onInput, true);
      document.removeEventListener('change', onInput, true);
      document.removeEventListener('submit', onSubmit, true);
      document.removeEventListener('click', onClick, true);
      for (const type of pressEvents) document.removeEventListener(type, onPress, true);
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('focusin', onFirstInteraction, true);
      for (const field of changed) if (field.isConnected) replayField(field);
      // Each key where the focus is when it is pressed again: the one before may have moved it.
      for (const key of keys) {
        const focused = document.activeElement;
        if (!focused?.closest(keyedWidgets)) break;
        focused.dispatchEvent(new KeyboardEvent('keydown', { ...key, bubbles: true, cancelable: true }));
      }
      for (const action of held) {
        if (action.kind === 'submit' && action.form.isConnected) {
          const { submitter } = action;
          if (submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) {
            action.form.requestSubmit(submitter);
          } else {
            action.form.requestSubmit();
          }
        } else if (action.kind === 'click' && action.button.isConnected) {
          press(action.button);
        }
      }
    },
  };
}
