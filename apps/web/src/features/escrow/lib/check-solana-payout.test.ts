import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { solanaEscrowKeyFromSeed } from '@/features/escrow-key/lib/solana-escrow-key.js';
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
import {
  checkSolanaPayout,
  type SolanaAgreedPayout,
  type SolanaPayoutExpectation,
  signSolanaPayout,
} from './check-solana-payout.js';
import { systemProgram } from './solana-address.js';
import { parseLegacyMessage, type SolanaMessage } from './solana-message.js';

const grace = solanaEscrowKeyFromSeed(`${'abandon '.repeat(11)}about`);

/** Grace's asset leg of `amount` released to Ada: what the deal fixes for the payout. */
function agreed(amount: bigint, changes: Partial<SolanaAgreedPayout> = {}): SolanaAgreedPayout {
  return {
    terms: {
      amount,
      depositor: 'seller',
      receiver: 'buyer',
      receiverPayoutAddress: a.ada,
      depositorRefundAddress: a.nonce,
    },
    gross: amount,
    feeAddress: a.fee,
    travelCharge: 0n,
    ...changes,
  };
}

// 250 USDC: fee floor(250 000 000 / 10 000) = 25 000, Ada 249 975 000.
const usdcLeg: SolanaPayoutExpectation = {
  summary: usdcPayoutSummary,
  custody: usdcCustody,
  decimals: 6,
  received: '250000000',
  depositAddress: a.usdcTokenAccount,
  expectedMint: a.usdc,
  agreed: agreed(250_000_000n),
};
// 1.5 SOL: fee floor(1 500 000 000 / 10 000) = 150 000, Ada 1 499 850 000.
const solLeg: SolanaPayoutExpectation = {
  summary: solPayoutSummary,
  custody: solCustody,
  decimals: 9,
  received: '1500000000',
  depositAddress: a.wsolAccount,
  expectedMint: null,
  agreed: agreed(1_500_000_000n),
};

/** The fixture message with `change` applied to its parsed form, written back. */
function altered(fixture: string, change: (message: SolanaMessage) => void): Uint8Array {
  const message = parseLegacyMessage(base64.decode(fixture));
  change(message);
  return encodeLegacyMessage(message);
}

function setU64(data: Uint8Array, offset: number, value: bigint): Uint8Array {
  const copy = data.slice();
  new DataView(copy.buffer).setBigUint64(offset, value, true);
  return copy;
}

describe('checkSolanaPayout, token leg', () => {
  it('accepts the payout @solana/kit compiled: each TransferChecked to the ATA of the recipient shown', () => {
    expect(() => checkSolanaPayout(base64.decode(usdcPayoutMessage), usdcLeg)).not.toThrow();
  });

  it('refuses an amount other than the one shown', () => {
    const bytes = altered(usdcPayoutMessage, (message) => {
      const transfer = message.instructions[3]!;
      transfer.data = setU64(transfer.data, 1, 249_975_001n);
    });
    expect(() => checkSolanaPayout(bytes, usdcLeg)).toThrow(
      'Transfer 1 of the transaction is not the one shown, so it was not signed.',
    );
  });

  it('refuses a transfer to the recipient wallet itself instead of its token account', () => {
    const bytes = altered(usdcPayoutMessage, (message) => {
      // The fee address's own key, in place of its token account, wherever the message names it.
      message.accountKeys[message.accountKeys.indexOf(a.feeUsdcAccount)] = a.fee;
      for (const instruction of message.instructions) {
        instruction.accounts = instruction.accounts.map((key) => (key === a.feeUsdcAccount ? a.fee : key));
      }
    });
    expect(() => checkSolanaPayout(bytes, usdcLeg)).toThrow(
      'Transfer 2 of the transaction is not the one shown',
    );
  });

  it('refuses a summary that shows a recipient the message does not pay', () => {
    const summary = {
      ...usdcPayoutSummary,
      transfers: [{ ...usdcPayoutSummary.transfers[0]!, to: a.grace }, usdcPayoutSummary.transfers[1]!],
    };
    // Even with a deal naming that recipient, the message must pay it.
    const dealForGrace = agreed(250_000_000n);
    dealForGrace.terms.receiverPayoutAddress = a.grace;
    expect(() =>
      checkSolanaPayout(base64.decode(usdcPayoutMessage), { ...usdcLeg, summary, agreed: dealForGrace }),
    ).toThrow('Transfer 1 of the transaction is not the one shown');
  });

  it('refuses a transfer the summary does not show, and one it shows but the message lacks', () => {
    const extra = altered(usdcPayoutMessage, (message) => {
      message.instructions.splice(4, 0, message.instructions[4]!);
    });
    expect(() => checkSolanaPayout(extra, usdcLeg)).toThrow('makes 3 transfers where 2 are shown');
    const missing = altered(usdcPayoutMessage, (message) => {
      message.instructions.splice(4, 1);
    });
    expect(() => checkSolanaPayout(missing, usdcLeg)).toThrow('makes 1 transfers where 2 are shown');
  });

  it('refuses other decimals, another source account and another mint', () => {
    const decimals = altered(usdcPayoutMessage, (message) => {
      message.instructions[3]!.data[9] = 9;
    });
    expect(() => checkSolanaPayout(decimals, usdcLeg)).toThrow('in 9 decimals instead of 6');
    expect(
      () =>
        checkSolanaPayout(base64.decode(usdcPayoutMessage), {
          ...usdcLeg,
          custody: { ...usdcCustody, token_account: a.adaUsdcAccount },
          depositAddress: a.adaUsdcAccount,
        }),
      // A custody naming another token account no longer recomputes the deposit address: refused first.
    ).toThrow('The deposit address is not the multisig’s token account for this token');
    expect(() =>
      checkSolanaPayout(base64.decode(usdcPayoutMessage), {
        ...usdcLeg,
        summary: { ...usdcPayoutSummary, mint: a.nonce },
      }),
    ).toThrow('shown in another token');
  });

  it('refuses a message without the nonce advance first, or with any other instruction', () => {
    const noNonce = altered(usdcPayoutMessage, (message) => {
      message.instructions.shift();
    });
    expect(() => checkSolanaPayout(noNonce, usdcLeg)).toThrow(
      'does not start by advancing this leg’s nonce account',
    );
    // A System transfer out of Grace's own wallet, slipped in: her key signs the whole message.
    const drain = altered(usdcPayoutMessage, (message) => {
      const data = setU64(new Uint8Array(12), 4, 1_000_000_000n);
      data[0] = 2;
      message.instructions.splice(1, 0, { programId: systemProgram, accounts: [a.grace, a.relayer], data });
    });
    expect(() => checkSolanaPayout(drain, usdcLeg)).toThrow(
      'The transaction does something other than pay out this leg, so it was not signed.',
    );
    const notClosed = altered(usdcPayoutMessage, (message) => {
      message.instructions.pop();
    });
    expect(() => checkSolanaPayout(notClosed, usdcLeg)).toThrow('does not close this leg’s account');
  });

  it('refuses a closing of the leg account to anyone but the fee payer', () => {
    const bytes = altered(usdcPayoutMessage, (message) => {
      message.instructions[5]!.accounts[1] = a.grace;
    });
    expect(() => checkSolanaPayout(bytes, usdcLeg)).toThrow(
      'closes an account other than this leg’s, or to someone else',
    );
  });
});

describe('checkSolanaPayout, SOL leg', () => {
  it('accepts the payout @solana/kit compiled: the wSOL account closed to the relayer, which pays each transfer', () => {
    expect(() => checkSolanaPayout(base64.decode(solPayoutMessage), solLeg)).not.toThrow();
  });

  it('refuses transfers that do not add up to what the leg received', () => {
    expect(() =>
      checkSolanaPayout(base64.decode(solPayoutMessage), { ...solLeg, received: '1500000001' }),
    ).toThrow('do not add up to what the leg received');
  });

  it('refuses a lamport transfer of another amount, or from another account than the fee payer', () => {
    const amount = altered(solPayoutMessage, (message) => {
      const transfer = message.instructions[2]!;
      transfer.data = setU64(transfer.data, 4, 1_499_000_000n);
    });
    expect(() => checkSolanaPayout(amount, solLeg)).toThrow(
      'Transfer 1 of the transaction is not the one shown',
    );
    const from = altered(solPayoutMessage, (message) => {
      message.instructions[2]!.accounts[0] = a.grace;
    });
    expect(() => checkSolanaPayout(from, solLeg)).toThrow('from an account other than the fee payer');
  });

  it('refuses a token transfer on a SOL leg and a payout paid before the account is closed', () => {
    const early = altered(solPayoutMessage, (message) => {
      const [advance, close, ...transfers] = message.instructions;
      message.instructions = [advance!, ...transfers, close!];
    });
    expect(() => checkSolanaPayout(early, solLeg)).toThrow('does something other than pay out this leg');
    expect(() =>
      checkSolanaPayout(base64.decode(usdcPayoutMessage), {
        ...solLeg,
        custody: { ...solCustody, token_account: a.usdcTokenAccount },
      }),
    ).toThrow();
  });

  it('refuses a fee payer that is one of the parties', () => {
    expect(() =>
      checkSolanaPayout(base64.decode(solPayoutMessage), {
        ...solLeg,
        custody: { ...solCustody, public_keys: { ...solCustody.public_keys, platform: a.relayer } },
      }),
    ).toThrow('make a party’s key pay the network fee');
  });
});

describe('signSolanaPayout', () => {
  it('signs exactly the message bytes with the Solana escrow key, in base58', () => {
    const signature = signSolanaPayout(usdcPayoutMessage, usdcLeg, grace);
    const bytes = base58.decode(signature);
    expect(bytes).toHaveLength(64);
    expect(ed25519.verify(bytes, base64.decode(usdcPayoutMessage), base58.decode(a.grace))).toBe(true);
  });

  it('signs nothing that fails the check, and nothing that does not ask for this key', () => {
    expect(() => signSolanaPayout(solPayoutMessage, { ...solLeg, received: '1' }, grace)).toThrow('add up');
    const other = {
      publicKey: ed25519.getPublicKey(new Uint8Array(32).fill(7)),
      privateKey: new Uint8Array(32).fill(7),
    };
    expect(() => signSolanaPayout(solPayoutMessage, solLeg, other)).toThrow(
      'This payout does not ask for your key’s signature, so it was not signed.',
    );
    expect(() => signSolanaPayout('not base64!', solLeg, grace)).toThrow('can read');
  });
});

describe('checkSolanaPayout against the deal', () => {
  const message = base64.decode(usdcPayoutMessage);
  const attacker = a.relayer;

  it('refuses a fee transfer to another address than the fee address GET /chains lists, message and summary alike', () => {
    // The summary names the attacker as "fee"; whatever the message does, the deal says otherwise.
    const summary = {
      ...usdcPayoutSummary,
      transfers: [usdcPayoutSummary.transfers[0]!, { kind: 'fee' as const, to: attacker, amount: '25000' }],
    };
    expect(() => checkSolanaPayout(message, { ...usdcLeg, summary })).toThrow(
      'A transfer marked fee pays an address other than Covenant’s fee address, so it was not signed.',
    );
  });

  it('refuses a payout to another address than the receiver’s, a refund to another than the depositor’s', () => {
    const [payout, fee] = usdcPayoutSummary.transfers;
    expect(() =>
      checkSolanaPayout(message, {
        ...usdcLeg,
        summary: { ...usdcPayoutSummary, transfers: [{ ...payout!, to: attacker }, fee!] },
      }),
    ).toThrow('A transfer marked payout pays an address other than the receiver’s payout address');
    expect(() =>
      checkSolanaPayout(message, {
        ...usdcLeg,
        summary: { ...usdcPayoutSummary, transfers: [{ kind: 'refund', to: attacker, amount: '250000000' }] },
        agreed: agreed(250_000_000n, { gross: 0n }),
      }),
    ).toThrow('A transfer marked refund pays an address other than the depositor’s refund address');
  });

  it('refuses amounts other than the deal’s less the 1 bp fee, and a release on a refund screen', () => {
    // The deal says 300 USDC: the message pays Ada for 250.
    expect(() => checkSolanaPayout(message, { ...usdcLeg, agreed: agreed(300_000_000n) })).toThrow(
      'The payout does not pay the receiver the deal’s amount less the 0.01% fee, so it was not signed.',
    );
    expect(() =>
      checkSolanaPayout(message, { ...usdcLeg, agreed: agreed(250_000_000n, { gross: 0n }) }),
    ).toThrow('The payout does not pay the receiver the deal’s amount');
    expect(() =>
      checkSolanaPayout(message, { ...usdcLeg, agreed: agreed(250_000_000n, { gross: null }) }),
    ).toThrow('knows of no decision that gives it anything');
  });

  it('takes the receiver’s travel charge off its payout, exactly', () => {
    // A release of 250 005 000 charging 5 000 for travel: fee floor(250 005 000 / 10 000) = 25 000,
    // Ada 250 005 000 − 25 000 − 5 000 = 249 975 000, as the fixture message pays.
    expect(() =>
      checkSolanaPayout(message, { ...usdcLeg, agreed: agreed(250_005_000n, { travelCharge: 5_000n }) }),
    ).not.toThrow();
    // One base unit more or less of charge is not what the message pays.
    for (const travelCharge of [4_999n, 5_001n]) {
      expect(() =>
        checkSolanaPayout(message, { ...usdcLeg, agreed: agreed(250_005_000n, { travelCharge }) }),
      ).toThrow('The payout does not pay the receiver the deal’s amount');
    }
  });

  it('refuses a custody that does not recompute the deposit address, or another mint than the listed one', () => {
    expect(() => checkSolanaPayout(message, { ...usdcLeg, depositAddress: a.adaUsdcAccount })).toThrow(
      'The deposit address is not the leg’s token account, so the payout was not signed.',
    );
    expect(() => checkSolanaPayout(message, { ...usdcLeg, expectedMint: a.relayer })).toThrow(
      'The leg’s token is not the one Covenant lists for this symbol, so the payout was not signed.',
    );
  });

  it('refuses a settlement without the deal to check it against', () => {
    expect(() => checkSolanaPayout(message, { ...usdcLeg, agreed: null })).toThrow(
      'This payout cannot be checked against the deal, so it was not signed.',
    );
  });
});

describe('checkSolanaPayout, a travel payment (part of a token leg)', () => {
  // The fixture's first transfer alone, its account creation kept, without the second transfer and the close.
  const travelMessage = altered(usdcPayoutMessage, (message) => {
    const [advance, createFirst, , transferFirst] = message.instructions;
    message.instructions = [advance!, createFirst!, transferFirst!];
  });
  const first = usdcPayoutSummary.transfers[0]!;
  const travelLeg: SolanaPayoutExpectation = {
    ...usdcLeg,
    partial: true,
    agreed: null,
    summary: {
      ...usdcPayoutSummary,
      transfers: [{ kind: 'travel' as never, to: first.to, amount: first.amount }],
    },
  };

  it('accepts a transfer that leaves the leg’s account open', () => {
    expect(() => checkSolanaPayout(travelMessage, travelLeg)).not.toThrow();
  });

  it('refuses a message that closes the leg’s account, which would empty the escrow', () => {
    expect(() => checkSolanaPayout(base64.decode(usdcPayoutMessage), travelLeg)).toThrow(
      'closes the leg’s account, which a travel payment must leave open',
    );
  });

  it('refuses another amount than the quote', () => {
    const more = altered(base64.encode(travelMessage), (message) => {
      const transfer = message.instructions[2]!;
      transfer.data = setU64(transfer.data, 1, BigInt(first.amount) + 1n);
    });
    expect(() => checkSolanaPayout(more, travelLeg)).toThrow(
      'Transfer 1 of the transaction is not the one shown',
    );
  });
});
