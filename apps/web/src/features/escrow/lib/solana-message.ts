import { base58 } from '@scure/base';

/** An instruction of a message, its program and accounts resolved to addresses. */
export interface SolanaInstruction {
  programId: string;
  accounts: string[];
  data: Uint8Array;
}

/** A legacy Solana transaction message: what each signer signs, byte for byte. */
export interface SolanaMessage {
  numRequiredSignatures: number;
  numReadonlySigned: number;
  numReadonlyUnsigned: number;
  accountKeys: string[];
  recentBlockhash: string;
  instructions: SolanaInstruction[];
}

const unreadable = 'This is not a Solana transaction this page can read, so it was not signed.';

/**
 * Reads a legacy message (header, account keys, recent blockhash or nonce, compiled instructions).
 * A versioned (v0) message, an index past the account keys or bytes left over are refused: what is
 * signed must be exactly what was read.
 */
export function parseLegacyMessage(bytes: Uint8Array): SolanaMessage {
  let offset = 0;
  const byte = (): number => {
    const value = bytes[offset];
    if (value === undefined) throw new Error(unreadable);
    offset += 1;
    return value;
  };
  const take = (length: number): Uint8Array => {
    if (offset + length > bytes.length) throw new Error(unreadable);
    const slice = bytes.slice(offset, offset + length);
    offset += length;
    return slice;
  };
  // compact-u16: 7 bits a byte, low first, at most 3 bytes.
  const shortVec = (): number => {
    let value = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const next = byte();
      value |= (next & 0x7f) << shift;
      if ((next & 0x80) === 0) return value;
    }
    throw new Error(unreadable);
  };

  const numRequiredSignatures = byte();
  if (numRequiredSignatures & 0x80) {
    throw new Error(
      'This is a versioned Solana transaction, not the legacy one expected, so it was not signed.',
    );
  }
  const numReadonlySigned = byte();
  const numReadonlyUnsigned = byte();
  const keyCount = shortVec();
  const accountKeys = Array.from({ length: keyCount }, () => base58.encode(take(32)));
  if (
    numRequiredSignatures === 0 ||
    numRequiredSignatures > keyCount ||
    numReadonlySigned >= numRequiredSignatures ||
    numReadonlyUnsigned > keyCount - numRequiredSignatures
  ) {
    throw new Error(unreadable);
  }
  const recentBlockhash = base58.encode(take(32));
  const key = (index: number): string => {
    const found = accountKeys[index];
    if (found === undefined) throw new Error(unreadable);
    return found;
  };
  const instructionCount = shortVec();
  const instructions = Array.from({ length: instructionCount }, () => {
    const programId = key(byte());
    const accounts = Array.from({ length: shortVec() }, () => key(byte()));
    const data = take(shortVec());
    return { programId, accounts, data };
  });
  if (offset !== bytes.length) throw new Error(unreadable);
  return {
    numRequiredSignatures,
    numReadonlySigned,
    numReadonlyUnsigned,
    accountKeys,
    recentBlockhash,
    instructions,
  };
}

/** The accounts whose signatures the message requires (the fee payer first). */
export function requiredSigners(message: SolanaMessage): string[] {
  return message.accountKeys.slice(0, message.numRequiredSignatures);
}
