import {
  type Chain,
  chainSymbols,
  escrowChains,
  isStableSymbol,
  type StableChain,
  type StableSymbol,
  stableChains,
  type TokenSymbol,
} from '../assets.js';

/** A deal a sheet's owner would do: an asset (on the one chain it lives on) against a stablecoin on a chain. */
export interface TradePair {
  asset: TokenSymbol;
  stable: StableSymbol;
  stableChain: StableChain;
}

const chainNames: Record<Chain, string> = { BTC: 'Bitcoin', ETH: 'Ethereum', SOL: 'Solana' };

/**
 * The pairs a sheet covers: each non-stable asset it names on a chain it prefers, against each
 * stablecoin it names on a preferred chain where that stablecoin lives — only on chains whose
 * escrow runs, since no other deal can be opened. Stablecoins are the price side of every deal, so a
 * stablecoin is never the asset here; a sheet that names no stablecoin takes any of them, and one
 * that names only stablecoins takes any asset (on its preferred chains either way). In a fixed
 * order (assets, stables, chains as listed in assets.ts), so equal sheets give equal lists.
 */
export function tradePairsOf(sheet: {
  assets: readonly TokenSymbol[];
  preferred_chains: readonly Chain[];
}): TradePair[] {
  const chains = escrowChains.filter((chain) => sheet.preferred_chains.includes(chain));
  const namesAsset = sheet.assets.some((symbol) => !isStableSymbol(symbol));
  const namesStable = sheet.assets.some(isStableSymbol);
  const takes = (symbol: TokenSymbol) =>
    sheet.assets.includes(symbol) || (isStableSymbol(symbol) ? !namesStable : !namesAsset);
  const assets = chains.flatMap((chain) =>
    chainSymbols[chain].filter((symbol) => !isStableSymbol(symbol) && takes(symbol)),
  );
  const pairs: TradePair[] = [];
  for (const asset of assets) {
    for (const stableChain of stableChains) {
      if (!chains.includes(stableChain)) continue;
      for (const stable of chainSymbols[stableChain]) {
        if (isStableSymbol(stable) && takes(stable)) pairs.push({ asset, stable, stableChain });
      }
    }
  }
  return pairs;
}

export function tradePairKey(pair: TradePair): string {
  return `${pair.asset}/${pair.stable}@${pair.stableChain}`;
}

/** "BTC against USDC on Ethereum". */
export function describeTradePair(pair: TradePair): string {
  return `${pair.asset} against ${pair.stable} on ${chainNames[pair.stableChain]}`;
}
