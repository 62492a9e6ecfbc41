import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { p2wpkh, Transaction } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import type { DepositOutput } from '../escrow-chain-adapter.js';
import { planSettlement, type SettlementOutcome } from '../settlement-plan.js';
import { coreDustLimit } from './bitcoin-fee-rules.js';
import { BITCOIN_ADDRESS_FORMATS } from './bitcoin-network.js';
import type { BitcoinSigningPayload } from './bitcoin-payout.js';
import { buildBitcoinPayout } from './build-bitcoin-payout.js';
import { multisigCustody } from './multisig-custody.js';

// Who pays the network fee of a payout, with fixed deposits at 10 sat/vB: no node involved.
//
// estimateVsize with n 2-of-3 P2WSH inputs and m P2WPKH outputs (fewer than 253 of each):
//   non-witness bytes 4 + 1 + 41n + 1 + 31m + 4 = 10 + 41n + 31m (an output: 8 + 1 + 22)
//   witness 2 + 256n (an input: 1 + 1 + 2 × (1 + 73) + 1 + 105, the witness script being 105 bytes)
//   weight 4 × (10 + 41n + 31m) + 2 + 256n = 42 + 420n + 124m; vsize ⌈weight / 4⌉
// So, at 10 sat/vB:
//   1 input, 3 outputs: 834 → 209 vB → 2,090    4 inputs, 3 outputs: 2,094 → 524 vB → 5,240
//   1 input, 2 outputs: 710 → 178 vB → 1,780    4 inputs, 2 outputs: 1,970 → 493 vB → 4,930
//   3 inputs, 3 outputs: 1,674 → 419 vB → 4,190  4 inputs, 1 output: 1,846 → 462 vB → 4,620
// The P2WPKH dust limit is 294 sats.
const regtest = BITCOIN_ADDRESS_FORMATS.regtest;
const publicKey = (n: number) => secp256k1.getPublicKey(hex.decode(n.toString(16).padStart(64, '0')), true);
const custody = multisigCustody(
  { buyer: hex.encode(publicKey(1)), seller: hex.encode(publicKey(2)), platform: hex.encode(publicKey(3)) },
  regtest,
);
const addressOf = (n: number) => p2wpkh(publicKey(n), regtest).address!;
const leg = {
  escrowId: '0b3f6a51-8a8b-4f5e-9d0e-3c8a2f1b7c11',
  leg: 'asset' as const,
  chain: 'BTC' as const,
  // 0.1 BTC: the platform's fee is 10,000,000 / 10,000 = 1,000, the receiver's payout 9,999,000.
  requiredAmount: 10_000_000n,
  receiverPayoutAddress: addressOf(4),
  depositorRefundAddress: addressOf(5),
};
const feeAddress = addressOf(6);

/** The deposit outputs of `amounts`, one transaction each. */
const depositsOf = (amounts: bigint[]): DepositOutput[] =>
  amounts.map((amount, index) => ({ txRef: String(index + 1).padStart(64, '0'), position: 0, amount }));

/** The payout of `deposits` at 10 sat/vB, and its PSBT checked to add up: inputs = outputs + network fee. */
function payout(amounts: bigint[], outcome: SettlementOutcome = { kind: 'release' }) {
  const deposits = depositsOf(amounts);
  const received = amounts.reduce((sum, amount) => sum + amount, 0n);
  const built = buildBitcoinPayout({
    leg,
    plan: planSettlement(leg, received, outcome, feeAddress),
    deposits,
    custody,
    feeRate: 10n,
    dustLimit: coreDustLimit,
    addressFormat: regtest,
  });
  const { data, summary } = built.signingPayload as BitcoinSigningPayload;
  const tx = Transaction.fromPSBT(base64.decode(data));
  expect(tx.inputsLength).toBe(deposits.length);
  let spent = 0n;
  for (let index = 0; index < tx.inputsLength; index++) spent += tx.getInput(index).witnessUtxo!.amount;
  const outputs = Array.from({ length: tx.outputsLength }, (_, index) => tx.getOutput(index).amount!);
  expect(spent).toBe(received);
  expect(outputs).toEqual(summary.outputs.map((output) => BigInt(output.amount)));
  expect(spent).toBe(outputs.reduce((sum, amount) => sum + amount, 0n) + BigInt(summary.network_fee));
  return summary;
}

describe('buildBitcoinPayout: the network fee of the inputs beyond those the payout needs', () => {
  it('charges the fee of the deposit outputs the payout does not need to the refund of the excess', () => {
    // 10,000,000 alone holds payout + fee (10,000,000); 20,000, 30,000 and 50,000 are extra, and
    // come back as the 100,000 excess. Whole fee 4 inputs, 3 outputs: 5,240. The buyer pays 1 input,
    // 3 outputs: 2,090; the refund the rest, 5,240 − 2,090 = 3,150 (it paid all 5,240 before).
    const summary = payout([20_000n, 10_000_000n, 50_000n, 30_000n]);
    expect(summary).toEqual({
      outputs: [
        // 9,999,000 − 2,090
        { kind: 'payout', to: leg.receiverPayoutAddress, amount: '9996910' },
        { kind: 'fee', to: feeAddress, amount: '1000' },
        // 100,000 − 3,150
        { kind: 'refund', to: leg.depositorRefundAddress, amount: '96850' },
      ],
      network_fee: '5240',
      refund_network_fee: '3150',
      fee_rate_sat_vb: '10',
      dust_folded: [],
    });
    expect(2_090n + BigInt(summary.refund_network_fee)).toBe(BigInt(summary.network_fee));
  });

  it("charges a mediator's split the same way: the depositor's share pays for the extra inputs", () => {
    // To the receiver 9,000,000 (fee 900, payout 8,999,100), held by the 10,000,000 output alone;
    // to the depositor 1,000,000 + the 100,000 excess = 1,100,000, less the 3,150 of the 3 others.
    const summary = payout([20_000n, 10_000_000n, 50_000n, 30_000n], {
      kind: 'split',
      toReceiver: 9_000_000n,
      toDepositor: 1_000_000n,
    });
    expect(summary.outputs).toEqual([
      { kind: 'payout', to: leg.receiverPayoutAddress, amount: '8997010' },
      { kind: 'fee', to: feeAddress, amount: '900' },
      { kind: 'refund', to: leg.depositorRefundAddress, amount: '1096850' },
    ]);
    expect(summary).toMatchObject({ network_fee: '5240', refund_network_fee: '3150' });
  });

  it('folds a refund its share leaves below the dust limit; the payout pays its own inputs at least', () => {
    // Excess 1,000 + 1,000 + 1,400 = 3,400; 3,400 − 3,150 = 250 < 294: folded. Without it (2 outputs)
    // the whole fee is 4,930, the payout's own 1,780: it pays max(1,780, 4,930 − 3,400 = 1,530) =
    // 1,780 (5,240 before). The miner gets 1,780 + 3,400 = 5,180.
    const summary = payout([1_000n, 10_000_000n, 1_400n, 1_000n]);
    expect(summary).toEqual({
      outputs: [
        // 9,999,000 − 1,780
        { kind: 'payout', to: leg.receiverPayoutAddress, amount: '9997220' },
        { kind: 'fee', to: feeAddress, amount: '1000' },
      ],
      network_fee: '5180',
      refund_network_fee: '3400',
      fee_rate_sat_vb: '10',
      dust_folded: [{ kind: 'refund', to: leg.depositorRefundAddress, amount: '3400' }],
    });
  });

  it('folds a refund smaller than its share; the payout pays the rest of the whole fee', () => {
    // Excess 300 + 300 + 400 = 1,000 < 3,150: folded. The payout pays max(1,780, 4,930 − 1,000 =
    // 3,930) = 3,930 (5,240 before); the miner gets 3,930 + 1,000 = 4,930, the whole fee exactly.
    const summary = payout([300n, 10_000_000n, 400n, 300n]);
    expect(summary).toEqual({
      outputs: [
        // 9,999,000 − 3,930
        { kind: 'payout', to: leg.receiverPayoutAddress, amount: '9995070' },
        { kind: 'fee', to: feeAddress, amount: '1000' },
      ],
      network_fee: '4930',
      refund_network_fee: '1000',
      fee_rate_sat_vb: '10',
      dust_folded: [{ kind: 'refund', to: leg.depositorRefundAddress, amount: '1000' }],
    });
  });

  it('leaves the whole fee to the payout when every input is needed', () => {
    // 6,000,000 + 3,000,000 = 9,000,000 < 10,000,000: all three outputs are needed, no extra. Whole
    // fee 3 inputs, 3 outputs: 4,190 from the payout, 9,999,000 − 4,190 = 9,994,810; the 100,000
    // excess comes back whole.
    expect(payout([3_000_000n, 6_000_000n, 1_100_000n])).toEqual({
      outputs: [
        { kind: 'payout', to: leg.receiverPayoutAddress, amount: '9994810' },
        { kind: 'fee', to: feeAddress, amount: '1000' },
        { kind: 'refund', to: leg.depositorRefundAddress, amount: '100000' },
      ],
      network_fee: '4190',
      refund_network_fee: '0',
      fee_rate_sat_vb: '10',
      dust_folded: [],
    });
  });

  it('leaves a refund-only payout paying the whole fee, as the recipient', () => {
    // 4 inputs, 1 output: 4,620 out of the 10,100,000 refunded.
    expect(payout([20_000n, 10_000_000n, 50_000n, 30_000n], { kind: 'refund' })).toEqual({
      outputs: [{ kind: 'refund', to: leg.depositorRefundAddress, amount: '10095380' }],
      network_fee: '4620',
      refund_network_fee: '0',
      fee_rate_sat_vb: '10',
      dust_folded: [],
    });
  });
});
