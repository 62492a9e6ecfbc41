import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64 } from '@scure/base';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { openDealAsGrace } from '@/testing/deal-fixture.js';
import { renderApp } from '@/testing/render-app.js';
import {
  solanaAccounts as a,
  encodeLegacyMessage,
  solCustody,
  solPayoutMessage,
  solPayoutSummary,
  usdcCustody,
  usdcPayoutMessage,
  usdcPayoutSummary,
} from '@/testing/solana-fixtures.js';
import { parseLegacyMessage } from '../lib/solana-message.js';

// The unlock dialog is one button handing over Grace's seed (the BIP-39 test phrase); the key
// derivation, the message check and the ed25519 signature are the real ones.
const testPhrase = `${'abandon '.repeat(11)}about`;
vi.mock('@/features/escrow-key/components/unlock-escrow-key.js', () => ({
  UnlockEscrowKey: ({
    onUnlocked,
    submitLabel,
  }: {
    onUnlocked: (mnemonic: string) => void;
    submitLabel: string;
  }) =>
    (
      <button type="button" onClick={() => onUnlocked(testPhrase)}>
        {submitLabel}
      </button>
    ) as ReactNode,
}));

const graceRefund = a.nonce;

// Grace (the seller) deposits the asset leg on Solana (1.5 SOL, or 250 USDC); Ada the stable leg
// in USDC on Ethereum.
function solLeg(changes: Record<string, unknown> = {}) {
  return {
    leg: 'asset',
    chain: 'SOL',
    symbol: 'SOL',
    amount: '1500000000',
    deposit_address: a.wsolAccount,
    depositor: 'seller',
    received: '0',
    pending: '0',
    confirmations: 0,
    required_confirmations: 1,
    state: 'awaiting_deposit',
    deadline: new Date(Date.now() + 24 * 3600_000).toISOString(),
    refund_after: null,
    payout: null,
    release_typed_data: null,
    signer_address: null,
    signing_payload: null,
    signer: null,
    custody: solCustody,
    ...changes,
  };
}

function usdcOnSolanaLeg(changes: Record<string, unknown> = {}) {
  return solLeg({
    symbol: 'USDC',
    amount: '250000000',
    deposit_address: a.usdcTokenAccount,
    custody: usdcCustody,
    ...changes,
  });
}

function ethUsdcLeg(changes: Record<string, unknown> = {}) {
  return {
    ...solLeg(),
    leg: 'stable',
    chain: 'ETH',
    symbol: 'USDC',
    amount: '30000000000',
    deposit_address: '0x57AB1e00000000000000000000000000000000BB',
    depositor: 'buyer',
    required_confirmations: 3,
    custody: null,
    ...changes,
  };
}

const solanaChain = {
  chain: 'SOL',
  chain_id: 0,
  network: 'localnet',
  fee_address: a.fee,
  explorer_url: null,
  tokens: [
    { symbol: 'SOL', decimals: 9, address: null },
    { symbol: 'USDC', decimals: 6, address: a.usdc },
  ],
};

function openSolanaDeal(
  status: string,
  legs: unknown[],
  {
    chains = [solanaChain] as unknown[],
    escrowStatus = status === 'escrow_funded' ? 'funded' : 'awaiting_funding',
  } = {},
) {
  const asset = legs[0] as { symbol: string; amount: string };
  const { api } = openDealAsGrace({
    status,
    asset_chain: 'SOL',
    asset_symbol: asset.symbol,
    asset_amount: asset.amount,
    accepted_terms_version: 1,
    addresses: {
      buyer: { payout_address: a.ada, refund_address: '0xAda0000000000000000000000000000000000002' },
      seller: { payout_address: '0x6Ace000000000000000000000000000000000001', refund_address: graceRefund },
    },
  });
  api.on('GET /deals/deal-1/terms', {
    status: 200,
    body: { versions: [], accepted_version: 1, terms_hash: null },
  });
  api.on('GET /chains', { status: 200, body: { data: chains } });
  api.on('GET /deals/deal-1/escrow', {
    status: 200,
    body: {
      escrow_id: '0b3f6a51-8a8b-4f5e-9d0e-3c8a2f1b7c11',
      deal_id: 'deal-1',
      status: escrowStatus,
      legs,
      settlement_transactions: null,
    },
  });
  renderApp('/trading/deals/deal-1', api.server);
  return api;
}

async function solanaLeg() {
  const panel = within(await screen.findByRole('region', { name: 'Escrow' }));
  return within(
    (await panel.findByRole('heading', { name: 'Asset leg: You deposit' })).closest('section') as HTMLElement,
  );
}

const message = 'message=Deal%20deal-1%2C%20asset%20leg';

describe('a Solana leg in the escrow panel', () => {
  it('shows the SOL deposit account with a QR code of the Solana Pay request, its exact amount, and the confirmations', async () => {
    openSolanaDeal('terms_agreed', [solLeg(), ethUsdcLeg()]);
    const leg = await solanaLeg();
    expect(leg.getByText(a.wsolAccount, { selector: 'code' })).toHaveClass('font-mono');
    // 1 500 000 000 lamports = 1.5 SOL, written from the integer; no spl-token for SOL.
    const uri = `solana:${a.wsolAccount}?amount=1.5&label=Covenant&${message}`;
    expect(leg.getByText(uri)).toBeInTheDocument();
    expect(leg.getByRole('img', { name: 'QR code of the deposit address' })).toHaveAttribute(
      'data-value',
      uri,
    );
    expect(leg.getByText(/Send exactly 1.5 SOL on Solana to this address/)).toBeInTheDocument();
    expect(leg.queryByText(/owner’s address/)).not.toBeInTheDocument();
    expect(leg.getByText('0 of 1 confirmations')).toBeInTheDocument();
    expect(leg.getByRole('button', { name: 'Copy payment request' })).toBeInTheDocument();
  });

  it('asks for a token by its mint, sent to the multisig, and only for what is still missing', async () => {
    // 100 USDC received, 50 pending: 100 USDC of the 250 still to send.
    openSolanaDeal('terms_agreed', [
      usdcOnSolanaLeg({ state: 'partially_funded', received: '100000000', pending: '50000000' }),
      ethUsdcLeg(),
    ]);
    const leg = await solanaLeg();
    expect(leg.getByText(a.usdcTokenAccount, { selector: 'code' })).toBeInTheDocument();
    expect(
      leg.getByText(`solana:${a.multisig}?amount=100&spl-token=${a.usdc}&label=Covenant&${message}`),
    ).toBeInTheDocument();
    expect(leg.getByText(/Send the 100 USDC still missing on Solana/)).toBeInTheDocument();
    expect(leg.getByText(/asks for the owner’s address instead/)).toHaveTextContent(
      `give ${a.multisig}: the USDC still lands in the deposit address.`,
    );
  });

  it('shows the custody: the three keys, the multisig and its accounts, folded, with the address recomputed', async () => {
    const user = userEvent.setup();
    openSolanaDeal('terms_agreed', [usdcOnSolanaLeg(), ethUsdcLeg()]);
    const leg = await solanaLeg();
    const summary = leg.getByText('Custody: 2-of-3 multisig');
    const details = summary.closest('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    await user.click(summary);
    const custodyView = within(details);
    for (const key of [a.ada, a.grace, a.platform, a.usdcTokenAccount, a.nonceAccount, a.usdc]) {
      expect(custodyView.getByText(key)).toBeInTheDocument();
    }
    expect(custodyView.getByText(`${a.multisig} (2 of 3)`)).toBeInTheDocument();
    expect(
      custodyView.getByText(
        'Checked in this browser: the deposit address is the multisig’s own USDC account.',
      ),
    ).toBeInTheDocument();
  });

  it('offers no payment request when the token is not the mint the server lists for it', async () => {
    const otherMint = { ...solanaChain, tokens: [{ symbol: 'USDC', decimals: 6, address: a.nonce }] };
    openSolanaDeal('terms_agreed', [usdcOnSolanaLeg(), ethUsdcLeg()], { chains: [otherMint] });
    const leg = await solanaLeg();
    expect(leg.getAllByRole('alert', { hidden: true })[0]).toHaveTextContent(
      'The leg’s token is not the one Covenant lists for this symbol. Do not deposit to this leg; contact support.',
    );
    expect(leg.queryByRole('img', { name: 'QR code of the deposit address' })).not.toBeInTheDocument();
    expect(leg.queryByText(/^solana:/)).not.toBeInTheDocument();
  });
});

describe('signing a Solana payout', () => {
  function fundedLeg(changes: Record<string, unknown> = {}, base = solLeg) {
    const sol = base === solLeg;
    const summary = sol ? solPayoutSummary : usdcPayoutSummary;
    return base({
      state: 'funded',
      received: sol ? '1500000000' : '250000000',
      confirmations: 1,
      payout: {
        kind: 'release',
        source: 'settlement',
        status: 'collecting',
        transfers: summary.transfers,
        approved_by: [],
        transaction_hash: null,
      },
      signer: a.grace,
      signing_payload: {
        format: 'solana_message',
        data: sol ? solPayoutMessage : usdcPayoutMessage,
        summary,
      },
      ...changes,
    });
  }

  async function confirmSection() {
    const panel = within(await screen.findByRole('region', { name: 'Escrow' }));
    return within(
      (await panel.findByRole('heading', { name: 'Confirm settlement' })).closest('section') as HTMLElement,
    );
  }

  function answerRelease(api: ReturnType<typeof openSolanaDeal>) {
    api.on('POST /escrow/release', {
      status: 202,
      body: {
        escrow_id: '0b3f6a51-8a8b-4f5e-9d0e-3c8a2f1b7c11',
        deal_id: 'deal-1',
        status: 'funded',
        legs: [solLeg({ state: 'funded' }), ethUsdcLeg({ state: 'funded' })],
        settlement_transactions: null,
      },
    });
  }

  it('shows recipient amount and platform fee, and that Covenant pays the network fee, before signing', async () => {
    openSolanaDeal('escrow_funded', [fundedLeg(), ethUsdcLeg({ state: 'funded' })]);
    const confirm = await confirmSection();
    const transfers = within(confirm.getByRole('list', { name: 'Transfers of the asset leg' }));
    expect(transfers.getByText(/^Pays/)).toHaveTextContent('Pays 1.49985 SOL to ada');
    expect(transfers.getByText(/^Fee of/)).toHaveTextContent('Fee of 0.00015 SOL to Covenant’s fee address');
    expect(confirm.getByText(/^Network fee/)).toHaveTextContent(
      'Network fee none (Covenant pays the Solana network fee, not out of these amounts)',
    );
    expect(confirm.getByText(/Signed in this browser with your Solana escrow key/)).toHaveTextContent(
      a.grace,
    );
  });

  it('signs the SOL payout message with the unlocked Solana escrow key and posts the base58 signature', async () => {
    const user = userEvent.setup();
    const api = openSolanaDeal('escrow_funded', [fundedLeg(), ethUsdcLeg({ state: 'funded' })]);
    answerRelease(api);
    const confirm = await confirmSection();
    await user.click(confirm.getByRole('button', { name: 'Confirm settlement' }));
    await waitFor(() => expect(api.requestsTo('POST /escrow/release')).toHaveLength(1));
    const body = api.requestsTo('POST /escrow/release')[0]?.body as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['deal_id', 'leg', 'signature']);
    expect(body).toMatchObject({ deal_id: 'deal-1', leg: 'asset' });
    const signature = base58.decode(body.signature!);
    expect(signature).toHaveLength(64);
    expect(ed25519.verify(signature, base64.decode(solPayoutMessage), base58.decode(a.grace))).toBe(true);
  });

  it('signs a token payout whose transfers go to the recipients’ token accounts', async () => {
    const user = userEvent.setup();
    const api = openSolanaDeal('escrow_funded', [
      fundedLeg({}, usdcOnSolanaLeg),
      ethUsdcLeg({ state: 'funded' }),
    ]);
    answerRelease(api);
    const confirm = await confirmSection();
    expect(confirm.getByText(/^Pays/)).toHaveTextContent('Pays 249.975 USDC to ada');
    await user.click(confirm.getByRole('button', { name: 'Confirm settlement' }));
    await waitFor(() => expect(api.requestsTo('POST /escrow/release')).toHaveLength(1));
    const body = api.requestsTo('POST /escrow/release')[0]?.body as Record<string, string>;
    expect(
      ed25519.verify(
        base58.decode(body.signature!),
        base64.decode(usdcPayoutMessage),
        base58.decode(a.grace),
      ),
    ).toBe(true);
  });

  it('refuses, without asking for the password, a message that pays other than what is shown', async () => {
    const tampered = parseLegacyMessage(base64.decode(solPayoutMessage));
    const payout = tampered.instructions[2]!;
    const data = payout.data.slice();
    new DataView(data.buffer).setBigUint64(4, 1_400_000_000n, true);
    payout.data = data;
    const api = openSolanaDeal('escrow_funded', [
      fundedLeg({
        signing_payload: {
          format: 'solana_message',
          data: base64.encode(encodeLegacyMessage(tampered)),
          summary: solPayoutSummary,
        },
      }),
      ethUsdcLeg({ state: 'funded' }),
    ]);
    const confirm = await confirmSection();
    expect(confirm.getByRole('alert')).toHaveTextContent(
      'Transfer 1 of the transaction is not the one shown, so it was not signed. Contact support.',
    );
    expect(confirm.queryByRole('button', { name: 'Confirm settlement' })).not.toBeInTheDocument();
    expect(api.requestsTo('POST /escrow/release')).toHaveLength(0);
  });

  it('refuses, without asking for the password, a payout whose custody does not recompute the deposit address', async () => {
    // Message and summary agree, but the leg's deposit address is not the custody's token account.
    const api = openSolanaDeal('escrow_funded', [
      fundedLeg({ deposit_address: a.adaUsdcAccount }),
      ethUsdcLeg({ state: 'funded' }),
    ]);
    const confirm = await confirmSection();
    expect(await confirm.findByRole('alert')).toHaveTextContent(
      'The deposit address is not the leg’s token account, so the payout was not signed. Contact support.',
    );
    expect(confirm.queryByRole('button', { name: 'Confirm settlement' })).not.toBeInTheDocument();
    expect(api.requestsTo('POST /escrow/release')).toHaveLength(0);
  });

  it('refuses a payout without its summary: there is nothing to check it against', async () => {
    openSolanaDeal('escrow_funded', [
      fundedLeg({ signing_payload: { format: 'solana_message', data: solPayoutMessage } }),
      ethUsdcLeg({ state: 'funded' }),
    ]);
    const confirm = await confirmSection();
    expect(confirm.getByRole('alert')).toHaveTextContent(
      'This payout comes without the summary of what it pays, so it cannot be checked or signed.',
    );
    expect(confirm.queryByRole('button', { name: 'Confirm settlement' })).not.toBeInTheDocument();
  });

  it('sends nothing when the payout asks for another Solana key than the one unlocked', async () => {
    const user = userEvent.setup();
    const api = openSolanaDeal('escrow_funded', [
      fundedLeg({ signer: a.ada }),
      ethUsdcLeg({ state: 'funded' }),
    ]);
    const confirm = await confirmSection();
    await user.click(confirm.getByRole('button', { name: 'Confirm settlement' }));
    expect(await confirm.findByRole('alert')).toHaveTextContent(
      `Your escrow key could not sign this payout. It asks for the Solana key ${a.ada}, and yours is ${a.grace}. Nothing was sent.`,
    );
    expect(api.requestsTo('POST /escrow/release')).toHaveLength(0);
  });

  it('shows, once settled, what the payout paid, without a Bitcoin network-fee note', async () => {
    const released = {
      kind: 'release',
      source: 'settlement',
      status: 'confirmed',
      approved_by: ['seller', 'platform'],
      transaction_hash: '5'.repeat(88),
      transfers: solPayoutSummary.transfers,
      network_fee: '0',
    };
    openSolanaDeal(
      'completed',
      [solLeg({ state: 'released', payout: released }), ethUsdcLeg({ state: 'released' })],
      {
        escrowStatus: 'settled',
      },
    );
    const panel = within(await screen.findByRole('region', { name: 'Escrow' }));
    const leg = within(
      (await panel.findByRole('heading', { name: 'Asset leg' })).closest('section') as HTMLElement,
    );
    expect(leg.getByText(/^Pays/)).toHaveTextContent('Pays 1.49985 SOL to ada');
    expect(leg.queryByText(/miners/)).not.toBeInTheDocument();
  });
});
