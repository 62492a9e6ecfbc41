export * from './anvil-binary.js';
