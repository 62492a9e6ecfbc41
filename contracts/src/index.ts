import type { Hex } from 'viem';
import { type ContractName, contractAbis } from './abis.js';
import { type Artifacts, compileContracts } from './compile.js';

export * from './abis.js';
export { type Artifacts, type ContractArtifact, compileContracts } from './compile.js';
export * from './escrow-terms.js';

let compiled: Artifacts | undefined;

/**
 * A compiled contract with its typed ABI and creation bytecode. The first call compiles (or reads
 * the cached compilation of) the sources.
 */
export function contractArtifact<Name extends ContractName>(
  name: Name,
): { abi: (typeof contractAbis)[Name]; bytecode: Hex } {
  compiled ??= compileContracts();
  const artifact = compiled[name];
  if (!artifact) throw new Error(`no compiled contract named ${name}`);
  return { abi: contractAbis[name], bytecode: artifact.bytecode };
}
