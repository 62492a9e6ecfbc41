import { describe, expect, it } from 'vitest';
import { meetsPolicy } from './chain-adapter.js';

describe('meetsPolicy', () => {
  const included = (confirmations: number, final: boolean) =>
    ({ state: 'included', blockRef: '0xb', height: 10n, confirmations, final }) as const;

  it('counts depth under a depth policy (Bitcoin: 2 confirmations)', () => {
    const bitcoin = { finality: 'depth', confirmations: 2 } as const;
    expect(meetsPolicy(bitcoin, included(1, false))).toBe(false);
    expect(meetsPolicy(bitcoin, included(2, false))).toBe(true);
  });

  it('waits for finality under a finalized policy, however deep', () => {
    const ethereum = { finality: 'finalized', confirmations: 64 } as const;
    expect(meetsPolicy(ethereum, included(100, false))).toBe(false);
    expect(meetsPolicy(ethereum, included(3, true))).toBe(true);
  });

  it('never counts a transaction that is not in a block', () => {
    const devnet = { finality: 'depth', confirmations: 0 } as const;
    expect(meetsPolicy(devnet, { state: 'mempool' })).toBe(false);
    expect(meetsPolicy(devnet, { state: 'unknown' })).toBe(false);
  });
});
