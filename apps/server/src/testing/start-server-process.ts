import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));

/** How a server process ended: its exit code, or the signal that stopped it. */
export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The real server (`main.ts`, as `npm run serve` starts it) running in a child process. */
export interface ServerProcess {
  child: ChildProcess;
  /** Where it listens, as it printed at start. */
  url: string;
  /** Everything it wrote to stdout and stderr so far, for failure messages. */
  output(): string;
  /** Resolves when the process has ended, however it ended. */
  exited: Promise<ServerExit>;
  /**
   * SIGKILLs the process (when still running) and waits for it to end, and for the processes it
   * started (its embedded devnets, which follow their parent's death) to end too: a test may remove
   * the data directory they write to, or start a server on it again, as soon as this resolves.
   */
  kill(): Promise<ServerExit>;
}

/**
 * Starts `apps/server/src/main.ts` in a child process with exactly the given environment (plus
 * PATH) and resolves once it prints its URL. Tests that must prove what survives a crash need the
 * server as its own process: only then can it die by SIGKILL and be started again on the same data.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { startTimeoutMs?: number } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<ServerExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const kill = async (): Promise<ServerExit> => {
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    const started = child.pid === undefined ? [] : descendantsOf(child.pid);
    child.kill('SIGKILL');
    const exit = await exited;
    await Promise.all(started.map(ended));
    return exit;
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the server did not start:\n${output}`)),
        options.startTimeoutMs ?? 60_000,
      );
      const look = () => {
        const match = output.match(/Covenant is running at (http:\/\/localhost:\d+)/);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1].replace('localhost', '127.0.0.1'));
        }
      };
      child.stdout?.on('data', look);
      exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`the server exited (${code ?? signal}) before it listened:\n${output}`));
      });
    });
    return { child, url, output: () => output, exited, kill };
  } catch (error) {
    await kill();
    throw error;
  }
}

/** The processes below `pid`, read from /proc (none where there is no /proc). */
function descendantsOf(pid: number): number[] {
  let children: number[];
  try {
    children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

/** Resolves once `pid` no longer runs (gone, or a zombie waiting to be reaped), or after 10 s. */
async function ended(pid: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && runs(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

function runs(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state is the first field after the command name, which ends at the last ')'.
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}
