import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createFakeAuthServer, type FakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

async function openSignUp() {
  await userEvent.click(await screen.findByRole('tab', { name: 'Sign Up' }));
}

async function fillSignUp(fields: { email: string; password: string; confirm: string }) {
  await userEvent.type(screen.getByLabelText('First Name'), 'Ada');
  await userEvent.type(screen.getByLabelText('Last Name'), 'Lovelace');
  await userEvent.type(screen.getByLabelText('Username'), 'ada');
  await userEvent.type(screen.getByLabelText('Email'), fields.email);
  await userEvent.type(screen.getByLabelText('Password'), fields.password);
  await userEvent.type(screen.getByLabelText('Confirm Password'), fields.confirm);
}

async function fillSignIn(email: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
}

// A toast: its title and its description, as sonner renders them.
async function expectToast(title: string, description: string) {
  const toast = (await screen.findByText(title)).closest('li');
  expect(toast).not.toBeNull();
  expect(within(toast as HTMLElement).getByText(description)).toBeInTheDocument();
}

describe('/auth sign-up', () => {
  it('reports a password mismatch before a short password, and sends nothing', async () => {
    const server = createFakeAuthServer();
    renderApp('/auth', server);
    await openSignUp();
    await fillSignUp({ email: 'ada@example.com', password: 'abc', confirm: 'abd' });

    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));

    await expectToast('Password Mismatch', 'Passwords do not match. Please try again.');
    expect(screen.queryByText('Password Too Short')).not.toBeInTheDocument();
    expect(server.requestsTo('POST /signup')).toHaveLength(0);
  });

  it('reports a password shorter than 6 characters, and sends nothing', async () => {
    const server = createFakeAuthServer();
    renderApp('/auth', server);
    await openSignUp();
    await fillSignUp({ email: 'ada@example.com', password: 'abcde', confirm: 'abcde' });

    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));

    await expectToast('Password Too Short', 'Password must be at least 6 characters long.');
    expect(server.requestsTo('POST /signup')).toHaveLength(0);
  });

  it('signs up with the profile fields and the site as redirect, then asks to verify the e-mail', async () => {
    const server = createFakeAuthServer();
    const { router } = renderApp('/auth', server);
    await openSignUp();
    await fillSignUp({ email: 'ada@example.com', password: 'correct horse', confirm: 'correct horse' });

    const release = server.pause();
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    const busy = await screen.findByRole('button', { name: 'Creating Account...' });
    expect(busy).toBeDisabled();
    release();

    await expectToast('Registration Successful!', 'Please check your email to verify your account.');
    const [request] = server.requestsTo('POST /signup');
    expect(request?.body).toMatchObject({
      email: 'ada@example.com',
      password: 'correct horse',
      data: { first_name: 'Ada', last_name: 'Lovelace', username: 'ada' },
    });
    expect(request?.query.get('redirect_to')).toBe(window.location.origin);
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeEnabled();
    expect(router.state.location.pathname).toBe('/auth');
  });

  it.each<[string, (server: FakeAuthServer) => void, string]>([
    [
      'an e-mail already registered',
      (server) => server.addUser('ada@example.com', 'another secret'),
      'This email is already registered. Please sign in instead.',
    ],
    [
      'a password the server finds weak',
      (server) =>
        server.replyOnce('POST /signup', 422, {
          code: 'weak_password',
          msg: 'Password is known to be weak and easy to guess, please choose a different one.',
          weak_password: { reasons: ['pwned'] },
        }),
      'Password is too weak. Please choose a stronger password.',
    ],
    [
      'an unexpected server error',
      (server) => server.replyOnce('POST /signup', 500, { code: 'unexpected_failure', msg: 'boom' }),
      'An error occurred during registration.',
    ],
  ])('explains %s', async (_case, prepare, message) => {
    const server = createFakeAuthServer();
    prepare(server);
    renderApp('/auth', server);
    await openSignUp();
    await fillSignUp({ email: 'ada@example.com', password: 'correct horse', confirm: 'correct horse' });

    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));

    await expectToast('Registration Failed', message);
  });

  it('shows and hides both passwords with one toggle', async () => {
    renderApp('/auth', createFakeAuthServer());
    await openSignUp();
    const password = screen.getByLabelText('Password');
    const confirmation = screen.getByLabelText('Confirm Password');
    expect(screen.getAllByRole('button', { name: 'Show password' })).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(confirmation).toHaveAttribute('type', 'text');

    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
    expect(confirmation).toHaveAttribute('type', 'password');
  });

  it('links to the terms, the privacy policy and support', async () => {
    renderApp('/auth', createFakeAuthServer());
    await openSignUp();
    const form = within(screen.getByRole('tabpanel', { name: 'Sign Up' }));

    expect(form.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms-of-service');
    expect(form.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/contact');
  });
});

describe('/auth sign-in', () => {
  it('signs in, welcomes the user back and opens /trading', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    const { router } = renderApp('/auth', server);
    await fillSignIn('ada@example.com', 'correct horse');

    const release = server.pause();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('button', { name: 'Signing In...' })).toBeDisabled();
    release();

    await expectToast('Welcome back!', 'You have successfully signed in.');
    // The trading desk is its own chunk, loaded on the way: longer than the default wait on a busy machine.
    expect(await screen.findByRole('heading', { name: 'Trading' }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/trading');
  });

  it("shows the server's message when sign-in fails", async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    const { router } = renderApp('/auth', server);
    await fillSignIn('ada@example.com', 'wrong horse');

    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    await expectToast('Sign In Failed', 'Invalid login credentials');
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('falls back to a generic hint when the server gives no message', async () => {
    const server = createFakeAuthServer();
    server.replyOnce('POST /token', 400, {});
    renderApp('/auth', server);
    await fillSignIn('ada@example.com', 'correct horse');

    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    await expectToast('Sign In Failed', 'Please check your credentials and try again.');
  });

  it('shows and hides the password', async () => {
    renderApp('/auth', createFakeAuthServer());
    const password = await screen.findByLabelText('Password');

    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('sends a password-reset link that leads to /reset-password', async () => {
    const server = createFakeAuthServer();
    renderApp('/auth', server);
    await userEvent.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');

    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    const [request] = server.requestsTo('POST /recover');
    expect(request?.body).toMatchObject({ email: 'ada@example.com' });
    expect(request?.query.get('redirect_to')).toBe(`${window.location.origin}/reset-password`);

    await userEvent.click(screen.getByRole('button', { name: 'Back to Sign In' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument());
  });
});
