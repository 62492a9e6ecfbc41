import { waitFor } from '@testing-library/react';
import { act, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, expect, it, vi } from 'vitest';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.js';
import { holdEarlyInput } from './early-input.js';

function NameForm({ onSend, onHelp }: { onSend: (name: string) => void; onHelp: () => void }) {
  const [name, setName] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSend(name);
      }}
    >
      <input aria-label="Name" value={name} onChange={(event) => setName(event.target.value)} />
      <button type="submit">Send</button>
      <button type="button" onClick={onHelp}>
        Help
      </button>
    </form>
  );
}

let container: HTMLElement | undefined;
afterEach(() => container?.remove());

/** The form as pre-rendered, not yet hydrated. */
function prerendered() {
  container = document.createElement('div');
  container.innerHTML = renderToString(<NameForm onSend={() => {}} onHelp={() => {}} />);
  document.body.append(container);
  const input = container.querySelector('input') as HTMLInputElement;
  const form = container.querySelector('form') as HTMLFormElement;
  return { container, input, form };
}

// What a browser does as someone types into a field.
function type(input: HTMLInputElement, text: string) {
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

it('holds a submission made before hydration, then makes it with the text typed before', async () => {
  const { container, input, form } = prerendered();
  const wake = vi.fn();
  const earlyInput = holdEarlyInput(wake);
  type(input, 'Ada');
  const submitted = new SubmitEvent('submit', { bubbles: true, cancelable: true });
  form.dispatchEvent(submitted);
  // The browser would have sent the form as a GET with the field in the address.
  expect(submitted.defaultPrevented).toBe(true);
  expect(wake).toHaveBeenCalled();

  const onSend = vi.fn();
  await act(async () => {
    hydrateRoot(container, <NameForm onSend={onSend} onHelp={() => {}} />);
  });
  expect(onSend).not.toHaveBeenCalled();
  await act(async () => earlyInput.release());

  expect(onSend).toHaveBeenCalledExactlyOnceWith('Ada');
  expect(input.value).toBe('Ada');
});

it('makes a click on a button again once hydrated, and holds nothing after release', async () => {
  const { container } = prerendered();
  const wake = vi.fn();
  const earlyInput = holdEarlyInput(wake);
  const help = container.querySelector('button[type="button"]') as HTMLButtonElement;
  help.click();
  expect(wake).toHaveBeenCalledTimes(1);

  const onHelp = vi.fn();
  await act(async () => {
    hydrateRoot(container, <NameForm onSend={() => {}} onHelp={onHelp} />);
  });
  await act(async () => earlyInput.release());
  expect(onHelp).toHaveBeenCalledTimes(1);

  await act(async () => help.click());
  expect(onHelp).toHaveBeenCalledTimes(2);
  expect(wake).toHaveBeenCalledTimes(1);
});

function SignInOrUp() {
  return (
    <Tabs defaultValue="in">
      <TabsList>
        <TabsTrigger value="in">Sign In</TabsTrigger>
        <TabsTrigger value="up">Sign Up</TabsTrigger>
      </TabsList>
      <TabsContent value="in">Welcome back</TabsContent>
      <TabsContent value="up">Create your account</TabsContent>
    </Tabs>
  );
}

it('selects a tab pressed before hydration, which acts on mouse down rather than click', async () => {
  container = document.createElement('div');
  container.innerHTML = renderToString(<SignInOrUp />);
  document.body.append(container);
  const earlyInput = holdEarlyInput(() => {});
  const signUp = [...container.querySelectorAll('button')].find(
    (button) => button.textContent === 'Sign Up',
  )!;
  signUp.click();

  await act(async () => {
    hydrateRoot(container!, <SignInOrUp />);
  });
  expect(signUp.getAttribute('aria-selected')).toBe('false');
  await act(async () => earlyInput.release());
  expect(signUp.getAttribute('aria-selected')).toBe('true');
  expect(container.textContent).toContain('Create your account');
});

it('presses again, once hydrated, the arrow keys pressed in a tab list before', async () => {
  container = document.createElement('div');
  container.innerHTML = renderToString(<SignInOrUp />);
  document.body.append(container);
  const wake = vi.fn();
  const earlyInput = holdEarlyInput(wake);
  const [signIn, signUp] = [...container.querySelectorAll('button')];
  signIn?.focus();
  signIn?.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true }));
  expect(wake).toHaveBeenCalled();

  await act(async () => {
    hydrateRoot(container!, <SignInOrUp />);
  });
  expect(document.activeElement).toBe(signIn);
  await act(async () => earlyInput.release());
  // The tab list moves the focus a moment after the key.
  await waitFor(() => expect(document.activeElement).toBe(signUp));
  expect(signUp?.getAttribute('aria-selected')).toBe('true');
});

// Between hydration and the release (the first render's effects), React already listens: whatever is
// held must not reach it as well, or it would happen twice (a menu opened and closed, a form sent twice).
it('makes once a click and a submission that come after hydration but before the release', async () => {
  const { container, input, form } = prerendered();
  const earlyInput = holdEarlyInput(() => {});
  const onHelp = vi.fn();
  const onSend = vi.fn();
  await act(async () => {
    hydrateRoot(container, <NameForm onSend={onSend} onHelp={onHelp} />);
  });
  const help = container.querySelector('button[type="button"]') as HTMLButtonElement;
  await act(async () => help.click());
  await act(async () => {
    type(input, 'Ada');
    form.requestSubmit();
  });
  await act(async () => earlyInput.release());

  expect(onHelp).toHaveBeenCalledTimes(1);
  expect(onSend).toHaveBeenCalledExactlyOnceWith('Ada');
});

it('moves once for an arrow key pressed after hydration but before the release', async () => {
  container = document.createElement('div');
  container.innerHTML = renderToString(<SignInOrUp />);
  document.body.append(container);
  const earlyInput = holdEarlyInput(() => {});
  await act(async () => {
    hydrateRoot(container!, <SignInOrUp />);
  });
  const [signIn, signUp] = [...container.querySelectorAll('button')];
  signIn?.focus();
  await act(async () => {
    signIn?.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true }),
    );
  });
  await act(async () => earlyInput.release());
  await waitFor(() => expect(document.activeElement).toBe(signUp));
  // Twice would have wrapped round to the first tab.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(document.activeElement).toBe(signUp);
  expect(signUp?.getAttribute('aria-selected')).toBe('true');
});

function Menu() {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button type="button" aria-expanded={open} onPointerDown={() => setOpen((was) => !was)}>
        Menu
      </button>
      {open && <p>Opened</p>}
    </div>
  );
}

it('opens once a menu tapped again and again before it answers, also one that opens on pointer down', async () => {
  container = document.createElement('div');
  container.innerHTML = renderToString(<Menu />);
  document.body.append(container);
  const earlyInput = holdEarlyInput(() => {});
  const menu = container.querySelector('button') as HTMLButtonElement;
  // jsdom has no PointerEvent; React listens by the event's type.
  const tap = () => {
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup'])
      menu.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true }));
    menu.click();
  };
  tap();
  tap();
  await act(async () => {
    hydrateRoot(container!, <Menu />);
  });
  // React listens now, but the hold has not been released.
  await act(async () => tap());
  expect(menu.getAttribute('aria-expanded')).toBe('false');
  await act(async () => earlyInput.release());
  expect(menu.getAttribute('aria-expanded')).toBe('true');
  expect(container.textContent).toContain('Opened');
});
