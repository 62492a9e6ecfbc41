import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { p2ms, p2wpkh, p2wsh, SigHash, Transaction } from '@scure/btc-signer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { openDealAsGrace } from '@/testing/deal-fixture.js';
import { renderApp } from '@/testing/render-app.js';

// The unlock dialog is one button handing over Grace's seed (the BIP-39 test phrase); the key
// derivation and the PSBT signature are the real ones.
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

const regtest = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
const keyOf = (n: number) => secp256k1.getPublicKey(hex.decode(n.toString(16).padStart(64, '0')), true);
// Grace's Bitcoin escrow key: the test phrase at m/84'/1'/0'/0/0 (regtest uses coin type 1).
const grace = hex.decode('02e7ab2537b5d49e970309aae06e9e49f36ce1c9febbd44ec8e0d1cca0b4f9c319');
const ada = keyOf(1);
const platform = keyOf(3);
const sorted = [ada, grace, platform].sort((a, b) => hex.encode(a).localeCompare(hex.encode(b)));
const escrow = p2wsh(p2ms(2, sorted), regtest);
const depositAddress = escrow.address!;
const custody = {
  witness_script: hex.encode(escrow.witnessScript!),
  public_keys: { buyer: hex.encode(ada), seller: hex.encode(grace), platform: hex.encode(platform) },
};
const adaPayout = p2wpkh(ada, regtest).address!;
const graceRefund = p2wpkh(grace, regtest).address!;
const feeAddress = p2wpkh(platform, regtest).address!;

// Grace (the seller) deposits the asset leg in BTC; Ada the stable leg in USDC on Ethereum.
function btcLeg(changes: Record<string, unknown> = {}) {
  return {
    leg: 'asset',
    chain: 'BTC',
    symbol: 'BTC',
    amount: '150000000',
    deposit_address: depositAddress,
    depositor: 'seller',
    received: '0',
    pending: '0',
    confirmations: 0,
    required_confirmations: 2,
    state: 'awaiting_deposit',
    deadline: new Date(Date.now() + 24 * 3600_000).toISOString(),
    refund_after: null,
    payout: null,
    release_typed_data: null,
    signer_address: null,
    signing_payload: null,
    signer: null,
    custody,
    ...changes,
  };
}

function usdcLeg(changes: Record<string, unknown> = {}) {
  return {
    ...btcLeg(),
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

function openBitcoinDeal(
  status: string,
  legs: unknown[],
  escrowStatus = status === 'escrow_funded' ? 'funded' : 'awaiting_funding',
) {
  const { api } = openDealAsGrace({
    status,
    asset_amount: '150000000',
    accepted_terms_version: 1,
    addresses: {
      buyer: { payout_address: adaPayout, refund_address: '0xAda0000000000000000000000000000000000002' },
      seller: { payout_address: '0x6Ace000000000000000000000000000000000001', refund_address: graceRefund },
    },
  });
  api.on('GET /deals/deal-1/terms', {
    status: 200,
    body: { versions: [], accepted_version: 1, terms_hash: null, bitcoin_network: 'regtest' },
  });
  api.on('GET /chains', {
    status: 200,
    body: {
      data: [
        {
          chain: 'BTC',
          network: 'regtest',
          tokens: [],
          confirmations: 2,
          fee_address: feeAddress,
          explorer_url: null,
        },
      ],
    },
  });
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

async function bitcoinLeg() {
  const panel = within(await screen.findByRole('region', { name: 'Escrow' }));
  return within(
    (await panel.findByRole('heading', { name: 'Asset leg: You deposit' })).closest('section') as HTMLElement,
  );
}

describe('a Bitcoin leg in the escrow panel', () => {
  it('shows the P2WSH address with a QR code of the BIP 21 request, its exact amount, and the confirmations', async () => {
    openBitcoinDeal('terms_agreed', [btcLeg(), usdcLeg()]);
    const leg = await bitcoinLeg();
    expect(leg.getByText(depositAddress)).toHaveClass('font-mono');
    // 150 000 000 sat = 1.5 BTC, written from the integer satoshis.
    const uri = `bitcoin:${depositAddress}?amount=1.5`;
    expect(leg.getByText(uri)).toBeInTheDocument();
    const qr = leg.getByRole('img', { name: 'QR code of the deposit address' });
    expect(qr).toHaveAttribute('data-value', uri);
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;utf8,%3Csvg/);
    expect(leg.getByText(/Send exactly 1.5 BTC on Bitcoin/)).toBeInTheDocument();
    expect(leg.getByRole('progressbar')).toHaveAttribute('aria-valuemax', '2');
    expect(leg.getByText('0 of 2 confirmations')).toBeInTheDocument();
  });

  it('asks for 10 001 sat as amount=0.00010001, and says a payment below 0.0001 BTC is not counted', async () => {
    openBitcoinDeal('terms_agreed', [btcLeg({ amount: '10001' }), usdcLeg()]);
    const leg = await bitcoinLeg();
    expect(leg.getByText(`bitcoin:${depositAddress}?amount=0.00010001`)).toBeInTheDocument();
    expect(leg.getByText(/A payment below 0.0001 BTC is not counted\.$/)).toBeInTheDocument();
  });

  it('asks for 0.0001 BTC when less than that is missing, the rest coming back at settlement', async () => {
    // 1.5 BTC due, 1.49995 BTC received: 5 000 sat missing, below the 10 000 sat counted as a payment.
    openBitcoinDeal('terms_agreed', [
      btcLeg({ state: 'partially_funded', received: '149995000', confirmations: 2 }),
      usdcLeg(),
    ]);
    const leg = await bitcoinLeg();
    expect(leg.getByText(`bitcoin:${depositAddress}?amount=0.0001`)).toBeInTheDocument();
    expect(
      leg.getByText(/send 0.0001 BTC: what is over comes back to you at settlement\.$/),
    ).toBeInTheDocument();
  });

  it('shows a deposit seen in the mempool as pending, and asks only for what is still missing', async () => {
    // 0.5 BTC confirmed once, 0.25 BTC pending: 0.75 BTC of the 1.5 still to send.
    openBitcoinDeal('terms_agreed', [
      btcLeg({ state: 'partially_funded', received: '50000000', pending: '25000000', confirmations: 1 }),
      usdcLeg(),
    ]);
    const leg = await bitcoinLeg();
    expect(leg.getByText(/^0.25 BTC pending: seen in the mempool/)).toBeInTheDocument();
    expect(leg.getByText(`bitcoin:${depositAddress}?amount=0.75`)).toBeInTheDocument();
    expect(leg.getByText('1 of 2 confirmations')).toBeInTheDocument();
  });

  it('shows the custody: the three keys and the witness script, folded, with the address recomputed', async () => {
    const user = userEvent.setup();
    openBitcoinDeal('terms_agreed', [btcLeg(), usdcLeg()]);
    const leg = await bitcoinLeg();
    const summary = leg.getByText('Custody: 2-of-3 multisig');
    const details = summary.closest('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    await user.click(summary);
    expect(details.open).toBe(true);
    const custodyView = within(details);
    expect(custodyView.getByText(/Anyone can recompute the deposit address from them/)).toBeInTheDocument();
    for (const key of Object.values(custody.public_keys))
      expect(custodyView.getByText(key)).toBeInTheDocument();
    expect(custodyView.getByText(custody.witness_script)).toBeInTheDocument();
    expect(custodyView.getByText(/Checked in this browser/)).toBeInTheDocument();
  });
});

describe('signing a Bitcoin payout', () => {
  // Grace releases the 1.5 BTC = 150 000 000 sat: 15 000 sat (1 bp) to the fee address, and to Ada
  // 150 000 000 − 15 000 − 1 780 (the network fee: 178 vB, one 2-of-3 input and two P2WPKH outputs,
  // at 10 sat/vB) = 149 983 220 sat.
  const outputs = [
    { kind: 'payout', to: adaPayout, amount: '149983220' },
    { kind: 'fee', to: feeAddress, amount: '15000' },
  ];
  function payoutPsbt(paid = outputs, deposit = 150_000_000n): string {
    const transaction = new Transaction();
    transaction.addInput({
      txid: hex.decode('aa'.repeat(32)),
      index: 0,
      witnessUtxo: { script: escrow.script, amount: deposit },
      witnessScript: escrow.witnessScript,
    });
    for (const output of paid) transaction.addOutputAddress(output.to, BigInt(output.amount), regtest);
    return base64.encode(transaction.toPSBT());
  }
  function fundedLeg(
    dustFolded: unknown[],
    summary: Record<string, unknown> = {},
    { paid = outputs, deposit = 150_000_000n }: { paid?: typeof outputs; deposit?: bigint } = {},
  ) {
    return btcLeg({
      state: 'funded',
      received: '150000000',
      confirmations: 2,
      payout: {
        kind: 'release',
        source: 'settlement',
        status: 'collecting',
        transfers: paid,
        approved_by: [],
        transaction_hash: null,
      },
      signer: hex.encode(grace),
      signing_payload: {
        format: 'psbt',
        data: payoutPsbt(paid, deposit),
        summary: {
          outputs: paid,
          network_fee: (deposit - paid.reduce((sum, output) => sum + BigInt(output.amount), 0n)).toString(),
          fee_rate_sat_vb: 10,
          dust_folded: dustFolded,
          ...summary,
        },
      },
    });
  }

  async function confirmSection() {
    const panel = within(await screen.findByRole('region', { name: 'Escrow' }));
    return within(
      (await panel.findByRole('heading', { name: 'Confirm settlement' })).closest('section') as HTMLElement,
    );
  }

  it('shows recipient amount, platform fee and network fee before signing, without a dust sentence when nothing was folded', async () => {
    openBitcoinDeal('escrow_funded', [fundedLeg([]), usdcLeg({ state: 'funded' })]);
    const confirm = await confirmSection();
    const transfers = within(confirm.getByRole('list', { name: 'Transfers of the asset leg' }));
    expect(transfers.getByText(/^Pays/)).toHaveTextContent('Pays 1.4998322 BTC to ada');
    expect(transfers.getByText(/^Fee of/)).toHaveTextContent('Fee of 0.00015 BTC to Covenant’s fee address');
    // A summary without `refund_network_fee` (stored before it existed): the recipient pays it all.
    expect(confirm.getByText(/^Network fee/)).toHaveTextContent(
      'Network fee 0.0000178 BTC (10 sat/vB), paid to the Bitcoin miners out of the recipient’s amount',
    );
    expect(confirm.queryByText(/dust limit/)).not.toBeInTheDocument();
  });

  it('says how the network fee is split when the depositor’s refund pays for deposit outputs the amount did not need', async () => {
    // 1 000 of the 1 780 sat out of the refund, the other 780 out of Ada's payout.
    openBitcoinDeal('escrow_funded', [
      fundedLeg([], { refund_network_fee: '1000' }),
      usdcLeg({ state: 'funded' }),
    ]);
    const confirm = await confirmSection();
    expect(confirm.getByText(/^Network fee/)).toHaveTextContent(
      'Network fee 0.0000178 BTC (10 sat/vB), paid to the Bitcoin miners: 0.0000078 BTC out of the recipient’s amount, 0.00001 BTC out of the depositor’s refund for the deposit outputs beyond those the amount needed',
    );
  });

  it('says when an output below the dust limit was folded into the network fee', async () => {
    // Grace sent 300 sat too many: her refund of them, below the dust limit, went to the miners.
    openBitcoinDeal('escrow_funded', [
      fundedLeg([{ kind: 'refund', to: graceRefund, amount: '300' }], {}, { deposit: 150_000_300n }),
      usdcLeg({ state: 'funded' }),
    ]);
    const confirm = await confirmSection();
    expect(
      confirm.getByText(
        'An output below the dust limit (0.000003 BTC) was folded into the network fee: it would cost more to spend than it is worth.',
      ),
    ).toBeInTheDocument();
  });

  it('signs the PSBT with the unlocked Bitcoin escrow key and posts it to escrow/release', async () => {
    const user = userEvent.setup();
    const api = openBitcoinDeal('escrow_funded', [fundedLeg([]), usdcLeg({ state: 'funded' })]);
    api.on('POST /escrow/release', {
      status: 202,
      body: {
        escrow_id: '0b3f6a51-8a8b-4f5e-9d0e-3c8a2f1b7c11',
        deal_id: 'deal-1',
        status: 'funded',
        legs: [btcLeg({ state: 'funded' }), usdcLeg({ state: 'funded' })],
        settlement_transactions: null,
      },
    });
    const confirm = await confirmSection();
    await user.click(confirm.getByRole('button', { name: 'Confirm settlement' }));
    await waitFor(() => expect(api.requestsTo('POST /escrow/release')).toHaveLength(1));
    const body = api.requestsTo('POST /escrow/release')[0]?.body as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['deal_id', 'leg', 'psbt']);
    expect(body).toMatchObject({ deal_id: 'deal-1', leg: 'asset' });
    // The PSBT comes back with Grace's SIGHASH_ALL signature on its input, one that verifies.
    const signed = Transaction.fromPSBT(base64.decode(body.psbt!));
    const [[key, signature]] = signed.getInput(0).partialSig as [[Uint8Array, Uint8Array]];
    expect(hex.encode(key)).toBe(hex.encode(grace));
    const digest = signed.preimageWitnessV0(0, escrow.witnessScript!, SigHash.ALL, 150_000_000n);
    expect(secp256k1.verify(signature.slice(0, -1), digest, grace, { prehash: false, format: 'der' })).toBe(
      true,
    );
  });

  /** The payout offered with `leg`: refused with `reason` before the password is asked for, nothing sent. */
  async function refused(leg: Record<string, unknown>, reason: string) {
    const api = openBitcoinDeal('escrow_funded', [leg, usdcLeg({ state: 'funded' })]);
    const confirm = await confirmSection();
    expect(await confirm.findByRole('alert')).toHaveTextContent(
      `${reason} Do not approve this payout anywhere else; contact support.`,
    );
    expect(confirm.queryByRole('button', { name: 'Confirm settlement' })).not.toBeInTheDocument();
    expect(confirm.queryByRole('list', { name: 'Transfers of the asset leg' })).not.toBeInTheDocument();
    expect(api.requestsTo('POST /escrow/release')).toHaveLength(0);
  }

  it('refuses a payout whose fee output, shown and paid alike, goes to an address that is not Covenant’s', async () => {
    const attacker = p2wpkh(keyOf(6), regtest).address!;
    await refused(
      fundedLeg([], {}, { paid: [outputs[0]!, { kind: 'fee', to: attacker, amount: '15000' }] }),
      'An output marked fee pays an address other than Covenant’s fee address, so it was not signed.',
    );
  });

  it('refuses a payout to another address than Ada’s agreed one, or short of the deal’s amount', async () => {
    const attacker = p2wpkh(keyOf(6), regtest).address!;
    await refused(
      fundedLeg([], {}, { paid: [{ kind: 'payout', to: attacker, amount: '149983220' }, outputs[1]!] }),
      'An output marked payout pays an address other than the receiver’s payout address, so it was not signed.',
    );
  });

  it('refuses a network fee beyond the server’s fee rules', async () => {
    // 100 000 sat less to Ada, the same to the miners: summary and PSBT agree, at "10 sat/vB".
    await refused(
      fundedLeg([], {}, { paid: [{ kind: 'payout', to: adaPayout, amount: '149883220' }, outputs[1]!] }),
      'The network fee is more than Covenant’s fee rules allow, so it was not signed.',
    );
  });

  it('offers the return of a deposit that came after the release as the refund it is, to Grace’s agreed refund address', async () => {
    // 50 000 sat arrived after the release: 49 000 back to Grace, 1 000 to the miners (one input, one
    // P2WPKH output: 146 vB at most at 10 sat/vB = 1 460 sat allowed).
    const returned = [{ kind: 'refund', to: graceRefund, amount: '49000' }];
    const api = openBitcoinDeal(
      'completed',
      [
        btcLeg({
          state: 'released',
          received: '150000000',
          confirmations: 2,
          payout: {
            kind: 'release',
            source: 'settlement',
            status: 'confirmed',
            transfers: outputs,
            approved_by: ['seller', 'platform'],
            transaction_hash: 'bb'.repeat(32),
          },
          signing_kind: 'refund',
          signer: hex.encode(grace),
          signing_payload: {
            format: 'psbt',
            data: payoutPsbt(returned, 50_000n),
            summary: { outputs: returned, network_fee: '1000', fee_rate_sat_vb: 10, dust_folded: [] },
          },
        }),
        usdcLeg({ state: 'released' }),
      ],
      'settled',
    );
    const panel = within(await screen.findByRole('region', { name: 'Escrow' }));
    const confirm = within(
      (await panel.findByRole('heading', { name: 'Confirm refund' })).closest('section') as HTMLElement,
    );
    expect(await confirm.findByRole('button', { name: 'Confirm refund' })).toBeInTheDocument();
    expect(confirm.queryByRole('alert')).not.toBeInTheDocument();
    expect(api.requestsTo('POST /escrow/release')).toHaveLength(0);
  });

  it('shows, once settled, what the transaction paid and the network fee it left to the miners', async () => {
    const released = {
      kind: 'release',
      source: 'settlement',
      status: 'confirmed',
      approved_by: ['seller', 'platform'],
      transaction_hash: 'ab'.repeat(32),
      // 150 000 000 sat: fee 15 000, network fee 1 130 out of the buyer's output:
      // 150 000 000 − 15 000 − 1 130 = 149 983 870.
      transfers: [
        { kind: 'payout', to: adaPayout, amount: '149983870' },
        { kind: 'fee', to: feeAddress, amount: '15000' },
      ],
      network_fee: '1130',
    };
    openBitcoinDeal(
      'completed',
      [btcLeg({ state: 'released', payout: released }), usdcLeg({ state: 'released' })],
      'settled',
    );
    const panel = within(await screen.findByRole('region', { name: 'Escrow' }));
    const leg = within(
      (await panel.findByRole('heading', { name: 'Asset leg' })).closest('section') as HTMLElement,
    );
    expect(leg.getByText(/^Pays/)).toHaveTextContent('Pays 1.4998387 BTC to ada');
    expect(leg.getByText(/^Network fee/)).toHaveTextContent(
      'Network fee 0.0000113 BTC, paid to the Bitcoin miners out of the recipient’s amount',
    );
    // The Ethereum leg's transfers are exact as shown: no such note.
    const stable = within(
      (await panel.findByRole('heading', { name: 'Stablecoin leg' })).closest('section') as HTMLElement,
    );
    expect(stable.queryByText(/network fee/)).not.toBeInTheDocument();
  });

  it('says, once settled, how much of the network fee the depositor’s refund paid', async () => {
    const released = {
      kind: 'release',
      source: 'settlement',
      status: 'confirmed',
      approved_by: ['seller', 'platform'],
      transaction_hash: 'ab'.repeat(32),
      // Network fee 1 340: 1 130 out of the buyer's output, 210 out of Grace's refund of 2 500 000
      // for the deposit output the amount did not need: 2 500 000 − 210 = 2 499 790.
      transfers: [
        { kind: 'payout', to: adaPayout, amount: '149983870' },
        { kind: 'fee', to: feeAddress, amount: '15000' },
        { kind: 'refund', to: depositAddress, amount: '2499790' },
      ],
      network_fee: '1340',
      refund_network_fee: '210',
    };
    openBitcoinDeal(
      'completed',
      [btcLeg({ state: 'released', payout: released }), usdcLeg({ state: 'released' })],
      'settled',
    );
    const panel = within(await screen.findByRole('region', { name: 'Escrow' }));
    const leg = within(
      (await panel.findByRole('heading', { name: 'Asset leg' })).closest('section') as HTMLElement,
    );
    expect(leg.getByText(/^Network fee/)).toHaveTextContent(
      'Network fee 0.0000134 BTC, paid to the Bitcoin miners: 0.0000113 BTC out of the recipient’s amount, 0.0000021 BTC out of the depositor’s refund for the deposit outputs beyond those the amount needed (with any output below the dust limit).',
    );
  });
});
