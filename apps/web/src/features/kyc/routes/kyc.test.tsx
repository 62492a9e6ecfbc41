import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

configure({ asyncUtilTimeout: 5000 });

function submission(overrides: Record<string, unknown> = {}) {
  return {
    id: 'kyc-1',
    status: 'pending',
    subject_type: 'individual',
    legal_name: 'Ada Lovelace',
    country: 'GB',
    date_of_birth: '1990-12-10',
    place_of_birth_city: 'London',
    place_of_birth_country: 'GB',
    registration_number: null,
    registration_authority: null,
    address: '12 St James Square, London',
    town_name: 'London',
    requested_tier: 'enhanced',
    approved_tier: null,
    limit_usd: null,
    rejection_reason: null,
    submitted_at: '2026-03-04T10:00:00.000Z',
    reviewed_at: null,
    documents: [{ id: 'file-1', filename: 'passport.png', content_type: 'image/png', size: 2048 }],
    ...overrides,
  };
}

// Ada is signed in; GET /kyc answers with `submissions`.
function openKyc(submissions: unknown[] = []) {
  const auth = createFakeAuthServer();
  auth.addUser('ada@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('ada@example.com')));
  const api = createFakeApiServer(auth);
  api.on('GET /kyc', { status: 200, body: { data: submissions } });
  renderApp('/kyc', api.server);
  return api;
}

describe('/kyc', () => {
  it('offers the form to a trader who has not asked yet, and checks it before sending', async () => {
    const api = openKyc();
    const form = await screen.findByRole('form', { name: 'Verification form' });
    await userEvent.click(within(form).getByRole('button', { name: 'Submit for Verification' }));
    expect(await within(form).findByText('Enter the full legal name')).toBeInTheDocument();
    expect(within(form).getByText('Enter the date of birth')).toBeInTheDocument();
    expect(within(form).getByText('Enter the city of birth')).toBeInTheDocument();
    expect(
      within(form).getByText('Enter the country of birth as its ISO 3166-1 alpha-2 code, e.g. DE'),
    ).toBeInTheDocument();
    expect(within(form).getByText('Enter the town or city of the address')).toBeInTheDocument();
    expect(within(form).getByText('Attach between 1 and 5 documents')).toBeInTheDocument();

    await userEvent.type(within(form).getByLabelText('Full legal name'), 'Ada Lovelace');
    await userEvent.type(within(form).getByLabelText('Country (ISO code, e.g. DE)'), 'gb');
    await userEvent.type(within(form).getByLabelText('Residential address'), '12 St James Square, London');
    await userEvent.type(within(form).getByLabelText('Town or city'), 'London');
    await userEvent.type(within(form).getByLabelText('City of birth'), 'London');
    await userEvent.type(within(form).getByLabelText('Country of birth (ISO code, e.g. DE)'), 'gb');
    const tooYoung = `${new Date().getUTCFullYear() - 17}-01-01`;
    await userEvent.type(within(form).getByLabelText('Date of birth'), tooYoung);
    await userEvent.click(within(form).getByRole('button', { name: 'Submit for Verification' }));
    expect(await within(form).findByText('You must be at least 18 years old')).toBeInTheDocument();

    expect(within(form).queryByText('Enter the city of birth')).not.toBeInTheDocument();

    // A company gives a registration number, and may give its registration authority, instead of a
    // date and place of birth.
    await userEvent.selectOptions(within(form).getByLabelText('I am verifying'), 'company');
    expect(within(form).queryByLabelText('Date of birth')).not.toBeInTheDocument();
    expect(within(form).queryByLabelText('City of birth')).not.toBeInTheDocument();
    expect(within(form).getByLabelText('Company legal name')).toBeInTheDocument();
    await userEvent.type(within(form).getByLabelText('Registration authority (optional)'), 'Companies House');
    await userEvent.click(within(form).getByRole('button', { name: 'Submit for Verification' }));
    expect(await within(form).findByText('Enter the company registration number')).toBeInTheDocument();
    expect(
      within(form).getByText(
        'Enter the registration authority as its GLEIF code: RA and 6 digits, e.g. RA000585',
      ),
    ).toBeInTheDocument();
    expect(api.requestsTo('POST /kyc')).toHaveLength(0);
  });

  it('shows a pending request as under review, without the form', async () => {
    openKyc([submission()]);
    const latest = await screen.findByRole('region', { name: 'Latest verification request' });
    expect(within(latest).getByText('Under review')).toBeInTheDocument();
    expect(within(latest).getByText(/Your request for the Enhanced tier/)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Verification form' })).not.toBeInTheDocument();
  });

  it('shows the reason of a rejection and lets the trader try again', async () => {
    openKyc([submission({ status: 'rejected', rejection_reason: 'The scan is unreadable' })]);
    const latest = await screen.findByRole('region', { name: 'Latest verification request' });
    expect(within(latest).getByText('Rejected')).toBeInTheDocument();
    expect(within(latest).getByText('The scan is unreadable')).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Verification form' })).toBeInTheDocument();
  });

  it('shows the approved tier and limit, and offers a request for another tier', async () => {
    openKyc([
      submission({ status: 'approved', approved_tier: 'enhanced', limit_usd: '100000' }),
      submission({ id: 'kyc-0', status: 'rejected', rejection_reason: 'Expired passport' }),
    ]);
    const latest = await screen.findByRole('region', { name: 'Latest verification request' });
    expect(
      within(latest).getByText(/Verified at the Enhanced tier, up to \$100,000 per transaction/),
    ).toBeInTheDocument();
    expect(within(latest).getByRole('link', { name: 'Start Trading' })).toHaveAttribute('href', '/trading');
    expect(screen.getByText('Reason: Expired passport')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Verification form' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Request another tier' }));
    expect(screen.getByRole('form', { name: 'Verification form' })).toBeInTheDocument();
  });

  it('shows a failed read with a retry', async () => {
    const api = openKyc();
    api.on('GET /kyc', apiError(500, 'INTERNAL_ERROR', 'Internal server error'));
    expect(await screen.findByText(/Your verification could not be loaded/)).toBeInTheDocument();
    api.on('GET /kyc', { status: 200, body: { data: [submission()] } });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Under review')).toBeInTheDocument();
  });
});
