export * from './anvil-binary.js';
export * from './start-anvil.js';
