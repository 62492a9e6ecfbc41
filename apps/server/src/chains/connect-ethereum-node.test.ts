import { type Anvil, type Devnet, deployDevnet, startAnvil } from '@covenant/devnets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EthereumConfig } from '../config.js';
import { connectEthereumNode } from './connect-ethereum-node.js';

let anvil: Anvil;
let devnet: Devnet;

beforeAll(async () => {
  anvil = await startAnvil();
  devnet = await deployDevnet({ rpcUrl: anvil.rpcUrl });
});
afterAll(async () => {
  await anvil?.stop();
});

function nodeConfig(escrowFactory: `0x${string}`): Extract<EthereumConfig, { mode: 'node' }> {
  return {
    mode: 'node',
    rpcUrl: anvil.rpcUrl,
    wsUrl: anvil.rpcUrl.replace('http', 'ws'),
    escrowFactory,
    feeAddress: devnet.tokens.USDC.address,
    tokens: [{ symbol: 'USDC', address: devnet.tokens.USDC.address }],
    confirmations: 1,
  };
}

describe('connecting to an Ethereum node', () => {
  it('starts on a factory of this version of the escrow contract', async () => {
    const info = await connectEthereumNode(nodeConfig(devnet.escrowFactory));
    expect(info).toMatchObject({ chain: 'ETH', chainId: anvil.chainId, escrowFactory: devnet.escrowFactory });
  });

  it('refuses an address without code, and a contract that is no factory of this version', async () => {
    await expect(
      connectEthereumNode(nodeConfig('0x000000000000000000000000000000000000dEaD')),
    ).rejects.toThrow(/has no code on the node/);
    // A contract, but not a factory of escrows that take signed foreign-asset returns.
    await expect(connectEthereumNode(nodeConfig(devnet.tokens.USDC.address))).rejects.toThrow(
      /does not deploy this version's CovenantEscrow/,
    );
  });
});
