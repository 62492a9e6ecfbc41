/**
 * Chains and tokens a deal can use, and how many decimals each token's base unit has. A symbol is
 * only valid on the chains listed for it (spec §9: BTC on Bitcoin; ETH, WETH, WBTC, USDC, USDT on
 * Ethereum; SOL and USDC on Solana — and USDT, which the specification's stable-chain select offers on
 * Solana too).
 */
export const assetChains = ['BTC', 'ETH', 'SOL'] as const;
export const stableChains = ['ETH', 'SOL'] as const;
export const stableSymbols = ['USDC', 'USDT'] as const;
export const tokenSymbols = ['BTC', 'ETH', 'WETH', 'WBTC', 'SOL', 'USDC', 'USDT'] as const;

export type Chain = (typeof assetChains)[number];
export type StableChain = (typeof stableChains)[number];
export type StableSymbol = (typeof stableSymbols)[number];
export type TokenSymbol = (typeof tokenSymbols)[number];

export const tokenDecimals: Record<TokenSymbol, number> = {
  BTC: 8,
  ETH: 18,
  WETH: 18,
  WBTC: 8,
  SOL: 9,
  USDC: 6,
  USDT: 6,
};

export const chainSymbols: Record<Chain, readonly TokenSymbol[]> = {
  BTC: ['BTC'],
  ETH: ['ETH', 'WETH', 'WBTC', 'USDC', 'USDT'],
  SOL: ['SOL', 'USDC', 'USDT'],
};

/**
 * The chains whose escrow the platform runs today, the one list every part reads: the server's
 * chain registry and `GET /api/v1/chains` (which lists these chains' nodes), the deal rules (a deal
 * or a new version of its terms with a leg elsewhere is refused) and the create-trade form.
 */
export const escrowChains = ['ETH', 'BTC', 'SOL'] as const satisfies readonly Chain[];
export type EscrowChain = (typeof escrowChains)[number];

export function isEscrowChain(value: string): value is EscrowChain {
  return (escrowChains as readonly string[]).includes(value);
}

/** Why a leg on `chain` is refused: the message the API answers and the form would show. */
export function chainNotAvailableMessage(chain: string): string {
  return `Escrow does not run on ${chain} yet: deals can use ${escrowChains.join(', ')} only (see GET /api/v1/chains)`;
}

export function isChain(value: string): value is Chain {
  return (assetChains as readonly string[]).includes(value);
}

export function isStableChain(value: string): value is StableChain {
  return (stableChains as readonly string[]).includes(value);
}

export function isTokenSymbol(value: string): value is TokenSymbol {
  return (tokenSymbols as readonly string[]).includes(value);
}

export function isStableSymbol(value: string): value is StableSymbol {
  return (stableSymbols as readonly string[]).includes(value);
}

/** Symbols the asset leg may use on a chain: every token that lives there. */
export function assetSymbolsFor(chain: Chain): readonly TokenSymbol[] {
  return chainSymbols[chain];
}

/** Symbols the stable leg may use on a chain: the stablecoins that live there. */
export function stableSymbolsFor(chain: StableChain): readonly StableSymbol[] {
  return chainSymbols[chain].filter(isStableSymbol);
}

export function symbolFitsChain(chain: string, symbol: string): boolean {
  return isChain(chain) && isTokenSymbol(symbol) && chainSymbols[chain].includes(symbol);
}
