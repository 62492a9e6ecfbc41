import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openDealAsGrace } from '@/testing/deal-fixture.js';
import { apiError } from '@/testing/fake-api-server.js';
import { renderApp } from '@/testing/render-app.js';

// The escrow-key feature unlocks the seed with the escrow password and signs in the browser; here the
// unlock is one button and the signature a fixed value, so the tests follow what the panel does with them.
const sign = vi.hoisted(() => ({ signEscrowTypedData: vi.fn() }));
vi.mock('@/features/escrow-key/lib/escrow-seed.js', () => sign);
vi.mock('@/features/escrow-key/components/unlock-escrow-key.js', () => ({
  UnlockEscrowKey: ({
    onUnlocked,
    submitLabel,
  }: {
    onUnlocked: (mnemonic: string) => void;
    submitLabel: string;
  }) =>
    (
      <button type="button" onClick={() => onUnlocked('test test test junk')}>
        {submitLabel}
      </button>
    ) as ReactNode,
}));

const signature = `0x${'ab'.repeat(65)}`;
const addresses = {
  adaPayout: '0xAda0000000000000000000000000000000000001',
  adaRefund: '0xAda0000000000000000000000000000000000002',
  gracePayout: '0x6Ace000000000000000000000000000000000001',
  graceRefund: '0x6Ace000000000000000000000000000000000002',
  fee: '0xFee0000000000000000000000000000000000000',
  assetDeposit: '0xA55e7000000000000000000000000000000000AA',
  stableDeposit: '0x57AB1e00000000000000000000000000000000BB',
};
/** The asset leg's payout as the server builds it (`buildEthereumPayout`): Grace's 0.5 ETH released to Ada. */
function payoutTypedData(
  message: Record<string, unknown> = {},
  domain: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    domain: {
      name: 'CovenantEscrow',
      version: '1',
      chainId: 31337,
      verifyingContract: addresses.assetDeposit,
      ...domain,
    },
    types: {
      Payout: [
        { name: 'action', type: 'uint8' },
        { name: 'recipients', type: 'address[]' },
        { name: 'amounts', type: 'uint256[]' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    primaryType: 'Payout',
    message: {
      action: 0,
      recipients: [addresses.adaPayout],
      amounts: ['500000000000000000'],
      nonce: '0',
      ...message,
    },
  };
}
const typedData = payoutTypedData();
const refundTypedData = payoutTypedData({ action: 1, recipients: [], amounts: [] });

type Leg = Record<string, unknown>;

// Grace (the seller) deposits 0.5 ETH on the asset leg; Ada (the buyer) deposits 30,000 USDC.
function assetLeg(changes: Leg = {}): Leg {
  return {
    leg: 'asset',
    chain: 'ETH',
    symbol: 'ETH',
    amount: '500000000000000000',
    deposit_address: addresses.assetDeposit,
    depositor: 'seller',
    received: '0',
    pending: '0',
    confirmations: 0,
    required_confirmations: 3,
    state: 'awaiting_deposit',
    deadline: new Date(Date.now() + 24 * 3600_000).toISOString(),
    refund_after: null,
    payout: null,
    release_typed_data: null,
    signer_address: null,
    ...changes,
  };
}

function stableLeg(changes: Leg = {}): Leg {
  return assetLeg({
    leg: 'stable',
    symbol: 'USDC',
    amount: '30000000000',
    deposit_address: addresses.stableDeposit,
    depositor: 'buyer',
    ...changes,
  });
}

function escrowView(status: string, legs: Leg[], settlement: unknown = null) {
  return {
    escrow_id: '0b3f6a51-8a8b-4f5e-9d0e-3c8a2f1b7c11',
    deal_id: 'deal-1',
    status,
    legs,
    settlement_transactions: settlement,
  };
}

function chains({ devnet }: { devnet: boolean }) {
  return {
    status: 200,
    body: {
      data: [
        {
          chain: 'ETH',
          chain_id: devnet ? 31337 : 1,
          tokens: [],
          confirmations: 3,
          escrow_factory: '0xFac7000000000000000000000000000000000000',
          fee_address: addresses.fee,
          explorer_url: devnet ? null : 'https://etherscan.io',
          ...(devnet ? { rpc_url: 'http://127.0.0.1:8545' } : {}),
        },
      ],
    },
  };
}

function openDeal(status: string, { devnet = true }: { devnet?: boolean } = {}) {
  const { api, deal } = openDealAsGrace({
    status,
    asset_chain: 'ETH',
    asset_symbol: 'ETH',
    asset_amount: '500000000000000000',
    accepted_terms_version: status === 'draft' || status === 'cis_submitted' ? null : 1,
    addresses: {
      buyer: { payout_address: addresses.adaPayout, refund_address: addresses.adaRefund },
      seller: { payout_address: addresses.gracePayout, refund_address: addresses.graceRefund },
    },
  });
  api.on('GET /deals/deal-1/terms', {
    status: 200,
    body: { versions: [], accepted_version: 1, terms_hash: null, bitcoin_network: 'regtest' },
  });
  api.on('GET /chains', chains({ devnet }));
  return { api, deal };
}

/** The panel is a region named by its heading, so assistive technology (and the e2e tests) can find it. */
async function escrowPanel() {
  return within(await screen.findByRole('region', { name: 'Escrow' }));
}

beforeEach(() => {
  sign.signEscrowTypedData.mockReset();
});

describe('the escrow panel', () => {
  it('is not shown before the terms are agreed, and asks nothing of the server', async () => {
    const { api } = openDeal('cis_submitted');
    renderApp('/trading/deals/deal-1', api.server);
    await screen.findByRole('heading', { name: 'Terms' });
    expect(screen.queryByRole('heading', { name: 'Escrow', level: 2 })).not.toBeInTheDocument();
    expect(api.requestsTo('GET /deals/deal-1/escrow')).toHaveLength(0);
  });

  it('opens the escrow, showing the refusal when an escrow key is missing', async () => {
    const user = userEvent.setup();
    const { api } = openDeal('terms_agreed');
    api.on('GET /deals/deal-1/escrow', apiError(404, 'NOT_FOUND', 'This deal has no escrow yet'));
    api.on('POST /escrow/create', apiError(409, 'CONFLICT', 'Both parties need an escrow key first'));
    renderApp('/trading/deals/deal-1', api.server);

    const panel = await escrowPanel();
    await user.click(await panel.findByRole('button', { name: 'Open escrow' }));
    const alert = await panel.findByRole('alert');
    expect(alert).toHaveTextContent('Both parties need an escrow key first');
    expect(within(alert).getByRole('link', { name: 'Set up your escrow key' })).toHaveAttribute(
      'href',
      '/settings/escrow-key',
    );

    const view = escrowView('awaiting_funding', [assetLeg(), stableLeg()]);
    api.on('POST /escrow/create', () => {
      api.on('GET /deals/deal-1/escrow', { status: 200, body: view });
      return { status: 201, body: { escrow_id: view.escrow_id, legs: [] } };
    });
    await user.click(panel.getByRole('button', { name: 'Open escrow' }));
    expect(await panel.findByRole('heading', { name: 'Asset leg: You deposit' })).toBeInTheDocument();
    expect(panel.getByRole('heading', { name: 'Stablecoin leg: ada deposits' })).toBeInTheDocument();
    expect(api.requestsTo('POST /escrow/create').map((r) => r.body)).toEqual([
      { deal_id: 'deal-1' },
      { deal_id: 'deal-1' },
    ]);
    expect(panel.queryByRole('button', { name: 'Open escrow' })).not.toBeInTheDocument();
  });

  it('shows each leg’s deposit: amount, address with QR and copy, confirmations, state and deadline', async () => {
    const user = userEvent.setup();
    const { api } = openDeal('terms_agreed');
    // 23 h 59 min 30 s left; 0.2 of the 0.5 ETH confirmed once, 0.1 ETH more seen.
    const deadline = new Date(Date.now() + (24 * 3600 - 30) * 1000).toISOString();
    const legs = [
      assetLeg({
        state: 'partially_funded',
        received: '200000000000000000',
        pending: '100000000000000000',
        confirmations: 1,
        deadline,
      }),
      stableLeg({ state: 'funded', received: '30000000000', confirmations: 5 }),
    ];
    api.on('GET /deals/deal-1/escrow', { status: 200, body: escrowView('awaiting_funding', legs) });
    renderApp('/trading/deals/deal-1', api.server);

    const panel = await escrowPanel();
    const mine = within(
      (await panel.findByRole('heading', { name: 'Asset leg: You deposit' })).closest(
        'section',
      ) as HTMLElement,
    );
    expect(mine.getAllByText('0.5 ETH')[0]).toBeInTheDocument();
    expect(mine.getByText('on Ethereum')).toBeInTheDocument();
    expect(mine.getByText(addresses.assetDeposit)).toHaveClass('font-mono');
    expect(mine.getByText('Partially funded — 0.2 of 0.5 ETH received')).toBeInTheDocument();
    expect(mine.getByText('0.1 ETH seen, waiting for confirmations.')).toBeInTheDocument();
    const qr = mine.getByRole('img', { name: 'QR code of the deposit address' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;utf8,%3Csvg/);
    const progress = mine.getByRole('progressbar');
    expect(progress).toHaveAttribute('aria-valuenow', '1');
    expect(progress).toHaveAttribute('aria-valuemax', '3');
    expect(mine.getByText('1 of 3 confirmations')).toBeInTheDocument();
    expect(mine.getByText('Funding closes in 23 h 59 min')).toBeInTheDocument();

    await user.click(mine.getByRole('button', { name: 'Copy address' }));
    expect(await navigator.clipboard.readText()).toBe(addresses.assetDeposit);
    await user.click(mine.getByRole('button', { name: 'Copy amount' }));
    expect(await navigator.clipboard.readText()).toBe('0.5');

    // Ada's leg is funded: no deposit details or clock, its confirmations capped at the required depth.
    const theirs = within(
      panel.getByRole('heading', { name: 'Stablecoin leg: ada deposits' }).closest('section') as HTMLElement,
    );
    expect(theirs.getByText('30000 USDC')).toBeInTheDocument();
    expect(theirs.getByText('Funded')).toBeInTheDocument();
    expect(theirs.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '3');
    expect(theirs.getByText('3 of 3 confirmations')).toBeInTheDocument();
    expect(theirs.queryByRole('img')).not.toBeInTheDocument();
    expect(theirs.queryByText(/Funding closes/)).not.toBeInTheDocument();
  });

  it('counts down to the funding deadline and says when it has passed', async () => {
    const { api } = openDeal('terms_agreed');
    // Far enough ahead that a loaded machine still renders both clocks before it.
    const deadline = new Date(Date.now() + 4_000).toISOString();
    api.on('GET /deals/deal-1/escrow', {
      status: 200,
      body: escrowView('awaiting_funding', [assetLeg({ deadline }), stableLeg({ deadline })]),
    });
    renderApp('/trading/deals/deal-1', api.server);
    const panel = await escrowPanel();
    // Each leg's countdown ticks on its own timer: wait for both, not for the first to turn.
    await waitFor(() => expect(panel.getAllByText(/^Funding closes in \d s$/)).toHaveLength(2));
    await waitFor(() => expect(panel.getAllByText('Funding deadline passed')).toHaveLength(2), {
      timeout: 8_000,
    });
  });

  it('offers the devnet wallet on the devnet, for the viewer’s own unfunded leg only, and refreshes after', async () => {
    const user = userEvent.setup();
    const { api } = openDeal('terms_agreed');
    api.on('GET /deals/deal-1/escrow', {
      status: 200,
      body: escrowView('awaiting_funding', [assetLeg(), stableLeg()]),
    });
    api.on('POST /dev/fund', () => {
      api.on('GET /deals/deal-1/escrow', {
        status: 200,
        body: escrowView('awaiting_funding', [
          assetLeg({ state: 'funded', received: '500000000000000000', confirmations: 3 }),
          stableLeg(),
        ]),
      });
      return {
        status: 200,
        body: {
          leg: 'asset',
          deposit_address: addresses.assetDeposit,
          amount: '500000000000000000',
          transaction_hash: '0x01',
        },
      };
    });
    renderApp('/trading/deals/deal-1', api.server);

    const panel = await escrowPanel();
    const mine = within(
      (await panel.findByRole('heading', { name: 'Asset leg: You deposit' })).closest(
        'section',
      ) as HTMLElement,
    );
    const theirs = within(
      panel.getByRole('heading', { name: 'Stablecoin leg: ada deposits' }).closest('section') as HTMLElement,
    );
    await user.click(await mine.findByRole('button', { name: 'Fund from devnet wallet' }));
    expect(theirs.queryByRole('button', { name: 'Fund from devnet wallet' })).not.toBeInTheDocument();
    expect(await mine.findByText('Funded')).toBeInTheDocument();
    expect(api.requestsTo('POST /dev/fund').map((r) => r.body)).toEqual([
      { deal_id: 'deal-1', leg: 'asset' },
    ]);
    expect(mine.queryByRole('button', { name: 'Fund from devnet wallet' })).not.toBeInTheDocument();
  });

  it('does not offer the devnet wallet on a real chain', async () => {
    const { api } = openDeal('terms_agreed', { devnet: false });
    api.on('GET /deals/deal-1/escrow', {
      status: 200,
      body: escrowView('awaiting_funding', [assetLeg(), stableLeg()]),
    });
    renderApp('/trading/deals/deal-1', api.server);
    const panel = await escrowPanel();
    await panel.findByRole('heading', { name: 'Asset leg: You deposit' });
    await waitFor(() => expect(api.requestsTo('GET /chains').length).toBeGreaterThan(0));
    // The chains have answered (devnet: false) and the panel rendered again with them.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(panel.queryByRole('button', { name: 'Fund from devnet wallet' })).not.toBeInTheDocument();
  });
});

describe('confirming the settlement', () => {
  // Both legs funded; Grace must approve paying her 0.5 ETH to Ada, minus the 0.01% fee.
  const releasePayout = {
    kind: 'release',
    source: 'settlement',
    status: 'collecting',
    transfers: [
      { kind: 'payout', to: addresses.adaPayout, amount: '499950000000000000' },
      { kind: 'fee', to: addresses.fee, amount: '50000000000000' },
    ],
    approved_by: [],
    transaction_hash: null,
  };
  const signerAddress = '0x5167000000000000000000000000000000000001';

  function fundedEscrow() {
    return escrowView('funded', [
      assetLeg({
        state: 'funded',
        received: '500000000000000000',
        confirmations: 3,
        payout: releasePayout,
        release_typed_data: typedData,
        signer_address: signerAddress,
      }),
      stableLeg({
        state: 'funded',
        received: '30000000000',
        confirmations: 3,
        payout: { ...releasePayout, transfers: [] },
      }),
    ]);
  }

  it('explains what is signed, signs it with the unlocked key and sends the signature', async () => {
    const user = userEvent.setup();
    sign.signEscrowTypedData.mockResolvedValue(signature);
    const { api } = openDeal('escrow_funded');
    api.on('GET /deals/deal-1/escrow', { status: 200, body: fundedEscrow() });
    const approved = escrowView('funded', [
      // As the server answers: one party's approval makes that leg's payout ready (the platform co-signs
      // it), while the other leg's still collects.
      assetLeg({
        state: 'funded',
        confirmations: 3,
        payout: { ...releasePayout, status: 'ready', approved_by: ['seller'] },
      }),
      stableLeg({ state: 'funded', confirmations: 3, payout: { ...releasePayout, transfers: [] } }),
    ]);
    api.on('POST /escrow/release', () => {
      api.on('GET /deals/deal-1/escrow', { status: 200, body: approved });
      return { status: 202, body: approved };
    });
    renderApp('/trading/deals/deal-1', api.server);

    const panel = await escrowPanel();
    const confirm = within(
      (await panel.findByRole('heading', { name: 'Confirm settlement' })).closest('section') as HTMLElement,
    );
    const transfers = within(confirm.getByRole('list', { name: 'Transfers of the asset leg' }));
    // 0.5 ETH − 0.01% = 0.49995 ETH to Ada; the fee is 0.00005 ETH.
    expect(transfers.getByText(/^Pays/)).toHaveTextContent('Pays 0.49995 ETH to ada');
    expect(transfers.getByText(addresses.adaPayout)).toBeInTheDocument();
    expect(transfers.getByText(/^Fee of/)).toHaveTextContent('Fee of 0.00005 ETH to Covenant’s fee address');
    expect(confirm.getByText(signerAddress)).toBeInTheDocument();
    expect(
      confirm.getByText(/The escrow pays only once .* has confirmed the other leg too\./),
    ).toBeInTheDocument();

    await user.click(confirm.getByRole('button', { name: 'Confirm settlement' }));
    await waitFor(() => expect(api.requestsTo('POST /escrow/release')).toHaveLength(1));
    expect(sign.signEscrowTypedData).toHaveBeenCalledWith('test test test junk', typedData);
    expect(api.requestsTo('POST /escrow/release')[0]?.body).toEqual({
      deal_id: 'deal-1',
      leg: 'asset',
      signature,
    });
    expect(await panel.findByText('Waiting for ada to confirm')).toBeInTheDocument();
    expect(panel.queryByRole('heading', { name: 'Confirm settlement' })).not.toBeInTheDocument();
  });

  it('shows the server’s refusal of a signature that is not the registered key’s', async () => {
    const user = userEvent.setup();
    sign.signEscrowTypedData.mockResolvedValue(signature);
    const { api } = openDeal('escrow_funded');
    api.on('GET /deals/deal-1/escrow', { status: 200, body: fundedEscrow() });
    api.on(
      'POST /escrow/release',
      apiError(400, 'INVALID_SIGNATURE', 'The signature does not recover to your registered escrow address'),
    );
    renderApp('/trading/deals/deal-1', api.server);

    const panel = await escrowPanel();
    await user.click(await panel.findByRole('button', { name: 'Confirm settlement' }));
    expect(await panel.findByRole('alert')).toHaveTextContent(
      'The signature does not recover to your registered escrow address',
    );
    expect(panel.getByRole('button', { name: 'Confirm settlement' })).toBeInTheDocument();
  });

  it('says so when the key cannot sign, and sends nothing', async () => {
    const user = userEvent.setup();
    sign.signEscrowTypedData.mockRejectedValue(new Error('derived address differs'));
    const { api } = openDeal('escrow_funded');
    api.on('GET /deals/deal-1/escrow', { status: 200, body: fundedEscrow() });
    renderApp('/trading/deals/deal-1', api.server);

    const panel = await escrowPanel();
    await user.click(await panel.findByRole('button', { name: 'Confirm settlement' }));
    expect(await panel.findByRole('alert')).toHaveTextContent('Your escrow key could not sign this payout.');
    expect(api.requestsTo('POST /escrow/release')).toHaveLength(0);
  });

  const attacker = '0xBad0000000000000000000000000000000000666';

  /** The funded escrow with `typed` served for the asset leg's release, honest transfers shown beside it. */
  async function refusedRelease(typed: Record<string, unknown>, reason: string | RegExp) {
    sign.signEscrowTypedData.mockResolvedValue(signature);
    const { api } = openDeal('escrow_funded');
    const escrow = fundedEscrow();
    escrow.legs[0]!.release_typed_data = typed;
    api.on('GET /deals/deal-1/escrow', { status: 200, body: escrow });
    api.on('POST /escrow/release', { status: 202, body: escrow });
    renderApp('/trading/deals/deal-1', api.server);

    const panel = await escrowPanel();
    const section = within(
      (await panel.findByRole('heading', { name: 'Confirm settlement' })).closest('section') as HTMLElement,
    );
    const alert = await section.findByRole('alert');
    expect(alert).toHaveTextContent(reason);
    expect(alert).toHaveTextContent(
      'so it was not signed. Do not approve this payout anywhere else; contact support.',
    );
    // Neither the password form nor any transfer is offered: nothing can be signed or sent.
    expect(section.queryByRole('button', { name: 'Confirm settlement' })).not.toBeInTheDocument();
    expect(section.queryByRole('list', { name: 'Transfers of the asset leg' })).not.toBeInTheDocument();
    expect(sign.signEscrowTypedData).not.toHaveBeenCalled();
    expect(api.requestsTo('POST /escrow/release')).toHaveLength(0);
  }

  it('refuses a release screen serving a SPLIT of the leg to an attacker', async () => {
    await refusedRelease(
      payoutTypedData({ action: 2, recipients: [attacker], amounts: ['500000000000000000'] }),
      'The payout is not the release of this leg',
    );
  });

  it('refuses a release to another address than the buyer’s agreed payout address', async () => {
    await refusedRelease(
      payoutTypedData({ recipients: [attacker] }),
      'The payout is not the release of this leg',
    );
  });

  it('refuses a release for another amount than the deal’s', async () => {
    await refusedRelease(
      payoutTypedData({ amounts: ['400000000000000000'] }),
      'The payout is not the release of this leg',
    );
  });

  it('refuses a release that charges travel on the asset leg', async () => {
    await refusedRelease(
      payoutTypedData({ amounts: ['500000000000000000', '1'] }),
      'The payout is not the release of this leg',
    );
  });

  it('refuses a REFUND served on the release screen', async () => {
    await refusedRelease(
      payoutTypedData({ action: 1, recipients: [], amounts: [] }),
      'The payout is not the release of this leg',
    );
  });

  it('refuses a payout for another escrow contract', async () => {
    await refusedRelease(
      payoutTypedData({}, { verifyingContract: addresses.stableDeposit }),
      'The payout is for another escrow than this leg’s',
    );
  });

  it('refuses a payout bound to another chain id', async () => {
    await refusedRelease(
      payoutTypedData({}, { chainId: 1 }),
      'The payout is for another Ethereum network than this deal’s',
    );
  });

  it('refuses a payout whose domain is not the escrow contract’s', async () => {
    await refusedRelease(
      payoutTypedData({}, { name: 'USD Coin', version: '2' }),
      'The payout is not addressed to a Covenant escrow contract',
    );
  });

  it('refuses honest typed data shown beside transfers that pay someone else', async () => {
    sign.signEscrowTypedData.mockResolvedValue(signature);
    const { api } = openDeal('escrow_funded');
    const escrow = fundedEscrow();
    escrow.legs[0]!.payout = {
      ...releasePayout,
      transfers: [
        { kind: 'payout', to: addresses.adaPayout, amount: '499950000000000000' },
        { kind: 'fee', to: attacker, amount: '50000000000000' },
      ],
    };
    api.on('GET /deals/deal-1/escrow', { status: 200, body: escrow });
    renderApp('/trading/deals/deal-1', api.server);
    const panel = await escrowPanel();
    expect(await panel.findByRole('alert')).toHaveTextContent(
      'The transfers shown are not the ones the payout makes, so it was not signed.',
    );
    expect(panel.queryByRole('button', { name: 'Confirm settlement' })).not.toBeInTheDocument();
  });

  it('signs a split only as the mediator decided it, and refuses one the page knows no decision for', async () => {
    const user = userEvent.setup();
    sign.signEscrowTypedData.mockResolvedValue(signature);
    // The mediator gave Ada 0.3 ETH of the asset leg and Grace 0.2 back: SPLIT of Ada's gross 0.3 ETH.
    const split = {
      ...releasePayout,
      kind: 'split',
      source: 'mediator',
      transfers: [
        // 0.3 ETH − floor(0.3 ETH / 10 000) = 0.29997 ETH to Ada; 0.00003 ETH fee; 0.2 ETH back to Grace.
        { kind: 'payout', to: addresses.adaPayout, amount: '299970000000000000' },
        { kind: 'fee', to: addresses.fee, amount: '30000000000000' },
        { kind: 'refund', to: addresses.graceRefund, amount: '200000000000000000' },
      ],
    };
    const splitTyped = payoutTypedData({ action: 2, amounts: ['300000000000000000'] });
    const escrow = fundedEscrow();
    escrow.legs[0]!.payout = split;
    escrow.legs[0]!.release_typed_data = splitTyped;
    const decided = {
      seq: 9,
      action: 'dispute_decided',
      actor_id: 'user-mediator',
      created_at: '2026-03-05T10:00:00.000Z',
      details: {
        decision: 'split',
        amounts: {
          asset: { buyer: '300000000000000000', seller: '200000000000000000' },
          stable: { buyer: '0', seller: '30000000000' },
        },
      },
    };

    const unknown = openDeal('escrow_funded');
    unknown.api.on('GET /deals/deal-1/escrow', { status: 200, body: escrow });
    const first = renderApp('/trading/deals/deal-1', unknown.api.server);
    expect(await (await escrowPanel()).findByRole('alert')).toHaveTextContent(
      'The payout splits the leg, but this page knows of no mediator’s split on this deal to check it against, so it was not signed.',
    );
    first.unmount();

    const known = openDeal('escrow_funded');
    known.api.on('GET /deals/deal-1', { status: 200, body: { ...known.deal, history: [decided] } });
    known.api.on('GET /deals/deal-1/escrow', { status: 200, body: escrow });
    known.api.on('POST /escrow/release', { status: 202, body: escrow });
    renderApp('/trading/deals/deal-1', known.api.server);
    const panel = await escrowPanel();
    const section = within(
      (await panel.findByRole('heading', { name: 'Confirm settlement' })).closest('section') as HTMLElement,
    );
    const transfers = within(await section.findByRole('list', { name: 'Transfers of the asset leg' }));
    expect(transfers.getByText(/^Pays/)).toHaveTextContent('Pays 0.29997 ETH to ada');
    expect(transfers.getByText(/^Refunds/)).toHaveTextContent('Refunds 0.2 ETH to you');
    await user.click(section.getByRole('button', { name: 'Confirm settlement' }));
    await waitFor(() => expect(known.api.requestsTo('POST /escrow/release')).toHaveLength(1));
    expect(sign.signEscrowTypedData).toHaveBeenCalledWith('test test test junk', splitTyped);
  });

  it('says a leg is owed once the other leg has been paid out', async () => {
    // The stable leg's payout went out; the asset leg's was built again and awaits an approval.
    const paid = fundedEscrow();
    paid.legs[1]!.payout = {
      ...releasePayout,
      transfers: [],
      status: 'confirmed',
      transaction_hash: '0xabc',
    };
    const { api } = openDeal('escrow_funded');
    api.on('GET /deals/deal-1/escrow', { status: 200, body: paid });
    renderApp('/trading/deals/deal-1', api.server);
    const panel = await escrowPanel();
    const section = (await panel.findByRole('heading', { name: 'Confirm settlement' })).closest('section')!;
    expect(section).toHaveTextContent(
      'The other leg has been paid out, so this one is owed: you approve paying out the asset leg’s 0.5 ETH, exactly as below.',
    );
    expect(section).not.toHaveTextContent('The escrow pays only once');
  });

  it('confirms a refund of a cancelled deal with the same flow', async () => {
    const user = userEvent.setup();
    sign.signEscrowTypedData.mockResolvedValue(signature);
    const { api } = openDeal('cancelled');
    const refund = {
      kind: 'refund',
      source: 'cancellation',
      status: 'collecting',
      transfers: [{ kind: 'refund', to: addresses.graceRefund, amount: '500000000000000000' }],
      approved_by: [],
      transaction_hash: null,
    };
    api.on('GET /deals/deal-1/escrow', {
      status: 200,
      body: escrowView('refunding', [
        assetLeg({
          state: 'refunding',
          received: '500000000000000000',
          payout: refund,
          release_typed_data: refundTypedData,
        }),
        stableLeg(),
      ]),
    });
    api.on('POST /escrow/release', { status: 202, body: escrowView('refunding', [assetLeg(), stableLeg()]) });
    renderApp('/trading/deals/deal-1', api.server);

    const panel = await escrowPanel();
    const confirm = within(
      (await panel.findByRole('heading', { name: 'Confirm refund' })).closest('section') as HTMLElement,
    );
    expect(confirm.getByText(/^Refunds/)).toHaveTextContent('Refunds 0.5 ETH to you');
    await user.click(confirm.getByRole('button', { name: 'Confirm refund' }));
    await waitFor(() => expect(api.requestsTo('POST /escrow/release')).toHaveLength(1));
    expect(api.requestsTo('POST /escrow/release')[0]?.body).toEqual({
      deal_id: 'deal-1',
      leg: 'asset',
      signature,
    });
  });

  it('refuses a RELEASE served on the refund screen', async () => {
    sign.signEscrowTypedData.mockResolvedValue(signature);
    const { api } = openDeal('cancelled');
    const refund = {
      kind: 'refund',
      source: 'cancellation',
      status: 'collecting',
      transfers: [{ kind: 'refund', to: addresses.graceRefund, amount: '500000000000000000' }],
      approved_by: [],
      transaction_hash: null,
    };
    api.on('GET /deals/deal-1/escrow', {
      status: 200,
      body: escrowView('refunding', [
        assetLeg({
          state: 'refunding',
          received: '500000000000000000',
          payout: refund,
          release_typed_data: typedData,
        }),
        stableLeg(),
      ]),
    });
    renderApp('/trading/deals/deal-1', api.server);

    const panel = await escrowPanel();
    const section = within(
      (await panel.findByRole('heading', { name: 'Confirm refund' })).closest('section') as HTMLElement,
    );
    expect(await section.findByRole('alert')).toHaveTextContent(
      'The payout is not the refund of this leg to its depositor, so it was not signed. Do not approve this payout anywhere else; contact support.',
    );
    expect(section.queryByRole('button', { name: 'Confirm refund' })).not.toBeInTheDocument();
    expect(api.requestsTo('POST /escrow/release')).toHaveLength(0);
  });

  it('says why the system cancelled the deal: its settlement window closed', async () => {
    const { api } = openDealAsGrace({
      status: 'cancelled',
      asset_chain: 'ETH',
      asset_symbol: 'ETH',
      asset_amount: '500000000000000000',
      accepted_terms_version: 1,
      history: [
        {
          seq: 1,
          action: 'escrow_funded',
          actor_id: null,
          created_at: new Date().toISOString(),
          details: {},
        },
        {
          seq: 2,
          action: 'settlement_window_passed',
          actor_id: null,
          created_at: new Date().toISOString(),
          details: {},
        },
      ],
    });
    api.on('GET /deals/deal-1/terms', {
      status: 200,
      body: { versions: [], accepted_version: 1, terms_hash: null, bitcoin_network: 'regtest' },
    });
    api.on('GET /chains', chains({ devnet: true }));
    api.on('GET /deals/deal-1/escrow', {
      status: 200,
      body: escrowView('refunding', [
        assetLeg({ state: 'funded', received: '500000000000000000', confirmations: 3 }),
        stableLeg({ state: 'funded', received: '30000000000', confirmations: 3 }),
      ]),
    });
    renderApp('/trading/deals/deal-1', api.server);
    const panel = await escrowPanel();
    expect(
      await panel.findByText(
        'The deal did not settle within its settlement window, so it was cancelled: each deposit goes back to its refund address.',
      ),
    ).toBeInTheDocument();
  });

  it('invites no deposit once a cancelled deal’s escrow is refunding', async () => {
    const { api } = openDeal('cancelled');
    api.on('GET /deals/deal-1/escrow', {
      status: 200,
      body: escrowView('refunding', [
        assetLeg({ deadline: new Date(Date.now() - 60_000).toISOString() }),
        stableLeg({ state: 'refunding', received: '30000000000', confirmations: 3 }),
      ]),
    });
    renderApp('/trading/deals/deal-1', api.server);
    const panel = await escrowPanel();
    const mine = within(
      (await panel.findByRole('heading', { name: 'Asset leg: You deposit' })).closest(
        'section',
      ) as HTMLElement,
    );
    expect(mine.getByText('Awaiting deposit')).toBeInTheDocument();
    expect(panel.getByText('Refunding')).toBeInTheDocument();
    await waitFor(() => expect(api.requestsTo('GET /chains').length).toBeGreaterThan(0));
    expect(panel.queryByRole('img', { name: 'QR code of the deposit address' })).not.toBeInTheDocument();
    expect(panel.queryByRole('button', { name: 'Copy address' })).not.toBeInTheDocument();
    expect(panel.queryByText(/Funding (closes|deadline)/)).not.toBeInTheDocument();
    expect(panel.queryByRole('button', { name: 'Fund from devnet wallet' })).not.toBeInTheDocument();
  });

  it('counts down to the end of the settlement window while the deal has not started to settle', async () => {
    const { api } = openDeal('escrow_funded');
    const settleBy = new Date(Date.now() + 5 * 3600_000 - 30_000).toISOString();
    api.on('GET /deals/deal-1/escrow', { status: 200, body: { ...fundedEscrow(), settle_by: settleBy } });
    renderApp('/trading/deals/deal-1', api.server);
    const panel = await escrowPanel();
    expect(await panel.findByText(/^Settlement closes in 4 h 59 min$/)).toBeInTheDocument();
    expect(
      panel.getByText('If the deal has not settled by then, it is cancelled and both deposits are refunded.'),
    ).toBeInTheDocument();
  });

  it('says the payouts are settling once they are submitted', async () => {
    const { api } = openDeal('escrow_funded');
    const submitted = { ...releasePayout, status: 'submitted', approved_by: ['seller', 'buyer', 'platform'] };
    api.on('GET /deals/deal-1/escrow', {
      status: 200,
      body: {
        // A settlement keeps its escrow `funded` while its payouts are on their way.
        ...escrowView('funded', [
          assetLeg({ state: 'releasing', payout: submitted }),
          stableLeg({ state: 'releasing', payout: submitted }),
        ]),
        settle_by: new Date(Date.now() + 5 * 3600_000).toISOString(),
      },
    });
    renderApp('/trading/deals/deal-1', api.server);
    const panel = await escrowPanel();
    expect(await panel.findByText('Settling on-chain')).toBeInTheDocument();
    expect(panel.getAllByText('Releasing')).toHaveLength(2);
    // On its way, the settlement no longer runs against the window.
    expect(panel.queryByText(/^Settlement closes in/)).toBeNull();
  });
});

describe('a completed escrow', () => {
  const assetHash = `0x${'a1'.repeat(32)}`;
  const stableHash = `0x${'b2'.repeat(32)}`;
  function settled() {
    return escrowView(
      'settled',
      [
        assetLeg({
          state: 'released',
          payout: {
            kind: 'release',
            source: 'settlement',
            status: 'confirmed',
            transfers: [
              { kind: 'payout', to: addresses.adaPayout, amount: '499950000000000000' },
              { kind: 'fee', to: addresses.fee, amount: '50000000000000' },
            ],
            approved_by: ['seller', 'buyer', 'platform'],
            transaction_hash: assetHash,
          },
        }),
        stableLeg({
          state: 'released',
          payout: {
            kind: 'release',
            source: 'settlement',
            status: 'confirmed',
            transfers: [
              { kind: 'payout', to: addresses.gracePayout, amount: '29997000000' },
              { kind: 'fee', to: addresses.fee, amount: '3000000' },
            ],
            approved_by: ['seller', 'buyer', 'platform'],
            transaction_hash: stableHash,
          },
        }),
      ],
      { buyer: assetHash, seller: stableHash, fee: [assetHash, stableHash] },
    );
  }

  it('shows what each leg moved, with its transaction linked to the explorer', async () => {
    const { api } = openDeal('completed', { devnet: false });
    api.on('GET /deals/deal-1/escrow', { status: 200, body: settled() });
    renderApp('/trading/deals/deal-1', api.server);

    const panel = await escrowPanel();
    expect(await panel.findByText('The escrow is settled.')).toBeInTheDocument();
    const stable = within(
      panel.getByRole('heading', { name: 'Stablecoin leg' }).closest('section') as HTMLElement,
    );
    // 30,000 USDC − 0.01% = 29,997 USDC to Grace, 3 USDC fee.
    expect(stable.getByText(/^Pays/)).toHaveTextContent('Pays 29997 USDC to you');
    expect(stable.getByText(/^Fee of/)).toHaveTextContent('Fee of 3 USDC to Covenant’s fee address');
    expect(await stable.findByRole('link', { name: stableHash })).toHaveAttribute(
      'href',
      `https://etherscan.io/tx/${stableHash}`,
    );
    const asset = within(panel.getByRole('heading', { name: 'Asset leg' }).closest('section') as HTMLElement);
    expect(asset.getByText(/^Pays/)).toHaveTextContent('Pays 0.49995 ETH to ada');
    expect(asset.getByRole('link', { name: assetHash })).toHaveAttribute(
      'href',
      `https://etherscan.io/tx/${assetHash}`,
    );
    expect(panel.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows the hash with a copy button where the chain has no explorer, and stops polling', async () => {
    const user = userEvent.setup();
    const { api } = openDeal('completed', { devnet: true });
    api.on('GET /deals/deal-1/escrow', { status: 200, body: settled() });
    renderApp('/trading/deals/deal-1', api.server);

    const panel = await escrowPanel();
    const asset = within(
      (await panel.findByRole('heading', { name: 'Asset leg' })).closest('section') as HTMLElement,
    );
    expect(asset.getByText(assetHash)).toBeInTheDocument();
    expect(asset.queryByRole('link')).not.toBeInTheDocument();
    await user.click(asset.getByRole('button', { name: 'Copy transaction hash' }));
    expect(await navigator.clipboard.readText()).toBe(assetHash);
    const asked = api.requestsTo('GET /deals/deal-1/escrow').length;
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(api.requestsTo('GET /deals/deal-1/escrow')).toHaveLength(asked);
  });
});
