import { testTetherTokenAbi } from '@covenant/contracts';
import { type Address, createPublicClient, createWalletClient, type Hex, http } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { devnetPrivateKey } from './start-anvil.js';

/** The devnet account that pays deposits in tests and demos (not one the server's devnet uses otherwise). */
export const DEVNET_WALLET_ACCOUNT_INDEX = 9;

/**
 * The last transaction queued per wallet and node. Two deposits sent at once from one wallet would
 * both be given the wallet's next nonce, and one of them would be refused ("nonce too low") or
 * replace the other; each wallet's transactions therefore go one after another.
 */
const walletTurns = new Map<string, Promise<unknown>>();

function walletTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
  const turn = (walletTurns.get(key) ?? Promise.resolve()).then(work, work);
  const settled = turn.catch(() => {});
  walletTurns.set(key, settled);
  void settled.then(() => {
    if (walletTurns.get(key) === settled) walletTurns.delete(key);
  });
  return turn;
}

/**
 * Pays `amount` base units of a devnet token (or ETH, `token` null) to `to` the way a user's wallet
 * would, and returns the transaction once mined. For a token, the amount is first minted to the
 * devnet wallet and then transferred, so the deposit is a plain Transfer log from the wallet, as a
 * real deposit is. ETH goes with gas estimated against the recipient, so an escrow's `receive()`
 * (which logs the deposit, more than a bare 2,300-gas transfer allows) runs. Calls made at once from
 * one wallet are sent one after another.
 */
export function fundFromDevnetWallet(options: FundFromDevnetWalletOptions): Promise<Hex> {
  const account = privateKeyToAccount(options.fromKey ?? devnetPrivateKey(DEVNET_WALLET_ACCOUNT_INDEX));
  return walletTurn(`${options.rpcUrl} ${account.address}`, () => send(account, options));
}

export interface FundFromDevnetWalletOptions {
  rpcUrl: string;
  token: Address | null;
  to: Address;
  amount: bigint;
  fromKey?: Hex;
}

async function send(account: PrivateKeyAccount, options: FundFromDevnetWalletOptions): Promise<Hex> {
  const transport = http(options.rpcUrl, { retryCount: 0 });
  const chain = { ...foundry, id: await createPublicClient({ transport }).getChainId() };
  const publicClient = createPublicClient({ chain, transport, cacheTime: 0, pollingInterval: 50 });
  const walletClient = createWalletClient({ account, chain, transport, cacheTime: 0 });
  const mined = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`devnet funding transaction reverted: ${hash}`);
    return hash;
  };
  if (options.token === null) {
    return mined(await walletClient.sendTransaction({ to: options.to, value: options.amount }));
  }
  // The USDT-like ABI declares no return values, which fits every test token: writes ignore them.
  const token = { address: options.token, abi: testTetherTokenAbi } as const;
  await mined(
    await walletClient.writeContract({
      ...token,
      functionName: 'mint',
      args: [account.address, options.amount],
    }),
  );
  return mined(
    await walletClient.writeContract({
      ...token,
      functionName: 'transfer',
      args: [options.to, options.amount],
    }),
  );
}
