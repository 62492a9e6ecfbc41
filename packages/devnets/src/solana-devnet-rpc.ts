import {
  type Address,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  isAddress,
  type Transaction,
  type TransactionMessageBytes,
} from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { RpcError, type RpcMethod } from './serve-json-rpc.js';
import { type AccountEncoding, encodeAccount, readTokenAccount } from './solana-devnet-accounts.js';
import type { Commitment, RecordedTransaction, SolanaLedger } from './solana-devnet-ledger.js';
import { type TransactionErrorJson, transactionErrorText } from './solana-transaction-error.js';

/** The version this devnet reports; the RPC shapes served are those of the 2.x validators. */
const CORE_VERSION = '2.2.0';
const MAX_SIGNATURE_STATUSES = 256;
const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_GET_BLOCKS_RANGE = 500_000;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
/** Slots for which a validator answers getSignatureStatuses from its status cache. */
const STATUS_CACHE_SLOTS = 300;

type Config = Record<string, unknown>;

/**
 * Faults a test can ask of the devnet, as a real RPC provider shows them: `sendsAnsweredLate`
 * transactions sent next are taken and land `landAfterMs` later, while their `sendTransaction` is
 * answered with an error (a provider that timed out after forwarding them).
 */
export interface SolanaDevnetFaults {
  sendsAnsweredLate: number;
  landAfterMs: number;
  /**
   * Run, one per send, before the next sent transactions are processed: what lands between a
   * client's last check and its transaction (another's deposit, say).
   */
  beforeNextSends: (() => Promise<unknown>)[];
}

/** Every method the devnet serves, over a ledger, with requestAirdrop paid by `airdrop`. */
export function createSolanaRpcMethods(
  ledger: SolanaLedger,
  airdrop: (to: Address, lamports: bigint) => Promise<string>,
  faults: SolanaDevnetFaults = { sendsAnsweredLate: 0, landAfterMs: 0, beforeNextSends: [] },
): Record<string, RpcMethod> {
  const context = (commitment: Commitment = 'finalized') => ({
    apiVersion: CORE_VERSION,
    slot: ledger.slotAt(commitment),
  });

  return {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': CORE_VERSION, 'feature-set': 0 }),
    getGenesisHash: () => ledger.genesisHash,
    getSlot: (params) => ledger.slotAt(commitmentOf(config(params, 0))),
    // Block height is the slot (a restart's skipped slots count): what lastValidBlockHeight is measured in.
    getBlockHeight: (params) => ledger.slotAt(commitmentOf(config(params, 0))),
    getEpochInfo: (params) => {
      const slot = ledger.slotAt(commitmentOf(config(params, 0)));
      const slotsInEpoch = Number(ledger.svm.getEpochSchedule().slotsPerEpoch);
      return {
        absoluteSlot: slot,
        blockHeight: slot,
        epoch: Math.floor(slot / slotsInEpoch),
        slotIndex: slot % slotsInEpoch,
        slotsInEpoch,
        transactionCount: ledger.transactionCount(),
      };
    },
    getFirstAvailableBlock: () => 0,
    minimumLedgerSlot: () => 0,
    getLatestBlockhash: (params) => {
      const commitment = commitmentOf(config(params, 0));
      const { blockhash, lastValidBlockHeight } = ledger.latestBlockhash(commitment);
      return { context: context(commitment), value: { blockhash, lastValidBlockHeight } };
    },
    isBlockhashValid: (params) => {
      const blockhash = stringParam(params, 0);
      const commitment = commitmentOf(config(params, 1));
      return { context: context(commitment), value: ledger.isBlockhashValid(blockhash) };
    },
    getFeeForMessage: (params) => {
      const bytes = decodeBase64(stringParam(params, 0));
      const commitment = commitmentOf(config(params, 1));
      let value: bigint | null;
      try {
        value = ledger.feeForMessage(bytes);
      } catch (error) {
        throw invalidParams(`invalid message: ${(error as Error).message}`);
      }
      return { context: context(commitment), value };
    },
    getMinimumBalanceForRentExemption: (params) => {
      const size = params[0];
      if (typeof size !== 'number' || !Number.isInteger(size) || size < 0)
        throw invalidParams('invalid data length');
      return ledger.svm.minimumBalanceForRentExemption(BigInt(size));
    },
    getBalance: (params) => {
      const address = addressParam(params, 0);
      const commitment = commitmentOf(config(params, 1));
      return { context: context(commitment), value: ledger.svm.getBalance(address) ?? 0n };
    },
    getAccountInfo: (params) => {
      const address = addressParam(params, 0);
      const options = config(params, 1);
      return {
        context: context(commitmentOf(options)),
        value: encodeAccount(
          ledger.svm,
          ledger.svm.getAccount(address),
          encodingOf(options),
          dataSliceOf(options),
        ),
      };
    },
    getMultipleAccounts: (params) => {
      const addresses = params[0];
      if (!Array.isArray(addresses)) throw invalidParams('expected an array of addresses');
      if (addresses.length > MAX_MULTIPLE_ACCOUNTS) {
        throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
      }
      const options = config(params, 1);
      const encoding = encodingOf(options);
      const slice = dataSliceOf(options);
      return {
        context: context(commitmentOf(options)),
        value: addresses.map((_, index) =>
          encodeAccount(ledger.svm, ledger.svm.getAccount(addressParam(addresses, index)), encoding, slice),
        ),
      };
    },
    getTokenAccountBalance: (params) => {
      const address = addressParam(params, 0);
      const token = readTokenAccount(ledger.svm, address);
      if (!token) {
        throw invalidParams(
          ledger.svm.getAccount(address).exists ? 'not a Token account' : 'could not find account',
        );
      }
      return { context: context(commitmentOf(config(params, 1))), value: token.uiTokenAmount };
    },
    getTokenAccountsByOwner: (params) => {
      const owner = addressParam(params, 0);
      const filter = config(params, 1);
      const options = config(params, 2);
      const mint = filter.mint === undefined ? undefined : addressParam([filter.mint], 0);
      if (mint === undefined && filter.programId === undefined) {
        throw invalidParams('Invalid params: expected a mint or programId filter');
      }
      if (filter.programId !== undefined && filter.programId !== TOKEN_PROGRAM_ADDRESS) {
        throw invalidParams('unrecognized Token program id');
      }
      const encoding = encodingOf(options);
      const value = ledger.svm
        .getProgramAccounts(TOKEN_PROGRAM_ADDRESS)
        .filter((account) => {
          const token = readTokenAccount(ledger.svm, account.address);
          return token !== null && token.owner === owner && (mint === undefined || token.mint === mint);
        })
        .map((account) => ({
          pubkey: account.address,
          account: encodeAccount(
            ledger.svm,
            ledger.svm.getAccount(account.address),
            encoding,
            dataSliceOf(options),
          ),
        }));
      return { context: context(commitmentOf(options)), value };
    },
    getSignatureStatuses: (params) => {
      const signatures = params[0];
      if (!Array.isArray(signatures)) throw invalidParams('expected an array of signatures');
      if (signatures.length > MAX_SIGNATURE_STATUSES) {
        throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
      }
      const searchHistory = config(params, 1).searchTransactionHistory === true;
      const confirmed = ledger.slotAt('confirmed');
      const finalized = ledger.slotAt('finalized');
      const value = signatures.map((signature) => {
        const transaction = typeof signature === 'string' ? ledger.transaction(signature) : undefined;
        if (!transaction) return null;
        if (!searchHistory && transaction.slot < ledger.openSlot - STATUS_CACHE_SLOTS) return null;
        const err = transaction.meta.err;
        const status = err === null ? { Ok: null } : { Err: err };
        if (transaction.slot > confirmed) {
          return { slot: transaction.slot, confirmations: 0, err, status, confirmationStatus: 'processed' };
        }
        if (transaction.slot <= finalized) {
          return {
            slot: transaction.slot,
            confirmations: null,
            err,
            status,
            confirmationStatus: 'finalized',
          };
        }
        return {
          slot: transaction.slot,
          confirmations: ledger.openSlot - transaction.slot,
          err,
          status,
          confirmationStatus: 'confirmed',
        };
      });
      return { context: context('processed'), value };
    },
    getSignaturesForAddress: (params) => {
      const address = addressParam(params, 0);
      const options = config(params, 1);
      const commitment = commitmentOf(options);
      if (commitment === 'processed')
        throw invalidParams('Method does not support commitment below `confirmed`');
      const limit = options.limit ?? MAX_SIGNATURES_FOR_ADDRESS;
      if (
        typeof limit !== 'number' ||
        !Number.isInteger(limit) ||
        limit < 1 ||
        limit > MAX_SIGNATURES_FOR_ADDRESS
      ) {
        throw invalidParams('Invalid limit; max 1000');
      }
      const tip = ledger.slotAt(commitment);
      const newestFirst = ledger
        .transactionsOf(address)
        .filter((transaction) => transaction.slot <= tip)
        .reverse();
      const beforeIndex =
        typeof options.before === 'string'
          ? newestFirst.findIndex((transaction) => transaction.signature === options.before)
          : -1;
      const result: Record<string, unknown>[] = [];
      for (const transaction of newestFirst.slice(beforeIndex + 1)) {
        if (transaction.signature === options.until || result.length === limit) break;
        result.push({
          signature: transaction.signature,
          slot: transaction.slot,
          err: transaction.meta.err,
          memo: null,
          blockTime: ledger.block(transaction.slot)?.blockTime ?? null,
          confirmationStatus: transaction.slot <= ledger.slotAt('finalized') ? 'finalized' : 'confirmed',
        });
      }
      return result;
    },
    getRecentPrioritizationFees: () => [],
    getTransaction: (params) => {
      const signature = stringParam(params, 0);
      const options = config(params, 1);
      const commitment = commitmentOf(options);
      if (commitment === 'processed')
        throw invalidParams('Method does not support commitment below `confirmed`');
      const transaction = ledger.transaction(signature);
      if (!transaction || transaction.slot > ledger.slotAt(commitment)) return null;
      const block = ledger.block(transaction.slot);
      return {
        slot: transaction.slot,
        blockTime: block?.blockTime ?? null,
        ...transactionWithMeta(transaction, options),
      };
    },
    getBlock: (params) => {
      const slot = slotParam(params, 0);
      const options = config(params, 1);
      const commitment = commitmentOf(options);
      if (commitment === 'processed')
        throw invalidParams('Method does not support commitment below `confirmed`');
      if (slot > ledger.slotAt(commitment))
        throw new RpcError(-32004, `Block not available for slot ${slot}`);
      const block = ledger.block(slot);
      if (!block) {
        throw new RpcError(
          -32007,
          `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`,
        );
      }
      const parent = ledger.parentBlock(slot) ?? block;
      const details = options.transactionDetails ?? 'full';
      const result: Record<string, unknown> = {
        blockhash: block.blockhash,
        previousBlockhash: parent.blockhash,
        parentSlot: parent.slot,
        blockTime: block.blockTime,
        blockHeight: block.slot,
      };
      if (details === 'full') {
        result.transactions = block.transactions.map((transaction) =>
          transactionWithMeta(transaction, options),
        );
      } else if (details === 'signatures') {
        result.signatures = block.transactions.map((transaction) => transaction.signature);
      } else if (details === 'accounts') {
        result.transactions = block.transactions.map((transaction) => ({
          ...transactionWithMeta(transaction, options),
          transaction: {
            signatures: transaction.signatures,
            accountKeys: accountKeysJson(transaction),
          },
        }));
      } else if (details !== 'none') {
        throw invalidParams(`unknown variant \`${String(details)}\``);
      }
      if (options.rewards !== false) result.rewards = [];
      return result;
    },
    getBlocks: (params) => {
      const start = slotParam(params, 0);
      const endGiven = typeof params[1] === 'number';
      // The end slot is optional: [start, config] and [start, null, config] both occur.
      const options = config(params, typeof params[1] === 'object' && params[1] !== null ? 1 : 2);
      const tip = ledger.slotAt(commitmentOf(options));
      const end = endGiven ? Math.min(slotParam(params, 1), tip) : tip;
      if (end - start > MAX_GET_BLOCKS_RANGE)
        throw invalidParams(`Slot range too large; max ${MAX_GET_BLOCKS_RANGE}`);
      return ledger.blockSlots(start, end);
    },
    getBlockTime: (params) => {
      const slot = slotParam(params, 0);
      const block = slot <= ledger.slotAt('confirmed') ? ledger.block(slot) : undefined;
      if (!block) throw new RpcError(-32004, `Block not available for slot ${slot}`);
      return block.blockTime;
    },
    sendTransaction: async (params) => {
      const options = config(params, 1);
      const transaction = transactionParam(params, options);
      await faults.beforeNextSends.shift()?.();
      if (options.skipPreflight !== true) {
        const simulation = ledger.simulate(transaction, { sigVerify: true });
        if (simulation.err === 'SignatureFailure') {
          throw new RpcError(-32003, 'Transaction signature verification failure');
        }
        if (simulation.err !== null)
          throw preflightFailure(simulation.err, simulation.logs, simulation.unitsConsumed);
      }
      if (faults.sendsAnsweredLate > 0) {
        faults.sendsAnsweredLate -= 1;
        setTimeout(() => ledger.send(transaction), faults.landAfterMs);
        throw new RpcError(-32000, 'Request timed out: the transaction was forwarded, its status is unknown');
      }
      const outcome = ledger.send(transaction);
      if ('refused' in outcome && options.skipPreflight !== true) {
        throw preflightFailure(outcome.refused, outcome.logs, 0n);
      }
      // With skipPreflight a validator forwards what it was given: a refused transaction just never lands.
      return signatureOf(transaction);
    },
    simulateTransaction: (params) => {
      const options = config(params, 1);
      const sigVerify = options.sigVerify === true;
      const replace = options.replaceRecentBlockhash === true;
      if (sigVerify && replace) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      let transaction = transactionParam(params, options);
      const commitment = commitmentOf(options);
      let replacementBlockhash: { blockhash: string; lastValidBlockHeight: number } | null = null;
      if (replace) {
        const latest = ledger.latestBlockhash('processed');
        replacementBlockhash = {
          blockhash: latest.blockhash,
          lastValidBlockHeight: latest.lastValidBlockHeight,
        };
        const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
        const messageBytes = getCompiledTransactionMessageEncoder().encode({
          ...message,
          lifetimeToken: latest.blockhash,
        }) as TransactionMessageBytes;
        transaction = { ...transaction, messageBytes };
      }
      const simulation = ledger.simulate(transaction, { sigVerify });
      return {
        context: context(commitment),
        value: {
          err: simulation.err,
          logs: simulation.logs,
          accounts: null,
          unitsConsumed: simulation.unitsConsumed,
          returnData: null,
          innerInstructions: null,
          replacementBlockhash,
          loadedAccountsDataSize: 0,
        },
      };
    },
    requestAirdrop: (params) => {
      const address = addressParam(params, 0);
      const lamports = params[1];
      if (typeof lamports !== 'number' || !Number.isSafeInteger(lamports) || lamports <= 0) {
        throw invalidParams('invalid lamports');
      }
      return airdrop(address, BigInt(lamports));
    },
  };
}

function preflightFailure(err: TransactionErrorJson, logs: string[], unitsConsumed: bigint): RpcError {
  return new RpcError(-32002, `Transaction simulation failed: ${transactionErrorText(err)}`, {
    accounts: null,
    err,
    innerInstructions: null,
    loadedAccountsDataSize: 0,
    logs,
    replacementBlockhash: null,
    returnData: null,
    unitsConsumed,
  });
}

/** A transaction with its meta as getTransaction and getBlock return it, in the requested encoding. */
function transactionWithMeta(transaction: RecordedTransaction, options: Config): Record<string, unknown> {
  const maxVersion = options.maxSupportedTransactionVersion;
  if (transaction.version === 0 && maxVersion === undefined) {
    throw new RpcError(
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  const encoding = options.encoding ?? 'json';
  if (encoding === 'jsonParsed') {
    throw invalidParams('this devnet serves transactions as json, base64 or base58, not jsonParsed');
  }
  const meta = transaction.meta;
  const result: Record<string, unknown> = {
    transaction:
      encoding === 'base64'
        ? [transaction.wire, 'base64']
        : encoding === 'base58'
          ? [getBase58Decoder().decode(getBase64Encoder().encode(transaction.wire)), 'base58']
          : { signatures: transaction.signatures, message: transaction.message },
    meta: {
      err: meta.err,
      status: meta.err === null ? { Ok: null } : { Err: meta.err },
      fee: meta.fee,
      preBalances: meta.preBalances,
      postBalances: meta.postBalances,
      preTokenBalances: meta.preTokenBalances,
      postTokenBalances: meta.postTokenBalances,
      innerInstructions: meta.innerInstructions,
      logMessages: meta.logMessages,
      rewards: [],
      loadedAddresses: meta.loadedAddresses,
      computeUnitsConsumed: meta.computeUnitsConsumed,
    },
  };
  if (maxVersion !== undefined) result.version = transaction.version;
  return result;
}

function accountKeysJson(transaction: RecordedTransaction) {
  const { header, accountKeys } = transaction.message;
  const signers = header.numRequiredSignatures;
  return accountKeys.map((pubkey, index) => ({
    pubkey,
    signer: index < signers,
    writable:
      index < signers
        ? index < signers - header.numReadonlySignedAccounts
        : index < accountKeys.length - header.numReadonlyUnsignedAccounts,
    source: 'transaction',
  }));
}

function invalidParams(message: string): RpcError {
  return new RpcError(-32602, message.startsWith('Invalid param') ? message : `Invalid param: ${message}`);
}

function config(params: unknown[], index: number): Config {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParams(`expected a config object at ${index}`);
  return value as Config;
}

function commitmentOf(options: Config): Commitment {
  const commitment = options.commitment ?? 'finalized';
  if (commitment === 'processed' || commitment === 'confirmed' || commitment === 'finalized')
    return commitment;
  throw invalidParams(`unknown commitment \`${String(commitment)}\``);
}

function encodingOf(options: Config): AccountEncoding {
  const encoding = options.encoding ?? 'base58';
  if (encoding === 'base64' || encoding === 'base58' || encoding === 'jsonParsed') return encoding;
  throw invalidParams(`unsupported encoding \`${String(encoding)}\``);
}

function dataSliceOf(options: Config): { offset: number; length: number } | undefined {
  const slice = options.dataSlice as { offset?: unknown; length?: unknown } | undefined;
  if (!slice) return undefined;
  if (typeof slice.offset !== 'number' || typeof slice.length !== 'number')
    throw invalidParams('invalid dataSlice');
  return { offset: slice.offset, length: slice.length };
}

function stringParam(params: unknown[], index: number): string {
  const value = params[index];
  if (typeof value !== 'string') throw invalidParams(`expected a string at ${index}`);
  return value;
}

function addressParam(params: unknown[], index: number): Address {
  const value = stringParam(params, index);
  if (!isAddress(value)) throw invalidParams('Invalid');
  return value;
}

function slotParam(params: unknown[], index: number): number {
  const value = params[index];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidParams(`expected a slot at ${index}`);
  }
  return value;
}

function decodeBase64(text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw invalidParams('invalid base64 encoding');
  return Uint8Array.from(Buffer.from(text, 'base64'));
}

function transactionParam(params: unknown[], options: Config): Transaction {
  const text = stringParam(params, 0);
  const encoding = options.encoding ?? 'base58';
  let bytes: Uint8Array;
  if (encoding === 'base64') bytes = decodeBase64(text);
  else if (encoding === 'base58') {
    try {
      bytes = Uint8Array.from(getBase58Encoder().encode(text));
    } catch {
      throw invalidParams('invalid base58 encoding');
    }
  } else
    throw invalidParams(`unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`);
  try {
    const transaction = getTransactionDecoder().decode(bytes);
    const { version } = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    if (version !== 'legacy' && version !== 0) throw new Error(`unsupported message version ${version}`);
    return transaction;
  } catch (error) {
    throw invalidParams(
      `failed to deserialize solana_transaction::versioned::VersionedTransaction: ${(error as Error).message}`,
    );
  }
}

function signatureOf(transaction: Transaction): string {
  const first = Object.values(transaction.signatures)[0];
  return getBase58Decoder().decode(first ?? new Uint8Array(64));
}
