import { configure, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { toast } from 'sonner';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { AppProvider } from '@/app/provider.js';
import { QueryScope } from '@/app/query-scope.js';
import { authStorageKey, createAuthClient } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { ContactForm } from './contact-form.js';
import { SupportTicketForm } from './support-ticket-form.js';

configure({ asyncUtilTimeout: 5000 });

// The form alone, with the real providers, the real auth client and a fake /api/v1 behind fetch.
function renderForm(form: ReactNode, { signedInAs }: { signedInAs?: string } = {}) {
  const auth = createFakeAuthServer();
  if (signedInAs) {
    auth.addUser(signedInAs, 'correct horse');
    window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession(signedInAs)));
  }
  const api = createFakeApiServer(auth);
  vi.stubGlobal('fetch', api.server.fetch);
  const authClient = createAuthClient(window.location.origin);
  onTestFinished(() => {
    authClient.stopAutoRefresh();
    window.localStorage.clear();
    toast.dismiss();
  });
  const router = createMemoryRouter([{ path: '/', element: form }]);
  render(
    <AppProvider authClient={authClient}>
      <QueryScope>
        <RouterProvider router={router} />
      </QueryScope>
    </AppProvider>,
  );
  return api;
}

const receipt = {
  reference: 'CNT-2026-000123',
  priority: 'high',
  response_target_hours: 2,
  confirmation_sent: true,
};

async function fillContactForm() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('First Name'), ' Ada ');
  await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
  await user.type(screen.getByLabelText('Email'), 'Ada@Example.com');
  await user.selectOptions(screen.getByLabelText('Subject'), 'Escrow');
  await user.click(screen.getByRole('radio', { name: /High/ }));
  await user.type(screen.getByLabelText('Message'), 'When does a Bitcoin deposit count as funded?');
  await user.click(screen.getByRole('checkbox'));
  return user;
}

describe('ContactForm', () => {
  it('shows a message on every bad field and sends nothing', async () => {
    const api = renderForm(<ContactForm />);
    expect(screen.getByRole('radio', { name: /Normal/ })).toBeChecked();
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
    await userEvent.type(screen.getByLabelText(/Phone/), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    for (const message of [
      'Enter your first name',
      'Enter your last name',
      'Enter a valid email address',
      'Enter a phone number with 7 to 15 digits, or leave it empty',
      'Choose a subject',
      'Tell us a little more (at least 20 characters)',
      'Please agree to the Privacy Policy so we can answer you',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('First Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('First Name')).toHaveAccessibleDescription('Enter your first name');
    expect(api.requestsTo('POST /support/contact')).toHaveLength(0);
  });

  it('sends the checked values and shows the reference and the response target', async () => {
    const api = renderForm(<ContactForm />);
    api.on('POST /support/contact', { status: 201, body: receipt });
    const user = await fillContactForm();
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Your reference is CNT-2026-000123');
    expect(status).toHaveTextContent(
      'We sent a confirmation to ada@example.com and aim to answer in under 2 hours.',
    );
    expect(api.requestsTo('POST /support/contact')[0]?.body).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      phone: '',
      subject: 'escrow',
      priority: 'high',
      message: 'When does a Bitcoin deposit count as funded?',
      consent: true,
    });
  });

  it('keeps what was typed when the server refuses, with the reason in a toast or on the field', async () => {
    const api = renderForm(<ContactForm />);
    api.on(
      'POST /support/contact',
      apiError(429, 'RATE_LIMITED', 'Too many messages from this network. Please try again in 12 minutes.'),
    );
    const user = await fillContactForm();
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    const toastItem = (
      await screen.findByText(/Please try again in 12 minutes\. Your text is kept\./)
    ).closest('li');
    expect(within(toastItem as HTMLElement).getByText('Too many messages')).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toHaveValue('When does a Bitcoin deposit count as funded?');
    expect(screen.getByLabelText('Email')).toHaveValue('Ada@Example.com');

    api.on(
      'POST /support/contact',
      apiError(400, 'VALIDATION_FAILED', 'The request is not valid', {
        in: 'body',
        issues: [{ path: '/email', message: 'This address cannot receive mail' }],
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('This address cannot receive mail')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('tells the visitor when the server cannot be reached', async () => {
    const api = renderForm(<ContactForm />);
    api.on('POST /support/contact', () => {
      throw new TypeError('Failed to fetch');
    });
    const user = await fillContactForm();
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText(/We could not reach Covenant/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });
});

describe('SupportTicketForm', () => {
  it('fills in a signed-in user’s address and sends the ticket with their token', async () => {
    const api = renderForm(<SupportTicketForm />, { signedInAs: 'grace@example.com' });
    api.on('POST /support/tickets', {
      status: 201,
      body: { ...receipt, reference: 'TKT-2026-000045', priority: 'normal', response_target_hours: 4 },
    });
    expect(await screen.findByDisplayValue('grace@example.com')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Submit Ticket' }));
    expect(await screen.findByText('Choose a category')).toBeInTheDocument();
    expect(api.requestsTo('POST /support/tickets')).toHaveLength(0);

    await user.type(screen.getByLabelText('Subject'), 'Payout address refused');
    await user.selectOptions(screen.getByLabelText('Category'), 'Trading Question');
    await user.type(screen.getByLabelText('Description'), 'The terms form refuses my Solana payout address.');
    await user.click(screen.getByRole('button', { name: 'Submit Ticket' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your reference is TKT-2026-000045');
    const [sent] = api.requestsTo('POST /support/tickets');
    expect(sent?.headers.get('authorization')).toMatch(/^Bearer /);
    expect(sent?.body).toEqual({
      email: 'grace@example.com',
      subject: 'Payout address refused',
      category: 'trading_question',
      description: 'The terms form refuses my Solana payout address.',
    });
  });
});
