import { describe, expect, it } from 'vitest';
import {
  assetSymbolsFor,
  chainNotAvailableMessage,
  escrowChains,
  isEscrowChain,
  stableSymbolsFor,
  symbolFitsChain,
  tokenDecimals,
} from './assets.js';

describe('chains and symbols', () => {
  it('offers only the tokens that live on a chain', () => {
    expect(assetSymbolsFor('BTC')).toEqual(['BTC']);
    expect(assetSymbolsFor('ETH')).toEqual(['ETH', 'WETH', 'WBTC', 'USDC', 'USDT']);
    expect(assetSymbolsFor('SOL')).toEqual(['SOL', 'USDC']);
    expect(stableSymbolsFor('ETH')).toEqual(['USDC', 'USDT']);
    expect(stableSymbolsFor('SOL')).toEqual(['USDC']);
  });

  it.each([
    ['BTC', 'BTC', true],
    ['ETH', 'WBTC', true],
    ['SOL', 'USDC', true],
    ['BTC', 'ETH', false],
    ['SOL', 'USDT', false],
    ['ETH', 'SOL', false],
    ['DOGE', 'DOGE', false],
    ['ETH', 'eth', false],
  ])('%s carries %s: %s', (chain, symbol, fits) => {
    expect(symbolFitsChain(chain, symbol)).toBe(fits);
  });

  it('knows each token’s decimals', () => {
    expect(tokenDecimals).toEqual({ BTC: 8, ETH: 18, WETH: 18, WBTC: 8, SOL: 9, USDC: 6, USDT: 6 });
  });
});

describe('escrowChains', () => {
  it('lists Ethereum and Bitcoin until Solana escrow is built, and names the refusal', () => {
    expect(escrowChains).toEqual(['ETH', 'BTC']);
    expect(isEscrowChain('ETH')).toBe(true);
    expect(isEscrowChain('BTC')).toBe(true);
    for (const chain of ['SOL', 'eth', 'btc', '']) expect(isEscrowChain(chain)).toBe(false);
    expect(chainNotAvailableMessage('SOL')).toBe(
      'Escrow does not run on SOL yet: deals can use ETH, BTC only (see GET /api/v1/chains)',
    );
  });
});
