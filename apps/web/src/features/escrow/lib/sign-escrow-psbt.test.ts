import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { p2ms, p2wpkh, p2wsh, SigHash, Transaction } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import type { PsbtSummary } from '../api/escrow-leg-signing.js';
import { type BitcoinPayoutExpectation, checkBitcoinPayout, signEscrowPsbt } from './sign-escrow-psbt.js';

// Three fixed keys (buyer, seller, platform): private keys 1, 2 and 3 padded to 32 bytes.
const privateKey = (n: number) => hex.decode(n.toString(16).padStart(64, '0'));
const [buyer, seller, platform] = [1, 2, 3].map(privateKey) as [Uint8Array, Uint8Array, Uint8Array];
const publicKey = (key: Uint8Array) => secp256k1.getPublicKey(key, true);
const regtest = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
const fundingTxid = hex.decode('aa'.repeat(32));

/** The escrow of a leg: 2-of-3 P2WSH over the three keys (by default the leg's) in BIP-67 (sorted) order. */
function escrowScript(keys: Uint8Array[] = [buyer, seller, platform]) {
  const sorted = keys.map(publicKey).sort((a, b) => hex.encode(a).localeCompare(hex.encode(b)));
  return p2wsh(p2ms(2, sorted), regtest);
}

/**
 * A payout of two deposits of the leg (150 000 000 + 50 000 sat) to the buyer and the fee address;
 * `outputs` replaces what it pays, `escrow` the script its second input spends.
 */
function payoutPsbt(
  options: {
    witnessScript?: boolean;
    outputs?: [string, bigint][];
    secondInput?: ReturnType<typeof escrowScript>;
  } = {},
): string {
  const leg = escrowScript();
  const transaction = new Transaction();
  for (const [index, amount] of [150_000_000n, 50_000n].entries()) {
    const escrow = index === 1 && options.secondInput ? options.secondInput : leg;
    transaction.addInput({
      txid: fundingTxid,
      index,
      witnessUtxo: { script: escrow.script, amount },
      ...(options.witnessScript === false ? {} : { witnessScript: escrow.witnessScript }),
    });
  }
  const outputs = options.outputs ?? [
    [p2wpkh(publicKey(buyer), regtest).address!, 150_032_995n],
    [p2wpkh(publicKey(platform), regtest).address!, 15_005n],
  ];
  for (const [address, amount] of outputs) transaction.addOutputAddress(address, amount, regtest);
  return base64.encode(transaction.toPSBT());
}

const buyerAddress = p2wpkh(publicKey(buyer), regtest).address!;
const feeAddress = p2wpkh(publicKey(platform), regtest).address!;
const sellerRefund = p2wpkh(publicKey(seller), regtest).address!;

/**
 * The deal behind the payout: the seller's 150 050 000 sat released to the buyer, so the fee is
 * floor(150 050 000 / 10 000) = 15 005 sat and the buyer's output 150 050 000 − 15 005 − 2 000 (the
 * network fee) = 150 032 995 sat.
 */
function expected(changes: Partial<BitcoinPayoutExpectation> = {}): BitcoinPayoutExpectation {
  const leg = escrowScript();
  return {
    depositAddress: leg.address!,
    custody: {
      witness_script: hex.encode(leg.witnessScript!),
      public_keys: {
        buyer: hex.encode(publicKey(buyer)),
        seller: hex.encode(publicKey(seller)),
        platform: hex.encode(publicKey(platform)),
      },
    },
    feeAddress,
    terms: {
      amount: 150_050_000n,
      depositor: 'seller',
      receiver: 'buyer',
      receiverPayoutAddress: buyerAddress,
      depositorRefundAddress: sellerRefund,
    },
    gross: 150_050_000n,
    ...changes,
  };
}

/**
 * What the page shows for `payoutPsbt()`: 150 032 995 sat to the buyer, 15 005 to the fee address,
 * and the network fee (150 000 000 + 50 000) − (150 032 995 + 15 005) = 2 000 sat.
 */
function shown(changes: Partial<PsbtSummary> = {}): PsbtSummary {
  return {
    outputs: [
      { kind: 'payout', to: buyerAddress, amount: '150032995' },
      { kind: 'fee', to: feeAddress, amount: '15005' },
    ],
    network_fee: '2000',
    refund_network_fee: '0',
    fee_rate_sat_vb: 10,
    dust_folded: [],
    ...changes,
  };
}

describe('signEscrowPsbt', () => {
  it("adds the seller's SIGHASH_ALL signature to every input, one that verifies over the input's BIP-143 digest", () => {
    const signed = Transaction.fromPSBT(
      base64.decode(signEscrowPsbt(payoutPsbt(), seller, shown(), expected())),
    );
    const escrow = escrowScript();
    for (const [index, amount] of [150_000_000n, 50_000n].entries()) {
      const input = signed.getInput(index);
      expect(input.partialSig).toHaveLength(1);
      const [key, signature] = input.partialSig![0]!;
      expect(hex.encode(key)).toBe(hex.encode(publicKey(seller)));
      // A DER signature followed by its sighash byte.
      expect(signature.at(-1)).toBe(SigHash.ALL);
      const digest = signed.preimageWitnessV0(index, escrow.witnessScript!, SigHash.ALL, amount);
      expect(
        secp256k1.verify(signature.slice(0, -1), digest, publicKey(seller), {
          prehash: false,
          format: 'der',
        }),
      ).toBe(true);
    }
    // With the platform's signature as well, 2 of 3, the transaction finalizes.
    signed.sign(platform);
    signed.finalize();
    expect(signed.isFinal).toBe(true);
  });

  it('refuses a PSBT whose inputs carry no witness script', () => {
    expect(() => signEscrowPsbt(payoutPsbt({ witnessScript: false }), seller, shown(), expected())).toThrow(
      'Input 0 carries no witness UTXO or witness script, so it was not signed.',
    );
  });

  it('refuses a PSBT whose witness script does not name the key', () => {
    const stranger = privateKey(4);
    expect(() => signEscrowPsbt(payoutPsbt(), stranger, shown(), expected())).toThrow(
      'Input 0 is not an escrow your key signs for, so it was not signed.',
    );
  });

  it('refuses text that is not a PSBT', () => {
    expect(() => signEscrowPsbt('bm90IGEgcHNidA==', seller, shown(), expected())).toThrow(
      'This is not a PSBT this page can read',
    );
  });

  it('refuses a PSBT that pays other than the transfers shown, or leaves another network fee', () => {
    const stranger = p2wpkh(publicKey(privateKey(4)), regtest).address!;
    const cases: [PsbtSummary, string][] = [
      // Shown to the stranger, paid to the buyer (or, as a server would hide it, the other way round).
      [
        shown({
          outputs: [
            { kind: 'payout', to: stranger, amount: '150032995' },
            { kind: 'fee', to: feeAddress, amount: '15005' },
          ],
        }),
        'The PSBT does not pay exactly the transfers shown, so it was not signed.',
      ],
      // One satoshi more to the buyer than shown.
      [
        shown({
          outputs: [
            { kind: 'payout', to: buyerAddress, amount: '150032994' },
            { kind: 'fee', to: feeAddress, amount: '15005' },
          ],
        }),
        'The PSBT does not pay exactly the transfers shown, so it was not signed.',
      ],
      // An output the page does not show.
      [
        shown({ outputs: [{ kind: 'payout', to: buyerAddress, amount: '150032995' }] }),
        'The PSBT does not pay exactly the transfers shown, so it was not signed.',
      ],
      [
        shown({ network_fee: '1000' }),
        'The PSBT leaves another network fee than the one shown, so it was not signed.',
      ],
      // More of the network fee shown out of the refund than the PSBT leaves in all.
      [
        shown({ refund_network_fee: '2001' }),
        'The network fee shown out of the refund does not fit the whole, so it was not signed.',
      ],
    ];
    // bcoin's regtest writes its addresses with `rb`: read as the same scripts.
    const bcoin = { bech32: 'rb', pubKeyHash: 0x3c, scriptHash: 0x26, wif: 0x5a };
    const asBcoin = shown({
      outputs: [
        { kind: 'payout', to: p2wpkh(publicKey(buyer), bcoin).address!, amount: '150032995' },
        { kind: 'fee', to: p2wpkh(publicKey(platform), bcoin).address!, amount: '15005' },
      ],
    });
    expect(() => signEscrowPsbt(payoutPsbt(), seller, asBcoin, expected())).not.toThrow();
    // Part of the network fee shown out of the refund, within the whole: signed.
    expect(() =>
      signEscrowPsbt(payoutPsbt(), seller, shown({ refund_network_fee: '1500' }), expected()),
    ).not.toThrow();
    for (const [summary, refusal] of cases) {
      expect(() => signEscrowPsbt(payoutPsbt(), seller, summary, expected())).toThrow(refusal);
    }
    expect(() => signEscrowPsbt(payoutPsbt(), seller, null, expected())).toThrow(
      'This payout comes without the summary of what it pays, so it cannot be checked or signed.',
    );
  });
});

describe('signEscrowPsbt against the deal', () => {
  const attacker = p2wpkh(publicKey(privateKey(6)), regtest).address!;
  const refuses = (psbt: string, summary: PsbtSummary, reason: string, expectation = expected()) => {
    expect(() => signEscrowPsbt(psbt, seller, summary, expectation)).toThrow(reason);
    // The same refusal before the password is asked for.
    expect(() => checkBitcoinPayout(psbt, summary, expectation)).toThrow(reason);
  };

  it('refuses a fee output paying another address than the fee address GET /chains lists, shown as it is paid', () => {
    const psbt = payoutPsbt({
      outputs: [
        [buyerAddress, 150_032_995n],
        [attacker, 15_005n],
      ],
    });
    const summary = shown({
      outputs: [
        { kind: 'payout', to: buyerAddress, amount: '150032995' },
        { kind: 'fee', to: attacker, amount: '15005' },
      ],
    });
    refuses(
      psbt,
      summary,
      'An output marked fee pays an address other than Covenant’s fee address, so it was not signed.',
    );
  });

  it('refuses an input spending another 2-of-3 script that names the key', () => {
    // The seller's key with two keys of the attacker's: a script the seller's key signs for, not this leg's.
    const other = escrowScript([seller, privateKey(4), privateKey(5)]);
    refuses(
      payoutPsbt({ secondInput: other }),
      shown(),
      'Input 1 spends from another escrow than this leg’s, so it was not signed.',
    );
  });

  it('refuses a custody that does not recompute the deposit address', () => {
    refuses(
      payoutPsbt(),
      shown(),
      'The deposit address is not the P2WSH address of this witness script, so the payout was not signed.',
      expected({ depositAddress: p2wsh(p2ms(2, [publicKey(seller), publicKey(buyer)]), regtest).address! }),
    );
  });

  it('refuses a payout to another address than the receiver’s agreed one, and a refund to another than the depositor’s', () => {
    const psbt = payoutPsbt({
      outputs: [
        [attacker, 150_032_995n],
        [feeAddress, 15_005n],
      ],
    });
    refuses(
      psbt,
      shown({
        outputs: [
          { kind: 'payout', to: attacker, amount: '150032995' },
          { kind: 'fee', to: feeAddress, amount: '15005' },
        ],
      }),
      'An output marked payout pays an address other than the receiver’s payout address',
    );
    // Shown as a refund to the depositor, it still pays the attacker.
    refuses(
      payoutPsbt({ outputs: [[attacker, 150_048_000n]] }),
      shown({ outputs: [{ kind: 'refund', to: attacker, amount: '150048000' }] }),
      'An output marked refund pays an address other than the depositor’s refund address',
      expected({ gross: 0n }),
    );
  });

  it('refuses a payout that pays the receiver or the fee other than the deal says', () => {
    // A fee one satoshi short of floor(150 050 000 / 10 000), the satoshi to the buyer.
    refuses(
      payoutPsbt({
        outputs: [
          [buyerAddress, 150_032_996n],
          [feeAddress, 15_004n],
        ],
      }),
      shown({
        outputs: [
          { kind: 'payout', to: buyerAddress, amount: '150032996' },
          { kind: 'fee', to: feeAddress, amount: '15004' },
        ],
      }),
      'The payout does not pay the receiver the deal’s amount less the 0.01% fee',
    );
    // A refund screen (nothing due to the receiver) serving the release.
    refuses(payoutPsbt(), shown(), 'The payout does not pay the receiver', expected({ gross: 0n }));
    // A split the page knows no mediator's decision for.
    refuses(payoutPsbt(), shown(), 'knows of no decision that gives it anything', expected({ gross: null }));
  });

  it('refuses a network fee beyond the fee rate ceiling or above vsize × rate', () => {
    // 283 vB (two 2-of-3 inputs, two P2WPKH outputs) × 10 sat/vB = 2 830 sat at most.
    expect(() => checkBitcoinPayout(payoutPsbt(), shown(), expected())).not.toThrow();
    refuses(
      payoutPsbt(),
      shown({ fee_rate_sat_vb: 10_001 }),
      'The network fee is more than Covenant’s fee rules allow',
    );
    refuses(
      payoutPsbt(),
      shown({ fee_rate_sat_vb: 7 }),
      'The network fee is more than Covenant’s fee rules allow',
    );
    expect(() => checkBitcoinPayout(payoutPsbt(), shown({ fee_rate_sat_vb: 8 }), expected())).not.toThrow();
  });
});
