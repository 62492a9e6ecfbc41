import { sha256 } from '@noble/hashes/sha2.js';
import {
  type Address,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  type Transaction,
} from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from 'litesvm';
import {
  LAMPORTS_PER_SIGNATURE,
  readNonce,
  readTokenBalances,
  type TokenBalance,
} from './solana-devnet-accounts.js';
import { type TransactionErrorJson, transactionErrorJson } from './solana-transaction-error.js';

/** A blockhash stays usable for this many slots after its block (solana's MAX_PROCESSING_AGE). */
const MAX_PROCESSING_AGE = 150;
/** System program instruction index of AdvanceNonceAccount. */
const ADVANCE_NONCE_ACCOUNT = 4;
/** Where a nonce account's data keeps the durable nonce. */
const NONCE_VALUE_OFFSET = 40;
/** An address lookup table's addresses start after its 56-byte header. */
const LOOKUP_TABLE_META_SIZE = 56;

export type Commitment = 'processed' | 'confirmed' | 'finalized';

export interface CompiledInstructionJson {
  programIdIndex: number;
  accounts: number[];
  /** base58 */
  data: string;
  stackHeight: number | null;
}

export interface RecordedTransaction {
  /** The first (fee payer's) signature, base58: the transaction's id. */
  signature: string;
  slot: number;
  /** The wire transaction, base64. */
  wire: string;
  version: 'legacy' | 0;
  signatures: string[];
  message: {
    header: {
      numRequiredSignatures: number;
      numReadonlySignedAccounts: number;
      numReadonlyUnsignedAccounts: number;
    };
    accountKeys: string[];
    recentBlockhash: string;
    instructions: CompiledInstructionJson[];
    addressTableLookups?: { accountKey: string; writableIndexes: number[]; readonlyIndexes: number[] }[];
  };
  meta: {
    err: TransactionErrorJson | null;
    fee: bigint;
    preBalances: bigint[];
    postBalances: bigint[];
    preTokenBalances: TokenBalance[];
    postTokenBalances: TokenBalance[];
    logMessages: string[];
    innerInstructions: { index: number; instructions: CompiledInstructionJson[] }[];
    loadedAddresses: { writable: string[]; readonly: string[] };
    computeUnitsConsumed: bigint;
  };
}

export interface Block {
  slot: number;
  blockhash: string;
  /** Unix seconds. */
  blockTime: number;
  transactions: RecordedTransaction[];
}

export type SendOutcome = { landed: RecordedTransaction } | { refused: TransactionErrorJson; logs: string[] };

export interface SimulationOutcome {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
}

/** The message versions the devnet runs: legacy and v0 (what @solana/kit 8 decodes as v1 is refused). */
type SupportedMessage = Exclude<CompiledTransactionMessage, { version: 1 }> &
  CompiledTransactionMessageWithLifetime;

interface DecodedTransaction {
  transaction: Transaction;
  message: SupportedMessage;
  signature: string;
  signatures: string[];
  accountKeys: Address[];
  loadedAddresses: { writable: Address[]; readonly: Address[] };
}

/**
 * LiteSVM plus what a validator has and LiteSVM lacks: slots that close into blocks (with each
 * transaction's meta as the RPC reports it), a window of recent blockhashes, durable nonces checked
 * against the nonce account, and commitment levels. One slot is open at a time: transactions land
 * in it and `closeSlot` turns it into a block with a fresh blockhash.
 */
export class SolanaLedger {
  readonly svm: LiteSVM;
  readonly genesisHash: string;
  private readonly finalityLagSlots: number;
  private readonly blocks = new Map<number, Block>();
  /** The slots of `blocks`, ascending (slots only grow). */
  private readonly slots: number[] = [];
  private readonly blockhashSlots = new Map<string, number>();
  private readonly transactions = new Map<string, RecordedTransaction>();
  /** Every landed transaction that names an address, oldest first. */
  private readonly byAddress = new Map<string, RecordedTransaction[]>();
  private pending: RecordedTransaction[] = [];
  private open: number;

  /**
   * Starts at genesis, or continues `resumed.blocks` (the svm then comes from the snapshot taken
   * with them) after `resumed.skippedSlots` slots without blocks, as a validator that was down skips
   * its slots: no slot number is used twice.
   */
  constructor(
    svm: LiteSVM,
    options: { finalityLagSlots: number; resumed?: { blocks: Block[]; skippedSlots: number } },
  ) {
    this.svm = svm;
    this.finalityLagSlots = options.finalityLagSlots;
    // The validator checks lifetimes here (a window of blockhashes and nonces), LiteSVM only knows the latest.
    svm.withBlockhashCheck(false);
    const resumed = options.resumed;
    const genesis = resumed?.blocks[0];
    if (resumed && genesis) {
      for (const block of resumed.blocks) {
        this.addBlock(block);
        for (const transaction of block.transactions) this.index(transaction);
      }
      this.genesisHash = genesis.blockhash;
      this.open = (this.slots.at(-1) ?? 0) + 1 + Math.max(0, resumed.skippedSlots);
    } else {
      this.genesisHash = svm.latestBlockhash();
      this.addBlock({ slot: 0, blockhash: this.genesisHash, blockTime: unixNow(), transactions: [] });
      this.open = 1;
    }
    svm.warpToSlot(BigInt(this.open));
  }

  /** The slot transactions land in now (commitment `processed`). */
  get openSlot(): number {
    return this.open;
  }

  /**
   * The highest slot at a commitment: processed = the open slot, confirmed = the newest block,
   * finalized = the block finalityLagSlots blocks before it.
   */
  slotAt(commitment: Commitment = 'finalized'): number {
    if (commitment === 'processed') return this.open;
    const newest = this.slots.length - 1;
    const index = commitment === 'confirmed' ? newest : Math.max(0, newest - this.finalityLagSlots);
    return this.slots[index] ?? 0;
  }

  block(slot: number): Block | undefined {
    return this.blocks.get(slot);
  }

  /** Slots of the blocks in [start, end], ascending. */
  blockSlots(start: number, end: number): number[] {
    return this.slots.slice(this.slotIndex(start), this.slotIndex(end + 1));
  }

  /** The block before `slot` (skipped slots have none); the genesis block is its own parent. */
  parentBlock(slot: number): Block | undefined {
    const parentSlot = this.slots[this.slotIndex(slot) - 1] ?? 0;
    return this.blocks.get(parentSlot);
  }

  /** The blockhash and last valid block height clients should use (the newest block at the commitment). */
  latestBlockhash(commitment: Commitment): { slot: number; blockhash: string; lastValidBlockHeight: number } {
    const slot = this.slotAt(commitment === 'processed' ? 'confirmed' : commitment);
    const block = this.blocks.get(slot);
    if (!block) throw new Error(`no block at slot ${slot}`);
    return { slot, blockhash: block.blockhash, lastValidBlockHeight: slot + MAX_PROCESSING_AGE };
  }

  isBlockhashValid(blockhash: string): boolean {
    const slot = this.blockhashSlots.get(blockhash);
    return slot !== undefined && slot >= this.open - 1 - MAX_PROCESSING_AGE;
  }

  /**
   * What getFeeForMessage answers: the base fee of the message's signatures, or null when its
   * blockhash (or nonce) would not be accepted now. Priority fees are not included.
   */
  feeForMessage(messageBytes: Uint8Array): bigint | null {
    const message = getCompiledTransactionMessageDecoder().decode(messageBytes);
    if (message.version === 1 || !this.hasLiveLifetime(message)) return null;
    return LAMPORTS_PER_SIGNATURE * BigInt(message.header.numSignerAccounts);
  }

  /** A landed transaction (in a block or in the open slot). */
  transaction(signature: string): RecordedTransaction | undefined {
    return this.transactions.get(signature);
  }

  /** The landed transactions naming `address` (as an account key or a loaded address), oldest first. */
  transactionsOf(address: string): readonly RecordedTransaction[] {
    return this.byAddress.get(address) ?? [];
  }

  transactionCount(): number {
    return this.transactions.size;
  }

  /** Processes a transaction in the open slot: refused ones leave no trace, executed ones (even failed) land. */
  send(transaction: Transaction): SendOutcome {
    const decoded = this.decode(transaction);
    const refusal = this.refusal(decoded);
    if (refusal) return { refused: refusal, logs: [] };
    const preBalances = decoded.accountKeys.map((key) => this.svm.getBalance(key) ?? 0n);
    const preTokenBalances = readTokenBalances(this.svm, decoded.accountKeys);
    let result: TransactionMetadata | FailedTransactionMetadata;
    try {
      result = this.svm.sendTransaction(transaction);
    } catch {
      // litesvm's wrapper throws before the runtime on a missing signature.
      return { refused: 'SignatureFailure', logs: [] };
    }
    const err = result instanceof FailedTransactionMetadata ? transactionErrorJson(result) : null;
    const meta = result instanceof FailedTransactionMetadata ? result.meta() : result;
    // Refused before execution (no fee charged): the runtime leaves the signature zeroed.
    if (err !== null && meta.signature().every((byte) => byte === 0)) {
      return { refused: err, logs: meta.logs() };
    }
    // A validator consumes the nonce of a durable-nonce transaction that fails, LiteSVM rolls it back.
    const nonceAccount = durableNonceAccount(decoded.message);
    if (err !== null && nonceAccount) this.advanceNonce(nonceAccount);
    const recorded: RecordedTransaction = {
      signature: decoded.signature,
      slot: this.open,
      wire: getBase64EncodedWireTransaction(transaction),
      version: decoded.message.version === 'legacy' ? 'legacy' : 0,
      signatures: decoded.signatures,
      message: messageJson(decoded.message),
      meta: {
        err,
        fee: chargedFee(meta, decoded.message.header.numSignerAccounts),
        preBalances,
        postBalances: decoded.accountKeys.map((key) => this.svm.getBalance(key) ?? 0n),
        preTokenBalances,
        postTokenBalances: readTokenBalances(this.svm, decoded.accountKeys),
        logMessages: meta.logs(),
        innerInstructions: innerInstructionsJson(meta),
        loadedAddresses: decoded.loadedAddresses,
        computeUnitsConsumed: meta.computeUnitsConsumed(),
      },
    };
    this.pending.push(recorded);
    this.index(recorded);
    return { landed: recorded };
  }

  /** Runs a transaction against the current state without keeping its effects. */
  simulate(transaction: Transaction, options: { sigVerify: boolean }): SimulationOutcome {
    const decoded = this.decode(transaction);
    const refusal = this.refusal(decoded);
    if (refusal) return { err: refusal, logs: [], unitsConsumed: 0n };
    if (!options.sigVerify) this.svm.withSigverify(false);
    try {
      const result = this.svm.simulateTransaction(transaction);
      if (result instanceof FailedTransactionMetadata) {
        const meta = result.meta();
        return {
          err: transactionErrorJson(result),
          logs: meta.logs(),
          unitsConsumed: meta.computeUnitsConsumed(),
        };
      }
      const meta = result.meta();
      return { err: null, logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed() };
    } catch {
      return { err: 'SignatureFailure', logs: [], unitsConsumed: 0n };
    } finally {
      if (!options.sigVerify) this.svm.withSigverify(true);
    }
  }

  /** Closes the open slot into a block and opens the next one, with a new blockhash. */
  closeSlot(now = Date.now()): Block {
    const slot = this.open;
    this.svm.warpToSlot(BigInt(slot + 1));
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(Math.floor(now / 1000));
    this.svm.setClock(clock);
    this.svm.expireBlockhash();
    const block: Block = {
      slot,
      blockhash: this.svm.latestBlockhash(),
      blockTime: Math.floor(now / 1000),
      transactions: this.pending,
    };
    this.addBlock(block);
    this.pending = [];
    this.open = slot + 1;
    return block;
  }

  /** The value AdvanceNonceAccount stores now. */
  private nextDurableNonce(): string {
    return durableNonceFrom(this.svm.latestBlockhash());
  }

  /** Stores the next durable nonce in a nonce account, as AdvanceNonceAccount would. */
  private advanceNonce(nonceAccount: Address): void {
    const account = this.svm.getAccount(nonceAccount);
    if (!account.exists || !readNonce(account.data)) return;
    const data = Uint8Array.from(account.data);
    data.set(getBase58Encoder().encode(this.nextDurableNonce()), NONCE_VALUE_OFFSET);
    this.svm.setAccount({ ...account, data });
  }

  /** The index in `slots` of the first slot at or above `slot`. */
  private slotIndex(slot: number): number {
    let low = 0;
    let high = this.slots.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.slots[middle] ?? 0) < slot) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private addBlock(block: Block): void {
    this.blocks.set(block.slot, block);
    this.slots.push(block.slot);
    this.blockhashSlots.set(block.blockhash, block.slot);
  }

  private index(transaction: RecordedTransaction): void {
    this.transactions.set(transaction.signature, transaction);
    const { accountKeys } = transaction.message;
    const { writable, readonly } = transaction.meta.loadedAddresses;
    for (const key of new Set([...accountKeys, ...writable, ...readonly])) {
      const list = this.byAddress.get(key);
      if (list) list.push(transaction);
      else this.byAddress.set(key, [transaction]);
    }
  }

  private decode(transaction: Transaction): DecodedTransaction {
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    if (message.version === 1) throw new Error('version 1 transaction messages are not supported');
    const signatures = Object.values(transaction.signatures).map((bytes) =>
      getBase58Decoder().decode(bytes ?? new Uint8Array(64)),
    );
    const loadedAddresses = this.loadAddresses(message);
    return {
      transaction,
      message,
      signature: signatures[0] ?? '',
      signatures,
      accountKeys: [...message.staticAccounts, ...loadedAddresses.writable, ...loadedAddresses.readonly],
      loadedAddresses,
    };
  }

  /** The addresses a v0 message loads from lookup tables (writable ones first, as the runtime orders them). */
  private loadAddresses(message: SupportedMessage): { writable: Address[]; readonly: Address[] } {
    const loaded = { writable: [] as Address[], readonly: [] as Address[] };
    if (message.version !== 0 || !message.addressTableLookups) return loaded;
    for (const lookup of message.addressTableLookups) {
      const table = this.svm.getAccount(lookup.lookupTableAddress);
      if (!table.exists) continue;
      const at = (index: number) =>
        getBase58Decoder().decode(
          table.data.slice(LOOKUP_TABLE_META_SIZE + index * 32, LOOKUP_TABLE_META_SIZE + (index + 1) * 32),
        ) as Address;
      loaded.writable.push(...lookup.writableIndexes.map(at));
      loaded.readonly.push(...lookup.readonlyIndexes.map(at));
    }
    return loaded;
  }

  /** Why the validator would drop this transaction before running it, as RPC error JSON; null when it would run. */
  private refusal(decoded: DecodedTransaction): TransactionErrorJson | null {
    if (this.transactions.has(decoded.signature)) return 'AlreadyProcessed';
    return this.hasLiveLifetime(decoded.message) ? null : 'BlockhashNotFound';
  }

  /** A recent blockhash, or the current nonce of the nonce account its first instruction advances. */
  private hasLiveLifetime(message: SupportedMessage): boolean {
    const token = message.lifetimeToken;
    if (this.isBlockhashValid(token)) return true;
    const nonceAccount = durableNonceAccount(message);
    if (!nonceAccount) return false;
    const account = this.svm.getAccount(nonceAccount);
    if (!account.exists || account.programAddress !== SYSTEM_PROGRAM_ADDRESS) return false;
    // As the validator: the nonce must match, and not have been advanced under the current blockhash already.
    return readNonce(account.data)?.blockhash === token && token !== this.nextDurableNonce();
  }
}

/** `DurableNonce::from_blockhash`: sha256("DURABLE_NONCE" ‖ blockhash). */
function durableNonceFrom(blockhash: string): string {
  const prefix = new TextEncoder().encode('DURABLE_NONCE');
  const hash = getBase58Encoder().encode(blockhash);
  const input = new Uint8Array(prefix.length + hash.length);
  input.set(prefix);
  input.set(hash, prefix.length);
  return getBase58Decoder().decode(sha256(input));
}

/** The nonce account of a durable-nonce transaction (its first instruction is System AdvanceNonceAccount). */
function durableNonceAccount(message: SupportedMessage): Address | null {
  const first = message.instructions[0];
  if (!first || message.staticAccounts[first.programAddressIndex] !== SYSTEM_PROGRAM_ADDRESS) return null;
  const data = first.data;
  if (!data || data.length < 4) return null;
  const kind = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0, true);
  const index = first.accountIndices?.[0];
  if (kind !== ADVANCE_NONCE_ACCOUNT || index === undefined) return null;
  return message.staticAccounts[index] ?? null;
}

function messageJson(message: SupportedMessage): RecordedTransaction['message'] {
  const json: RecordedTransaction['message'] = {
    header: {
      numRequiredSignatures: message.header.numSignerAccounts,
      numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
      numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
    },
    accountKeys: [...message.staticAccounts],
    recentBlockhash: message.lifetimeToken,
    instructions: message.instructions.map((instruction) => ({
      programIdIndex: instruction.programAddressIndex,
      accounts: [...(instruction.accountIndices ?? [])],
      data: getBase58Decoder().decode(instruction.data ?? new Uint8Array()),
      stackHeight: null,
    })),
  };
  if (message.version === 0) {
    json.addressTableLookups = (message.addressTableLookups ?? []).map((lookup) => ({
      accountKey: lookup.lookupTableAddress,
      writableIndexes: [...lookup.writableIndexes],
      readonlyIndexes: [...lookup.readonlyIndexes],
    }));
  }
  return json;
}

function innerInstructionsJson(meta: TransactionMetadata): RecordedTransaction['meta']['innerInstructions'] {
  return meta
    .innerInstructions()
    .map((inner, index) => ({
      index,
      instructions: inner.map((entry) => {
        const instruction = entry.instruction();
        return {
          programIdIndex: instruction.programIdIndex(),
          accounts: [...instruction.accounts()],
          data: getBase58Decoder().decode(instruction.data()),
          stackHeight: entry.stackHeight(),
        };
      }),
    }))
    .filter((inner) => inner.instructions.length > 0);
}

/**
 * The fee the runtime charged, priority fee included. litesvm's typings expose it only in the
 * metadata's debug text (`… fee: 205000 })`); without it, the base fee of the signatures.
 */
function chargedFee(meta: TransactionMetadata, signatures: number): bigint {
  const match = /\bfee: (\d+) \}\)?$/.exec(meta.toString());
  return match?.[1] ? BigInt(match[1]) : LAMPORTS_PER_SIGNATURE * BigInt(signatures);
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
