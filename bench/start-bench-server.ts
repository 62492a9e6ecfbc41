import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const rootDirectory = join(import.meta.dirname, '..');
export const webDistDirectory = join(rootDirectory, 'apps/web/dist');

function newestChange(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the web app unless dist/ is newer than every source file. */
export function buildWebIfNeeded() {
  const index = join(webDistDirectory, 'index.html');
  const sources = join(rootDirectory, 'apps/web/src');
  if (existsSync(index) && statSync(index).mtimeMs > newestChange(sources)) return;
  console.log('Building the web app…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: rootDirectory, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The web build failed');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type BenchServer = {
  origin: string;
  /** The server process itself (node, not a shell), e.g. to read its memory from /proc. */
  pid: number;
  stop: () => Promise<void>;
};

/**
 * The real server, production mode unless `env` says otherwise, on a free port with a throw-away
 * data directory. `env` adds or overrides settings (NODE_ENV, rate limits, …); `env.PORT` fixes the
 * port instead.
 */
export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDirectory = mkdtempSync(join(tmpdir(), 'covenant-bench-'));
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: rootDirectory,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDirectory,
      PUBLIC_URL: origin,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDirectory, { recursive: true, force: true });
  };

  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const ready = await fetch(`${origin}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { origin, pid: child.pid ?? 0, stop };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error('The server did not become ready');
}
