import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Abi, AbiParameter } from 'viem';
import { describe, expect, it } from 'vitest';
import { compileContracts } from '../src/compile.js';
import { contractAbis } from '../src/index.js';

function parameterType(parameter: AbiParameter): string {
  if ('components' in parameter && parameter.components) {
    const inner = parameter.components.map(parameterType).join(',');
    return `(${inner})${parameter.type.slice('tuple'.length)}`;
  }
  return parameter.type;
}

/** One line per ABI item with everything a caller depends on (names of parameters left out). */
function describeAbi(abi: Abi): string[] {
  return abi
    .map((item) => {
      const inputs =
        'inputs' in item
          ? item.inputs.map(
              (input) => `${parameterType(input)}${'indexed' in input && input.indexed ? ' indexed' : ''}`,
            )
          : [];
      const outputs = 'outputs' in item ? item.outputs.map(parameterType) : [];
      const name = 'name' in item ? item.name : '';
      const mutability = 'stateMutability' in item ? item.stateMutability : '';
      return `${item.type} ${name}(${inputs.join(',')}) ${mutability} -> (${outputs.join(',')})`;
    })
    .sort();
}

describe('compileContracts', () => {
  it('compiles every contract, and the typed ABIs match the compiled ones item for item', () => {
    const artifacts = compileContracts();
    expect(Object.keys(artifacts).sort()).toEqual(Object.keys(contractAbis).sort());
    for (const [name, abi] of Object.entries(contractAbis)) {
      const artifact = artifacts[name];
      expect(artifact?.bytecode).toMatch(/^0x[0-9a-f]{200,}$/);
      expect(describeAbi(abi as Abi), name).toEqual(describeAbi(artifact?.abi ?? []));
    }
  });

  it('writes the artifacts to a cache keyed by the sources and settings, and reads them back', () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'covenant-artifacts-'));
    try {
      const compiled = compileContracts({ cacheDir });
      const files = readdirSync(cacheDir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^[0-9a-f]{64}\.json$/);
      expect(compileContracts({ cacheDir })).toEqual(compiled);
      expect(readdirSync(cacheDir)).toEqual(files);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
