import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';

export interface ContractArtifact {
  abi: Abi;
  bytecode: Hex;
}

export type Artifacts = Record<string, ContractArtifact>;

const require = createRequire(import.meta.url);
const contractsRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const defaultSourceDir = join(contractsRoot, 'src');
const defaultCacheDir = join(contractsRoot, '.artifacts');

/** Compiler settings; part of the cache key, so changing them recompiles. */
export const SOLC_SETTINGS = {
  evmVersion: 'cancun',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const;

/** The part of the pinned solc package's API used here (it ships no type declarations). */
interface Solc {
  compile(
    input: string,
    callbacks: { import: (path: string) => { contents: string } | { error: string } },
  ): string;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

/**
 * Compiles every `.sol` file under `src/` with the pinned solc (standard JSON, OpenZeppelin
 * imports read from node_modules) and returns `{abi, bytecode}` per contract name. The result is
 * cached in `.artifacts/<hash>.json`, keyed by the compiler version, its settings and the sources.
 */
export function compileContracts(options: { sourceDir?: string; cacheDir?: string } = {}): Artifacts {
  const sourceDir = options.sourceDir ?? defaultSourceDir;
  const cacheDir = options.cacheDir ?? defaultCacheDir;
  const sources = Object.fromEntries(
    listSolidityFiles(sourceDir).map((file) => [
      relative(sourceDir, file).split(sep).join('/'),
      { content: readFileSync(file, 'utf8') },
    ]),
  );
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        solc: packageVersion('solc'),
        openZeppelin: packageVersion('@openzeppelin/contracts'),
        settings: SOLC_SETTINGS,
        sources,
      }),
    )
    .digest('hex');
  const cacheFile = join(cacheDir, `${key}.json`);
  try {
    return JSON.parse(readFileSync(cacheFile, 'utf8')) as Artifacts;
  } catch {
    // Not cached yet: compile below.
  }

  // Loaded only on a cache miss: the compiler is a large WebAssembly module that takes a while to start.
  const solc = require('solc') as Solc;
  const input = { language: 'Solidity', sources, settings: SOLC_SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: readImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((error) => error.formattedMessage).join('\n')}`);
  }
  const artifacts: Artifacts = {};
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    if (file.startsWith('@')) continue;
    for (const [name, contract] of Object.entries(contracts)) {
      if (artifacts[name]) throw new Error(`two contracts are named ${name}`);
      artifacts[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
    }
  }
  mkdirSync(cacheDir, { recursive: true });
  // Written under a temporary name, then renamed: a concurrent reader never sees half a file.
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(artifacts));
  renameSync(temporary, cacheFile);
  return artifacts;
}

function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string })
    .version;
}

function listSolidityFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.sol'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function readImport(path: string): { contents: string } | { error: string } {
  if (!path.startsWith('@openzeppelin/')) return { error: `import not found: ${path}` };
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') };
  } catch {
    return { error: `import not found: ${path}` };
  }
}
