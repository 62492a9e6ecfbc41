import { spawn } from 'node:child_process';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { type Anvil, DEVNET_CHAIN_ID, startAnvil } from './start-anvil.js';

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

async function waitUntilSilent(rpcUrl: string): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (!(await answers(rpcUrl))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('startAnvil', () => {
  let anvil: Anvil | undefined;
  afterEach(async () => {
    await anvil?.stop();
    anvil = undefined;
  });

  it('answers on its RPC URL with chain id 31337 and funded accounts from the fixed mnemonic', async () => {
    anvil = await startAnvil();
    const client = createPublicClient({ transport: http(anvil.rpcUrl, { retryCount: 0 }), cacheTime: 0 });
    expect(await client.getChainId()).toBe(DEVNET_CHAIN_ID);
    expect(anvil.chainId).toBe(DEVNET_CHAIN_ID);
    expect(anvil.accounts).toHaveLength(10);
    const first = privateKeyToAccount(anvil.accounts[0]!);
    // anvil's well-known first development account.
    expect(first.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(await client.getBalance({ address: first.address })).toBe(10_000n * 10n ** 18n);
  });

  it('listens on the port it is given, and stop() ends it', async () => {
    const probe = await startAnvil();
    const port = Number(new URL(probe.rpcUrl).port);
    await probe.stop();
    expect(await waitUntilSilent(probe.rpcUrl)).toBe(true);
    anvil = await startAnvil({ port });
    expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${port}`);
    expect(await answers(anvil.rpcUrl)).toBe(true);
    await anvil.stop();
    expect(await answers(anvil.rpcUrl)).toBe(false);
  });

  it('dies with the process that started it, even when that process is killed with SIGKILL', async () => {
    const script = `
      import { startAnvil } from ${JSON.stringify(new URL('./start-anvil.ts', import.meta.url).pathname)};
      const anvil = await startAnvil();
      console.log(anvil.rpcUrl);
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const rpcUrl = await new Promise<string>((resolve, reject) => {
      parent.stdout.setEncoding('utf8');
      parent.stdout.once('data', (line: string) => resolve(line.trim()));
      parent.once('exit', (code) => reject(new Error(`parent exited early (${code})`)));
    });
    expect(await answers(rpcUrl)).toBe(true);
    parent.kill('SIGKILL');
    expect(await waitUntilSilent(rpcUrl)).toBe(true);
  });
});
