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
    expect(assetSymbolsFor('SOL')).toEqual(['SOL', 'USDC', 'USDT']);
    expect(stableSymbolsFor('ETH')).toEqual(['USDC', 'USDT']);
    expect(stableSymbolsFor('SOL')).toEqual(['USDC', 'USDT']);
  });

  it.each([
    ['BTC', 'BTC', true],
    ['ETH', 'WBTC', true],
    ['SOL', 'USDC', true],
    ['BTC', 'ETH', false],
    ['SOL', 'USDT', true],
    ['SOL', 'WBTC', false],
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
  it('lists Ethereum, Bitcoin and Solana, and names the refusal of any other chain', () => {
    expect(escrowChains).toEqual(['ETH', 'BTC', 'SOL']);
    for (const chain of ['ETH', 'BTC', 'SOL']) expect(isEscrowChain(chain)).toBe(true);
    for (const chain of ['DOGE', 'sol', 'eth', 'btc', '']) expect(isEscrowChain(chain)).toBe(false);
    expect(chainNotAvailableMessage('DOGE')).toBe(
      'Escrow does not run on DOGE yet: deals can use ETH, BTC, SOL only (see GET /api/v1/chains)',
    );
  });
});
