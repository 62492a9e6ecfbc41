import {
  type Address,
  getBase58Decoder,
  getBase64Decoder,
  isSome,
  type MaybeEncodedAccount,
  type Option,
} from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import {
  AccountState,
  getMintDecoder,
  getMintSize,
  getMultisigDecoder,
  getMultisigSize,
  getTokenDecoder,
  getTokenSize,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import type { LiteSVM } from 'litesvm';

/** What `new LiteSVM()` charges per signature (solana's default fee rate). */
export const LAMPORTS_PER_SIGNATURE = 5000n;
/** Real RPC nodes report this for every rent-exempt account. */
const RENT_EPOCH_EXEMPT = 18446744073709551615n;
/** A System nonce account: version u32, state u32, authority, durable nonce, lamports per signature. */
const NONCE_ACCOUNT_SIZE = 80;

export interface UiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: UiTokenAmount;
}

/** A token account's mint, owner and balance, or null when `address` holds no initialized token account. */
export function readTokenAccount(
  svm: LiteSVM,
  address: Address,
): { mint: Address; owner: Address; amount: bigint; uiTokenAmount: UiTokenAmount } | null {
  const account = svm.getAccount(address);
  if (!account.exists || account.programAddress !== TOKEN_PROGRAM_ADDRESS) return null;
  if (account.data.length !== getTokenSize()) return null;
  const token = getTokenDecoder().decode(account.data);
  if (token.state === AccountState.Uninitialized) return null;
  return {
    mint: token.mint,
    owner: token.owner,
    amount: token.amount,
    uiTokenAmount: uiTokenAmount(token.amount, mintDecimals(svm, token.mint)),
  };
}

/** The pre/post token balance entries of the RPC's transaction meta for these account keys. */
export function readTokenBalances(svm: LiteSVM, accountKeys: readonly Address[]): TokenBalance[] {
  const balances: TokenBalance[] = [];
  accountKeys.forEach((key, accountIndex) => {
    const token = readTokenAccount(svm, key);
    if (!token) return;
    balances.push({
      accountIndex,
      mint: token.mint,
      owner: token.owner,
      programId: TOKEN_PROGRAM_ADDRESS,
      uiTokenAmount: token.uiTokenAmount,
    });
  });
  return balances;
}

export function mintDecimals(svm: LiteSVM, mint: Address): number {
  const account = svm.getAccount(mint);
  if (!account.exists || account.data.length !== getMintSize()) return 0;
  return getMintDecoder().decode(account.data).decimals;
}

/** The RPC's token amount: `uiAmount` is null for zero, as solana's RPC reports it. */
export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole;
  return {
    amount: amount.toString(),
    decimals,
    uiAmount: amount === 0n ? null : Number(uiAmountString),
    uiAmountString,
  };
}

export type AccountEncoding = 'base64' | 'base58' | 'jsonParsed' | 'base64+zstd';

/** An account as getAccountInfo returns it (null when it does not exist). */
export function encodeAccount(
  svm: LiteSVM,
  account: MaybeEncodedAccount,
  encoding: AccountEncoding,
  dataSlice?: { offset: number; length: number },
): Record<string, unknown> | null {
  if (!account.exists) return null;
  const base = {
    lamports: account.lamports,
    owner: account.programAddress,
    executable: account.executable,
    rentEpoch: RENT_EPOCH_EXEMPT,
    space: account.data.length,
  };
  if (encoding === 'jsonParsed') {
    const parsed = parseAccountData(svm, account.programAddress, account.data);
    if (parsed) return { ...base, data: { ...parsed, space: account.data.length } };
  }
  const bytes = dataSlice
    ? account.data.slice(dataSlice.offset, dataSlice.offset + dataSlice.length)
    : account.data;
  if (encoding === 'base58') return { ...base, data: [getBase58Decoder().decode(bytes), 'base58'] };
  return { ...base, data: [getBase64Decoder().decode(bytes), 'base64'] };
}

/** The `jsonParsed` form of token, mint, multisig and nonce accounts; null for anything else. */
function parseAccountData(
  svm: LiteSVM,
  owner: Address,
  data: Uint8Array,
): { program: string; parsed: { type: string; info: Record<string, unknown> } } | null {
  if (owner === TOKEN_PROGRAM_ADDRESS) {
    if (data.length === getTokenSize()) {
      const token = getTokenDecoder().decode(data);
      if (token.state === AccountState.Uninitialized) return null;
      const decimals = mintDecimals(svm, token.mint);
      const info: Record<string, unknown> = {
        isNative: isSome(token.isNative),
        mint: token.mint,
        owner: token.owner,
        state: token.state === AccountState.Frozen ? 'frozen' : 'initialized',
        tokenAmount: uiTokenAmount(token.amount, decimals),
      };
      if (isSome(token.delegate)) {
        info.delegate = token.delegate.value;
        info.delegatedAmount = uiTokenAmount(token.delegatedAmount, decimals);
      }
      if (isSome(token.closeAuthority)) info.closeAuthority = token.closeAuthority.value;
      if (isSome(token.isNative)) info.rentExemptReserve = uiTokenAmount(token.isNative.value, decimals);
      return { program: 'spl-token', parsed: { type: 'account', info } };
    }
    if (data.length === getMintSize()) {
      const mint = getMintDecoder().decode(data);
      return {
        program: 'spl-token',
        parsed: {
          type: 'mint',
          info: {
            decimals: mint.decimals,
            freezeAuthority: optionValue(mint.freezeAuthority),
            isInitialized: mint.isInitialized,
            mintAuthority: optionValue(mint.mintAuthority),
            supply: mint.supply.toString(),
          },
        },
      };
    }
    if (data.length === getMultisigSize()) {
      const multisig = getMultisigDecoder().decode(data);
      return {
        program: 'spl-token',
        parsed: {
          type: 'multisig',
          info: {
            isInitialized: multisig.isInitialized,
            numRequiredSigners: multisig.m,
            numValidSigners: multisig.n,
            signers: multisig.signers.slice(0, multisig.n),
          },
        },
      };
    }
  }
  if (owner === SYSTEM_PROGRAM_ADDRESS && data.length === NONCE_ACCOUNT_SIZE) {
    const nonce = readNonce(data);
    if (!nonce) return null;
    return {
      program: 'nonce',
      parsed: {
        type: 'initialized',
        info: {
          authority: nonce.authority,
          blockhash: nonce.blockhash,
          feeCalculator: { lamportsPerSignature: nonce.lamportsPerSignature.toString() },
        },
      },
    };
  }
  return null;
}

/** The authority and stored durable nonce of an initialized System nonce account's data. */
export function readNonce(
  data: Uint8Array,
): { authority: string; blockhash: string; lamportsPerSignature: bigint } | null {
  if (data.length !== NONCE_ACCOUNT_SIZE) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const initialized = view.getUint32(4, true) === 1;
  if (!initialized) return null;
  return {
    authority: getBase58Decoder().decode(data.slice(8, 40)),
    blockhash: getBase58Decoder().decode(data.slice(40, 72)),
    lamportsPerSignature: view.getBigUint64(72, true),
  };
}

function optionValue<T>(option: Option<T>): T | null {
  return isSome(option) ? option.value : null;
}
