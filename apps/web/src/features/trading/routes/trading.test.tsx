import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

// Lazy routes and several requests per page: generous waits keep this stable on a busy machine.
configure({ asyncUtilTimeout: 5000 });

const verifiedProfile = {
  id: 'user-ada',
  email: 'ada@example.com',
  username: 'ada',
  first_name: 'Ada',
  last_name: 'Lovelace',
  verification_status: 'verified',
  trading_tier: 'enhanced',
  kyc_completed: true,
  tier_limit_usd: '100000',
  roles: [],
  matching_opt_out: false,
};

const unverifiedProfile = {
  ...verifiedProfile,
  verification_status: 'unverified',
  trading_tier: 'basic',
  kyc_completed: false,
  tier_limit_usd: null,
};

const partners = [
  {
    id: 'user-grace',
    username: 'GraceHopper',
    verification_status: 'verified',
    trading_tier: 'enhanced',
    kyc_completed: true,
  },
  {
    id: 'user-alan',
    username: 'alan',
    verification_status: 'verified',
    trading_tier: 'institutional',
    kyc_completed: true,
  },
];

function deal(overrides: Record<string, unknown> = {}) {
  return {
    id: 'deal-1',
    buyer_id: 'user-ada',
    seller_id: 'user-grace',
    counterparty_id: 'user-grace',
    buyer: { id: 'user-ada', username: 'ada', trading_tier: 'enhanced' },
    seller: { id: 'user-grace', username: 'GraceHopper', trading_tier: 'enhanced' },
    asset_chain: 'BTC',
    asset_symbol: 'BTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000500000',
    meeting_required: false,
    travel_location: null,
    status: 'draft',
    created_at: '2026-03-04T10:00:00.000Z',
    updated_at: '2026-03-04T10:00:00.000Z',
    completed_at: null,
    ...overrides,
  };
}

// Ada is signed in; /api/v1 answers with her profile, two partners and no deals unless told otherwise.
function openTrading({
  profile = verifiedProfile as unknown,
  path = '/trading',
  partnerList = partners as { id: string; username: string | null }[],
} = {}) {
  const auth = createFakeAuthServer();
  auth.addUser('ada@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('ada@example.com')));
  const api = createFakeApiServer(auth);
  api.on('GET /user/profile', { status: 200, body: profile });
  api.on('GET /partners', { status: 200, body: { data: partnerList } });
  api.on('GET /partners/matches', {
    status: 200,
    body: {
      status: 'ready',
      message: null,
      data: [
        {
          ...partners[1],
          score: 73,
          reasons: [
            'both trade BTC against USDC on Ethereum',
            'sizes overlap $50k–$250k',
            'settles within 24 h',
          ],
        },
      ],
    },
  });
  api.on('GET /deals', { status: 200, body: { data: [], has_more: false } });
  // As the server answers today: escrow runs on Ethereum only (Bitcoin and Solana are not listed).
  api.on('GET /chains', {
    status: 200,
    body: { data: [{ chain: 'ETH', chain_id: 31337, explorer_url: null }] },
  });
  const view = renderApp(path, api.server);
  return { api, ...view };
}

// A toast found by its message (titles repeat, e.g. "Invalid Amount"), with its title beside it.
async function expectToast(title: string, message: string) {
  const item = (await screen.findByText(message)).closest('li');
  expect(item).not.toBeNull();
  expect(within(item as HTMLElement).getByText(title)).toBeInTheDocument();
  toast.dismiss();
}

async function createTrade() {
  await userEvent.click(screen.getByRole('button', { name: 'Create Trade' }));
}

describe('/trading hero', () => {
  it('shows Verified, the tier and KYC Complete for a verified trader', async () => {
    openTrading();
    const badges = within(await screen.findByRole('list', { name: 'Account status' }));
    expect(badges.getByText('Verified')).toBeInTheDocument();
    expect(badges.getByText('Enhanced Tier')).toBeInTheDocument();
    expect(badges.getByText('KYC Complete')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Create Trade' })).toHaveAttribute('aria-selected', 'true');
  });

  it('shows Verification Pending as a link to /kyc, and no KYC Complete, for a trader without KYC', async () => {
    openTrading({ profile: unverifiedProfile });
    const badges = within(await screen.findByRole('list', { name: 'Account status' }));
    expect(badges.getByRole('link', { name: 'Verification Pending' })).toHaveAttribute('href', '/kyc');
    expect(badges.getByText('Basic Tier')).toBeInTheDocument();
    expect(badges.queryByText('KYC Complete')).not.toBeInTheDocument();
  });

  it('logs a failed profile read, shows it with a retry, and then asks to sign in when creating', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { api } = openTrading();
    api.on('GET /user/profile', apiError(500, 'INTERNAL_ERROR', 'Internal error'));

    expect(await screen.findByText('Your profile could not be loaded.')).toBeInTheDocument();
    expect(error).toHaveBeenCalledWith(
      'Error fetching profile:',
      expect.objectContaining({ code: 'INTERNAL_ERROR' }),
    );

    await createTrade();
    await expectToast('Authentication Required', 'Please sign in to create trades.');

    api.on('GET /user/profile', { status: 200, body: verifiedProfile });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('KYC Complete')).toBeInTheDocument();
  });
});

describe('/trading create trade', () => {
  it('offers only the chains GET /chains lists, and the symbols that live on the chosen chain (F11)', async () => {
    const { api } = openTrading();
    const assetSymbol = await screen.findByLabelText('Asset Symbol');
    const options = (select: HTMLElement) =>
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent);
    await waitFor(() => expect(api.requestsTo('GET /chains')).toHaveLength(1));
    await waitFor(() => expect(options(screen.getByLabelText('Asset Chain'))).toEqual(['ETH']));
    expect(options(screen.getByLabelText('Stable Chain'))).toEqual(['ETH']);
    expect(options(assetSymbol)).toEqual(['ETH', 'WETH', 'WBTC', 'USDC', 'USDT']);
    await userEvent.selectOptions(assetSymbol, 'WBTC');
    expect(assetSymbol).toHaveValue('WBTC');

    const stableSymbol = screen.getByLabelText('Stable Symbol');
    expect(options(stableSymbol)).toEqual(['USDC', 'USDT']);
    await userEvent.selectOptions(stableSymbol, 'USDT');
    expect(stableSymbol).toHaveValue('USDT');
  });

  it('offers Bitcoin and Solana once the server lists them', async () => {
    const { api } = openTrading();
    api.on('GET /chains', {
      status: 200,
      body: { data: ['ETH', 'BTC', 'SOL'].map((chain) => ({ chain, chain_id: 1, explorer_url: null })) },
    });
    const options = (select: HTMLElement) =>
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent);
    await waitFor(() => expect(options(screen.getByLabelText('Asset Chain'))).toEqual(['BTC', 'ETH', 'SOL']));
    await userEvent.selectOptions(screen.getByLabelText('Asset Chain'), 'SOL');
    expect(options(screen.getByLabelText('Asset Symbol'))).toEqual(['SOL', 'USDC', 'USDT']);
    expect(options(screen.getByLabelText('Stable Chain'))).toEqual(['ETH', 'SOL']);
  });

  it('shows the server’s refusal of a chain in its own words', async () => {
    const { api } = openTrading();
    const message = 'Escrow does not run on ETH yet: deals can use ETH only (see GET /api/v1/chains)';
    api.on('POST /deals', apiError(422, 'CHAIN_NOT_AVAILABLE', message, { chain: 'ETH' }));
    await screen.findByText('KYC Complete');
    await userEvent.selectOptions(screen.getByLabelText('Trading Partner'), 'GraceHopper (Enhanced Tier)');
    await userEvent.type(screen.getByLabelText('Asset Amount'), '1');
    await userEvent.type(screen.getByLabelText('Stable Amount'), '100');
    await createTrade();
    await expectToast('Chain Not Available', message);
  });

  it('has the spec input attributes and reveals Meeting Location with the meeting checkbox', async () => {
    openTrading();
    expect(await screen.findByLabelText('Asset Amount')).toMatchObject({
      step: '0.00000001',
      min: '0',
      max: '1000000',
    });
    expect(screen.getByLabelText('Stable Amount')).toMatchObject({ step: '0.01', min: '0', max: '1000000' });
    const partner = screen.getByLabelText('Trading Partner');
    expect(
      await within(partner).findByRole('option', { name: 'GraceHopper (Enhanced Tier)' }),
    ).toBeInTheDocument();
    expect(within(partner).getByRole('option', { name: 'alan (Institutional Tier)' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Meeting Location')).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('Require in-person meeting'));
    expect(screen.getByLabelText('Meeting Location')).toBeInTheDocument();
    expect(
      within(screen.getByLabelText('Duration'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['1-2 days', '1-3 days', '2-5 days', '3-7 days']);
    expect(
      within(screen.getByLabelText('Travel paid by'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Buyer', 'Seller', 'Split 50/50']);
  });

  it('asks for KYC first when the trader has none, even with nothing filled in', async () => {
    const { api } = openTrading({ profile: unverifiedProfile });
    await screen.findByText('Basic Tier');
    await createTrade();
    await expectToast('KYC Required', 'Please complete KYC verification before trading.');
    expect(api.requestsTo('POST /deals')).toHaveLength(0);
  });

  it('runs the checks in the spec order, then the tier limit, and sends nothing until all pass', async () => {
    const { api } = openTrading();
    await screen.findByText('KYC Complete');

    await createTrade();
    await expectToast('Select Partner', 'Please select a trading partner.');

    await userEvent.selectOptions(screen.getByLabelText('Trading Partner'), 'GraceHopper (Enhanced Tier)');
    await createTrade();
    await expectToast('Invalid Amount', 'Asset amount must be a positive number.');

    await userEvent.type(screen.getByLabelText('Asset Amount'), '0');
    await createTrade();
    await expectToast('Invalid Amount', 'Asset amount must be a positive number.');

    await userEvent.clear(screen.getByLabelText('Asset Amount'));
    await userEvent.type(screen.getByLabelText('Asset Amount'), '1000000.00000001');
    await createTrade();
    await expectToast('Invalid Amount', 'Stable amount must be a positive number.');

    await userEvent.type(screen.getByLabelText('Stable Amount'), '5000');
    await createTrade();
    await expectToast('Amount Too Large', 'Trade amounts exceed maximum limits.');

    await userEvent.clear(screen.getByLabelText('Asset Amount'));
    await userEvent.type(screen.getByLabelText('Asset Amount'), '1000000');
    await userEvent.clear(screen.getByLabelText('Stable Amount'));
    await userEvent.type(screen.getByLabelText('Stable Amount'), '1000000.01');
    await createTrade();
    await expectToast('Amount Too Large', 'Trade amounts exceed maximum limits.');

    await userEvent.clear(screen.getByLabelText('Stable Amount'));
    await userEvent.type(screen.getByLabelText('Stable Amount'), '100000.01');
    await createTrade();
    await expectToast(
      'Tier Limit Exceeded',
      'This trade exceeds your Enhanced tier limit of $100,000 per transaction.',
    );

    expect(api.requestsTo('POST /deals')).toHaveLength(0);
  });

  it('sends the amounts as exact base units, then confirms and reloads the trade list', async () => {
    const { api } = openTrading();
    api.on('POST /deals', (request) => ({
      status: 201,
      body: deal(request.body as Record<string, unknown>),
    }));
    await screen.findByText('KYC Complete');
    await waitFor(() => expect(api.requestsTo('GET /deals')).toHaveLength(1));

    await userEvent.selectOptions(screen.getByLabelText('Trading Partner'), 'GraceHopper (Enhanced Tier)');
    await userEvent.type(screen.getByLabelText('Asset Amount'), '0.00000001');
    await userEvent.type(screen.getByLabelText('Stable Amount'), '100000');
    await userEvent.click(screen.getByLabelText('Require in-person meeting'));
    await userEvent.type(screen.getByLabelText('Meeting Location'), 'Zurich');
    await createTrade();
    // Place alone is not enough: the terms cannot be accepted without coordinates and a first day.
    const toastTitle = await screen.findByText('Meeting Details');
    expect(toastTitle.closest('li')).toHaveTextContent(
      'Latitude is a number from -90 to 90 with at most 6 decimals, e.g. 46.2075.',
    );
    toast.dismiss();
    expect(screen.getByLabelText('Latitude')).toHaveAccessibleDescription(
      'Latitude is a number from -90 to 90 with at most 6 decimals, e.g. 46.2075.',
    );
    expect(screen.getByText('Choose the first day of the meeting.')).toBeInTheDocument();
    expect(api.requestsTo('POST /deals')).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Latitude'), '47.3769');
    await userEvent.type(screen.getByLabelText('Longitude'), '8.5417');
    await userEvent.type(screen.getByLabelText('First day'), '2026-12-01');
    await userEvent.selectOptions(screen.getByLabelText('Duration'), '2-5 days');
    await userEvent.selectOptions(screen.getByLabelText('Travel paid by'), 'Seller');
    await createTrade();

    await expectToast('Trade Created', 'Your trade has been created as a draft.');
    const [request] = api.requestsTo('POST /deals');
    expect(request?.body).toEqual({
      asset_chain: 'ETH',
      asset_symbol: 'ETH',
      asset_amount: '10000000000',
      stable_chain: 'ETH',
      stable_symbol: 'USDC',
      stable_amount: '100000000000',
      counterparty_id: 'user-grace',
      meeting_required: true,
      travel_location: 'Zurich',
      meeting: {
        location: 'Zurich',
        latitude: '47.3769',
        longitude: '8.5417',
        starts_on: '2026-12-01',
        duration: '2-5',
        travel_paid_by: 'seller',
      },
    });
    expect(request?.headers.get('Authorization')).toMatch(/^Bearer .+/);
    expect(request?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(api.requestsTo('GET /deals')).toHaveLength(2));
    expect(screen.getByLabelText('Asset Amount')).toHaveValue(null);
  });

  it('shows the server tier-limit refusal like its own, and any other failure as the spec error', async () => {
    const { api } = openTrading();
    await screen.findByText('KYC Complete');
    await userEvent.selectOptions(screen.getByLabelText('Trading Partner'), 'GraceHopper (Enhanced Tier)');
    await userEvent.type(screen.getByLabelText('Asset Amount'), '0.5');
    await userEvent.type(screen.getByLabelText('Stable Amount'), '9000');

    api.on(
      'POST /deals',
      apiError(422, 'TIER_LIMIT_EXCEEDED', 'Trade exceeds the tier limit', {
        tier: 'basic',
        limit_usd: '10000',
        value_usd: '9000',
      }),
    );
    await createTrade();
    await expectToast(
      'Tier Limit Exceeded',
      'This trade exceeds your Basic tier limit of $10,000 per transaction.',
    );

    // The partner's limit: the server's words, which name neither its tier nor its limit.
    api.on(
      'POST /deals',
      apiError(
        422,
        'TIER_LIMIT_EXCEEDED',
        'This trade exceeds your counterparty’s tier limit per transaction.',
        {
          party: 'counterparty',
          value_usd: '9000',
        },
      ),
    );
    await createTrade();
    await expectToast(
      'Tier Limit Exceeded',
      'This trade exceeds your counterparty’s tier limit per transaction.',
    );

    api.on('POST /deals', apiError(500, 'INTERNAL_ERROR', 'Internal error'));
    await createTrade();
    await expectToast('Error', 'Failed to create trade. Please try again.');
  });
});

describe('/trading other tabs', () => {
  it('My Trades: an empty state whose button goes back to Create Trade', async () => {
    openTrading();
    await userEvent.click(await screen.findByRole('tab', { name: /My Trades/ }));
    expect(await screen.findByText('No trades yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create Trade' }));
    expect(screen.getByRole('tab', { name: 'Create Trade' })).toHaveAttribute('aria-selected', 'true');
  });

  it('My Trades: a count and a card per trade with amounts, chains, status, date and meeting', async () => {
    const { api } = openTrading();
    api.on('GET /deals', {
      status: 200,
      body: {
        data: [deal({ meeting_required: true }), deal({ id: 'deal-2', status: 'completed' })],
        has_more: false,
      },
    });
    const tab = await screen.findByRole('tab', { name: /My Trades/ });
    await waitFor(() => expect(within(tab).getByTestId('trade-count')).toHaveTextContent('2'));
    await userEvent.click(tab);

    const [first, second] = await screen.findAllByTestId('trade-card');
    const card = within(first as HTMLElement);
    expect(card.getByText(/0\.5 BTC/)).toHaveTextContent('0.5 BTC for 30000.5 USDC');
    expect(card.getByText(/BTC/, { selector: 'p.flex' })).toHaveTextContent('BTC ETH');
    expect(card.getByText('Draft')).toBeInTheDocument();
    expect(card.getByText('Meeting Required')).toBeInTheDocument();
    expect(card.getByText(new Date('2026-03-04T10:00:00.000Z').toLocaleDateString())).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'View Details' })).toHaveAttribute('href', '/trading/deals/deal-1');
    expect(within(second as HTMLElement).getByText('Completed')).toBeInTheDocument();
    expect(within(second as HTMLElement).queryByText('Meeting Required')).not.toBeInTheDocument();
  });

  it('My Trades: loads older trades page by page, after the last one shown', async () => {
    const { api } = openTrading();
    api.on('GET /deals', (request) =>
      request.query.get('starting_after') === 'deal-1'
        ? { status: 200, body: { data: [deal({ id: 'deal-2', status: 'cancelled' })], has_more: false } }
        : { status: 200, body: { data: [deal()], has_more: true } },
    );
    const tab = await screen.findByRole('tab', { name: /My Trades/ });
    await waitFor(() => expect(within(tab).getByTestId('trade-count')).toHaveTextContent('1+'));
    await userEvent.click(tab);
    expect(await screen.findAllByTestId('trade-card')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Load More Trades' }));
    await waitFor(() => expect(screen.getAllByTestId('trade-card')).toHaveLength(2));
    expect(screen.getByText('Cancelled')).toHaveAttribute('data-tone', 'destructive');
    expect(within(tab).getByTestId('trade-count')).toHaveTextContent('2');
    expect(screen.queryByRole('button', { name: 'Load More Trades' })).not.toBeInTheDocument();
    expect(api.requestsTo('GET /deals').map((r) => r.query.get('limit'))).toEqual(['50', '50']);
  });

  it('My Trades: a failed read is logged and shown with a retry', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { api } = openTrading();
    api.on('GET /deals', apiError(503, 'INTERNAL_ERROR', 'Unavailable'));
    const tab = await screen.findByRole('tab', { name: /My Trades/ });
    await userEvent.click(tab);
    expect(await screen.findByText('Your trades could not be loaded.')).toBeInTheDocument();
    // No count is shown for trades that could not be read: "0" would say there are none.
    expect(within(tab).queryByTestId('trade-count')).not.toBeInTheDocument();
    expect(error).toHaveBeenCalledWith('Error fetching trades:', expect.objectContaining({ status: 503 }));

    api.on('GET /deals', { status: 200, body: { data: [], has_more: false } });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No trades yet')).toBeInTheDocument();
  });

  it('Find Partners: filters by username ignoring case, and Select Partner fills the create form', async () => {
    openTrading();
    await userEvent.click(await screen.findByRole('tab', { name: 'Find Partners' }));
    expect(await screen.findAllByTestId('partner-card')).toHaveLength(2);

    await userEvent.type(screen.getByLabelText('Search partners by username'), 'HOP');
    const [card] = screen.getAllByTestId('partner-card');
    expect(screen.getAllByTestId('partner-card')).toHaveLength(1);
    expect(within(card as HTMLElement).getByText('GraceHopper')).toBeInTheDocument();
    expect(within(card as HTMLElement).getByText('Enhanced Tier')).toBeInTheDocument();
    expect(within(card as HTMLElement).getByText('Verified')).toBeInTheDocument();

    await userEvent.click(within(card as HTMLElement).getByRole('button', { name: 'Select Partner' }));
    expect(screen.getByRole('tab', { name: 'Create Trade' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Trading Partner')).toHaveValue('user-grace');
  });

  it('Find Partners: finds a partner without a username by the name its card shows', async () => {
    openTrading({
      partnerList: [
        ...partners,
        { ...partners[1]!, id: '7f3a9c21-5d4e-4b8a-9f10-2c3d4e5f6a7b', username: null },
      ],
    });
    await userEvent.click(await screen.findByRole('tab', { name: 'Find Partners' }));
    expect(await screen.findAllByTestId('partner-card')).toHaveLength(3);
    await userEvent.type(screen.getByLabelText('Search partners by username'), 'trader 7f3a');
    const cards = screen.getAllByTestId('partner-card');
    expect(cards).toHaveLength(1);
    expect(within(cards[0] as HTMLElement).getByText('Trader 7f3a9c21')).toBeInTheDocument();
  });

  it('Find Partners: suggested counterparties with their fit and reasons, and Select Partner fills the create form', async () => {
    openTrading();
    await userEvent.click(await screen.findByRole('tab', { name: 'Find Partners' }));
    expect(screen.getByRole('heading', { name: 'Suggested counterparties' })).toBeInTheDocument();
    const [card] = await screen.findAllByTestId('suggestion-card');
    const suggestion = within(card as HTMLElement);
    expect(suggestion.getByText('alan')).toBeInTheDocument();
    expect(suggestion.getByText('Institutional Tier')).toBeInTheDocument();
    expect(suggestion.getByText('Fit 73/100')).toBeInTheDocument();
    expect(
      within(suggestion.getByRole('list', { name: 'Why' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['both trade BTC against USDC on Ethereum', 'sizes overlap $50k–$250k', 'settles within 24 h']);
    await userEvent.click(suggestion.getByRole('button', { name: 'Select Partner' }));
    expect(screen.getByRole('tab', { name: 'Create Trade' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Trading Partner')).toHaveValue('user-alan');
  });

  it('Find Partners: without a CIS, says why there are no suggestions and opens CIS Documents', async () => {
    const { api } = openTrading({ profile: { ...verifiedProfile, matching_opt_out: true } });
    api.on('GET /partners/matches', {
      status: 200,
      body: { status: 'cis_required', message: 'Store a Customer Information Sheet first.', data: [] },
    });
    api.on('GET /cis', { status: 200, body: { data: [] } });
    await userEvent.click(await screen.findByRole('tab', { name: 'Find Partners' }));
    expect(await screen.findByText('Store a Customer Information Sheet first.')).toBeInTheDocument();
    expect(screen.queryByTestId('suggestion-card')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change this in your settings' })).toHaveAttribute(
      'href',
      '/settings/matching',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Upload a CIS' }));
    expect(screen.getByRole('tab', { name: 'CIS Documents' })).toHaveAttribute('aria-selected', 'true');
  });

  it('/settings/matching: the opt-out toggle saves the profile setting', async () => {
    const { api } = openTrading({ path: '/settings/matching' });
    api.on('PATCH /user/profile', ({ body }) => ({
      status: 200,
      body: { ...verifiedProfile, ...(body as object) },
    }));
    const toggle = await screen.findByRole('checkbox', {
      name: 'Suggest me to other traders as a counterparty',
    });
    expect(toggle).toBeChecked();
    const menu = await screen.findByRole('navigation', { name: 'Account', hidden: true });
    expect(within(menu).getByRole('link', { name: 'Matching', hidden: true })).toHaveAttribute(
      'href',
      '/settings/matching',
    );
    await userEvent.click(toggle);
    expect(
      await screen.findByText('Saved: you are no longer suggested to other traders.'),
    ).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
    expect(api.requestsTo('PATCH /user/profile').map((request) => request.body)).toEqual([
      { matching_opt_out: true },
    ]);
  });

  it('CIS Documents: the empty state, then Upload CIS checks the form and lists the new sheet', async () => {
    const { api } = openTrading();
    const sheets: unknown[] = [];
    api.on('GET /cis', () => ({ status: 200, body: { data: sheets } }));
    api.on('POST /cis', ({ body }) => {
      const sheet = {
        id: 'cis-1',
        ...(body as object),
        has_pdf: false,
        created_at: '2026-03-04T10:00:00.000Z',
      };
      sheets.unshift(sheet);
      return { status: 201, body: sheet };
    });
    await userEvent.click(await screen.findByRole('tab', { name: 'CIS Documents' }));
    expect(await screen.findByText('No CIS documents yet')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Your Customer Information Sheets will be listed here. Both parties upload and approve a CIS before they negotiate terms.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Upload CIS' }));

    const form = within(screen.getByRole('form', { name: 'Customer Information Sheet' }));
    await userEvent.click(form.getByRole('button', { name: 'Save CIS' }));
    expect(await form.findByText('Enter the legal name')).toBeInTheDocument();
    expect(form.getByText('Choose at least one asset')).toBeInTheDocument();
    expect(form.getByText('Choose at least one chain')).toBeInTheDocument();
    expect(api.requestsTo('POST /cis')).toHaveLength(0);

    await userEvent.type(form.getByLabelText('Legal name'), 'Ada Lovelace');
    await userEvent.selectOptions(form.getByLabelText('Entity type'), 'Individual');
    // Countries are listed by name; the code is what is sent.
    await userEvent.selectOptions(form.getByLabelText('Jurisdiction'), 'United Kingdom');
    await userEvent.type(form.getByLabelText('Source of funds'), 'Royalties');
    await userEvent.click(form.getByLabelText('USDC'));
    await userEvent.click(form.getByLabelText('BTC', { selector: '[name="assets"]' }));
    await userEvent.type(form.getByLabelText('Minimum trade size (USD)'), '1,000,000');
    await userEvent.type(form.getByLabelText('Maximum trade size (USD)'), '100000');
    await userEvent.click(form.getByLabelText('ETH', { selector: '[name="preferred_chains"]' }));
    await userEvent.type(form.getByLabelText('Settlement window (hours)'), '169');
    await userEvent.click(form.getByRole('button', { name: 'Save CIS' }));
    expect(await form.findByText('The maximum trade size must be at least the minimum')).toBeInTheDocument();
    expect(
      form.getByText('The settlement window is a whole number of hours from 1 to 168 (7 days)'),
    ).toBeInTheDocument();
    expect(api.requestsTo('POST /cis')).toHaveLength(0);

    await userEvent.clear(form.getByLabelText('Maximum trade size (USD)'));
    await userEvent.type(form.getByLabelText('Maximum trade size (USD)'), '10000000');
    await userEvent.clear(form.getByLabelText('Settlement window (hours)'));
    await userEvent.type(form.getByLabelText('Settlement window (hours)'), '24');
    await userEvent.click(form.getByRole('button', { name: 'Save CIS' }));

    const [sheet] = await screen.findAllByTestId('cis-sheet');
    expect(api.requestsTo('POST /cis')[0]?.body).toEqual({
      legal_name: 'Ada Lovelace',
      entity_type: 'individual',
      jurisdiction: 'GB',
      source_of_funds: 'Royalties',
      assets: ['BTC', 'USDC'],
      size_min_usd: 1_000_000,
      size_max_usd: 10_000_000,
      preferred_chains: ['ETH'],
      settlement_window_hours: 24,
    });
    const value = (label: string) =>
      within(sheet as HTMLElement).getByText(label, { selector: 'dt' }).nextSibling;
    expect(value('Legal name')).toHaveTextContent('Ada Lovelace');
    expect(value('Jurisdiction')).toHaveTextContent('United Kingdom (GB)');
    expect(value('Assets')).toHaveTextContent('BTC, USDC');
    expect(value('Usual trade size')).toHaveTextContent('$1,000,000 – $10,000,000');
    expect(value('Settlement window')).toHaveTextContent('Within 24 hours');
    expect(value('Signed PDF')).toHaveTextContent('None');
    expect(screen.queryByText('No CIS documents yet')).not.toBeInTheDocument();
  });
});
