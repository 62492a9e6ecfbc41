import { getNonceDecoder, NonceState, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { getMultisigDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { EscrowLeg } from '../types.js';
import { readAccounts, type SolanaChainContext } from './solana-chain-context.js';
import { legNonceAccount, SOLANA_NATIVE_MINT } from './solana-leg-accounts.js';

/** What a payout needs to know of a leg on-chain: its multisig, its nonce account and current nonce. */
export interface SolanaLegCustody {
  multisig: string;
  nonceAccount: string;
  nonceValue: string;
  /** What the token account holds: lamports (wSOL, rent included) and the token amount. */
  lamports: bigint;
  amount: bigint;
}

/**
 * Reads the leg's custody from the chain and checks it is what the leg's terms fixed: the token
 * account (the deposit address) of the leg's mint, owned by a 2-of-3 multisig of buyer, seller and
 * platform in that order, and the leg's nonce account, initialized with the relayer as authority.
 */
export async function readSolanaLegCustody(
  context: SolanaChainContext,
  leg: Pick<EscrowLeg, 'depositAddress' | 'tokenAddress' | 'signers'>,
): Promise<SolanaLegCustody> {
  const nonce = await legNonceAccount(context.platformKey, leg.depositAddress);
  const [tokenAccount, nonceAccount] = await readAccounts(context.rpc, [leg.depositAddress, nonce.address]);
  if (!tokenAccount || tokenAccount.owner !== TOKEN_PROGRAM_ADDRESS) {
    throw new Error(`the leg's token account ${leg.depositAddress} does not exist (closed by a payout?)`);
  }
  const token = getTokenDecoder().decode(tokenAccount.data);
  const mint = leg.tokenAddress ?? SOLANA_NATIVE_MINT;
  if (token.mint !== mint) throw new Error(`the leg's token account holds ${token.mint}, not ${mint}`);
  const [multisigAccount] = await readAccounts(context.rpc, [token.owner]);
  const multisig =
    multisigAccount?.owner === TOKEN_PROGRAM_ADDRESS
      ? getMultisigDecoder().decode(multisigAccount.data)
      : null;
  const expected = [leg.signers.buyer, leg.signers.seller, leg.signers.platform];
  if (
    !multisig?.isInitialized ||
    multisig.m !== 2 ||
    multisig.n !== 3 ||
    expected.some((signer, index) => multisig.signers[index] !== signer)
  ) {
    throw new Error(`the owner ${token.owner} of ${leg.depositAddress} is not the leg's 2-of-3 multisig`);
  }
  const relayer = (await context.platformKey.relayer()).address;
  const nonceState =
    nonceAccount?.owner === SYSTEM_PROGRAM_ADDRESS ? getNonceDecoder().decode(nonceAccount.data) : null;
  if (nonceState?.state !== NonceState.Initialized || nonceState.authority !== relayer) {
    throw new Error(
      `the leg's nonce account ${nonce.address} is not initialized with the relayer as authority`,
    );
  }
  return {
    multisig: token.owner,
    nonceAccount: nonce.address,
    nonceValue: nonceState.blockhash,
    lamports: tokenAccount.lamports,
    amount: token.amount,
  };
}

/** The current value of a nonce account, null when it is not an initialized nonce account. */
export async function readNonceValue(
  context: SolanaChainContext,
  nonceAccount: string,
): Promise<string | null> {
  const [account] = await readAccounts(context.rpc, [nonceAccount]);
  if (account?.owner !== SYSTEM_PROGRAM_ADDRESS) return null;
  const nonce = getNonceDecoder().decode(account.data);
  return nonce.state === NonceState.Initialized ? nonce.blockhash : null;
}
