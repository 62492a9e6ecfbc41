export { createSolanaEscrowChain } from './create-solana-escrow-chain.js';
export * from './platform-solana-key.js';
export type {
  PayableSolanaLeg,
  SolanaCustody,
  SolanaEscrowChain,
  SolanaEscrowChainOptions,
  SolanaMint,
  SolanaNetworkName,
} from './solana-escrow-chain.js';
export { associatedTokenAccount, SOLANA_NATIVE_MINT } from './solana-leg-accounts.js';
export {
  decodeSignature,
  type SolanaPayoutSummary,
  type SolanaSigningPayload,
  solanaSigningPayload,
} from './solana-payout.js';
