import { describe, expect, it } from 'vitest';
import { describeTradePair, tradePairsOf } from './trade-pairs.js';

describe('the asset/chain pairs of a sheet', () => {
  it('pair each asset on a preferred chain with each stablecoin on a preferred chain it lives on', () => {
    const pairs = tradePairsOf({ assets: ['BTC', 'SOL', 'USDC', 'USDT'], preferred_chains: ['BTC', 'SOL'] });
    expect(pairs.map(describeTradePair)).toEqual([
      'BTC against USDC on Solana',
      'BTC against USDT on Solana',
      'SOL against USDC on Solana',
      'SOL against USDT on Solana',
    ]);
    // Bitcoin on its chain, priced on Ethereum, once Ethereum is preferred too.
    expect(
      tradePairsOf({ assets: ['BTC', 'USDC'], preferred_chains: ['BTC', 'ETH'] }).map(describeTradePair),
    ).toEqual(['BTC against USDC on Ethereum']);
  });

  it('never take a stablecoin as the asset, nor a chain the sheet does not prefer', () => {
    expect(tradePairsOf({ assets: ['WBTC', 'USDC'], preferred_chains: ['SOL'] })).toEqual([]);
    expect(tradePairsOf({ assets: ['SOL', 'USDC'], preferred_chains: ['BTC'] })).toEqual([]);
    expect(
      tradePairsOf({ assets: ['USDC'], preferred_chains: ['ETH'] })
        .map(describeTradePair)
        .filter((pair) => pair.startsWith('USD')),
    ).toEqual([]);
  });

  it('take any stablecoin when the sheet names none, and any asset when it names only stablecoins', () => {
    expect(
      tradePairsOf({ assets: ['BTC'], preferred_chains: ['BTC', 'ETH'] }).map(describeTradePair),
    ).toEqual(['BTC against USDC on Ethereum', 'BTC against USDT on Ethereum']);
    expect(tradePairsOf({ assets: ['USDT'], preferred_chains: ['SOL'] }).map(describeTradePair)).toEqual([
      'SOL against USDT on Solana',
    ]);
  });

  it('list assets by chain (Ethereum, Bitcoin, Solana) and stablecoins on Ethereum before Solana', () => {
    const pairs = tradePairsOf({
      assets: ['BTC', 'WETH', 'SOL', 'USDT'],
      preferred_chains: ['SOL', 'ETH', 'BTC'],
    });
    expect(pairs.map(describeTradePair)).toEqual([
      'WETH against USDT on Ethereum',
      'WETH against USDT on Solana',
      'BTC against USDT on Ethereum',
      'BTC against USDT on Solana',
      'SOL against USDT on Ethereum',
      'SOL against USDT on Solana',
    ]);
  });
});
