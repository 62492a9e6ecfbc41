import { base64 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  solanaAccounts as a,
  encodeLegacyMessage,
  solPayoutMessage,
  usdcPayoutMessage,
} from '@/testing/solana-fixtures.js';
import { associatedTokenProgram, systemProgram, tokenProgram } from './solana-address.js';
import { parseLegacyMessage, requiredSigners } from './solana-message.js';

describe('parseLegacyMessage', () => {
  it('reads a message @solana/kit compiled: header, keys, nonce and instructions', () => {
    const message = parseLegacyMessage(base64.decode(usdcPayoutMessage));
    // The relayer pays; Grace and the platform sign for the multisig.
    const [feePayer, ...signers] = requiredSigners(message);
    expect(feePayer).toBe(a.relayer);
    expect(signers.sort()).toEqual([a.grace, a.platform].sort());
    expect(message.recentBlockhash).toBe(a.nonce);
    expect(message.instructions.map((instruction) => [instruction.programId, instruction.data[0]])).toEqual([
      [systemProgram, 4],
      [associatedTokenProgram, 1],
      [associatedTokenProgram, 1],
      [tokenProgram, 12],
      [tokenProgram, 12],
      [tokenProgram, 9],
    ]);
    const transfer = message.instructions[3];
    expect(transfer?.accounts.slice(0, 4)).toEqual([
      a.usdcTokenAccount,
      a.usdc,
      a.adaUsdcAccount,
      a.multisig,
    ]);
    expect(transfer?.accounts.slice(4).sort()).toEqual([a.grace, a.platform].sort());
  });

  it('writes back the same bytes it read (the test encoder is its inverse)', () => {
    for (const fixture of [usdcPayoutMessage, solPayoutMessage]) {
      const bytes = base64.decode(fixture);
      expect(encodeLegacyMessage(parseLegacyMessage(bytes))).toEqual(bytes);
    }
  });

  it('refuses a versioned message, a truncated one and bytes left over', () => {
    const bytes = base64.decode(solPayoutMessage);
    expect(() => parseLegacyMessage(Uint8Array.of(0x80, ...bytes))).toThrow('versioned Solana transaction');
    expect(() => parseLegacyMessage(bytes.slice(0, -1))).toThrow(
      'not a Solana transaction this page can read',
    );
    expect(() => parseLegacyMessage(Uint8Array.of(...bytes, 0))).toThrow('can read');
    expect(() => parseLegacyMessage(new Uint8Array())).toThrow('can read');
  });

  it('refuses an instruction naming an account past the keys', () => {
    const bytes = base64.decode(solPayoutMessage);
    // The last byte is the last instruction's data; the program index of the first instruction
    // follows the blockhash: point it past the keys.
    const message = parseLegacyMessage(bytes);
    const firstInstruction = 3 + 1 + message.accountKeys.length * 32 + 32 + 1;
    const broken = bytes.slice();
    broken[firstInstruction] = message.accountKeys.length;
    expect(() => parseLegacyMessage(broken)).toThrow('can read');
  });
});
