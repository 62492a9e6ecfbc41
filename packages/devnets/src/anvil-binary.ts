import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The anvil executable of the npm package's platform build (`@foundry-rs/anvil-<os>-<arch>`). The
 * wrapper package's install script (which would fetch a binary) is not run: npm blocks it
 * (`allowScripts`), and the platform package already ships the binary.
 */
export function anvilBinaryPath(platform = process.platform, arch = process.arch): string {
  const cpu = arch === 'x64' ? 'amd64' : arch;
  const name = `@foundry-rs/anvil-${platform}-${cpu}`;
  return join(
    dirname(require.resolve(`${name}/package.json`)),
    'bin',
    platform === 'win32' ? 'anvil.exe' : 'anvil',
  );
}
