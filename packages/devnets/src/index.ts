export * from './anvil-binary.js';
export * from './deploy-devnet.js';
export * from './fund-from-devnet-wallet.js';
export * from './start-anvil.js';
export * from './start-bitcoin-regtest.js';
export * from './start-solana-devnet.js';
