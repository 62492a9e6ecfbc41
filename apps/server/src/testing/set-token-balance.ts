import {
  type Address,
  createTestClient,
  encodeAbiParameters,
  type Hex,
  http,
  keccak256,
  numberToHex,
} from 'viem';
import { foundry } from 'viem/chains';
import { expect } from 'vitest';
import type { EscrowDevnet } from './start-escrow-devnet.js';

/**
 * Sets an address's balance of a devnet token in the token's storage (OpenZeppelin's ERC20 keeps the
 * balances in slot 0): the chain's state changes with no transfer for the watcher to see, as when a
 * token contract freezes an account. Checked by reading the balance back.
 */
export async function setTokenBalance(net: EscrowDevnet, symbol: string, holder: string, amount: bigint) {
  const test = createTestClient({ chain: foundry, mode: 'anvil', transport: http(net.chain.rpcUrl) });
  const slot = keccak256(
    encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder as Address, 0n]),
  );
  await test.setStorageAt({
    address: net.token(symbol)!,
    index: slot,
    value: numberToHex(amount, { size: 32 }) as Hex,
  });
  expect(await net.balance(symbol, holder)).toBe(amount);
}
