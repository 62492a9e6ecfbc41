export * from './anvil-binary.js';
export * from './deploy-devnet.js';
export * from './start-anvil.js';
