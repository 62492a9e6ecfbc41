import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

describe('/signup', () => {
  it('requires every field and keeps Create Account disabled until the terms are ticked', async () => {
    renderApp('/signup', createFakeAuthServer());

    for (const label of ['First Name', 'Last Name', 'Email', 'Password', 'Confirm Password']) {
      expect(await screen.findByLabelText(label)).toBeRequired();
    }
    const create = screen.getByRole('button', { name: 'Create Account' });
    expect(create).toBeDisabled();

    await userEvent.click(screen.getByRole('checkbox', { name: /I agree to the/ }));
    expect(create).toBeEnabled();
  });

  it('signs up for real with the names as profile data', async () => {
    const server = createFakeAuthServer();
    renderApp('/signup', server);
    await userEvent.type(await screen.findByLabelText('First Name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Last Name'), 'Lovelace');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'correct horse');
    await userEvent.click(screen.getByRole('checkbox', { name: /I agree to the/ }));

    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Registration Successful!')).toBeInTheDocument();
    expect(server.requestsTo('POST /signup')[0]?.body).toMatchObject({
      email: 'ada@example.com',
      data: { first_name: 'Ada', last_name: 'Lovelace' },
    });
  });

  it('shows Continue with Google disabled, with the reason, when Google is not configured', async () => {
    renderApp('/signup', createFakeAuthServer());

    const google = await screen.findByRole('button', { name: 'Continue with Google' });
    expect(google).toBeDisabled();
    expect(await screen.findByText('Google sign-in is not configured on this server.')).toBeInTheDocument();
    expect(google).toHaveAccessibleDescription('Google sign-in is not configured on this server.');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin');
  });
});

describe('/signin', () => {
  it('signs in for real and opens /trading', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    const { router } = renderApp('/signin', server);
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');

    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    // The trading desk is its own chunk, loaded on the way: longer than the default wait on a busy machine.
    expect(await screen.findByRole('heading', { name: 'Trading' }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/trading');
  });

  it('offers Continue with Google when the server reports it configured', async () => {
    renderApp('/signin', createFakeAuthServer({ google: true }));

    const google = await screen.findByRole('button', { name: 'Continue with Google' });
    await expect.poll(() => google.hasAttribute('disabled')).toBe(false);
    expect(screen.queryByText('Google sign-in is not configured on this server.')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
  });
});
