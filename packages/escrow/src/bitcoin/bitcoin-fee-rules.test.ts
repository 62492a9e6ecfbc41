import { describe, expect, it } from 'vitest';
import { estimateFeeRate, nodeMinimumFeeRate } from './bitcoin-fee-rules.js';
import { type BitcoinRpc, BitcoinRpcError } from './bitcoin-rpc.js';

/** A node answering estimatesmartfee and getmempoolinfo as given (BTC/kvB), refusing anything else. */
function node(answers: { estimate?: unknown; mempool: Record<string, number> }): BitcoinRpc {
  return (async (method: string) => {
    if (method === 'getmempoolinfo') return answers.mempool;
    if (method === 'estimatesmartfee') {
      if (answers.estimate === undefined) throw new BitcoinRpcError(method, -32601, 'Method not found');
      return answers.estimate;
    }
    throw new Error(`unexpected call ${method}`);
  }) as BitcoinRpc;
}

const bounds = { floor: 2n, ceiling: 500n };

describe('nodeMinimumFeeRate', () => {
  it('reads the higher of mempoolminfee and minrelaytxfee, in sat/vB rounded up', async () => {
    // 0.00001 BTC/kvB = 1_000 sat per 1_000 vB = 1 sat/vB (Bitcoin Core's default minimum).
    expect(
      await nodeMinimumFeeRate(node({ mempool: { mempoolminfee: 0.00001, minrelaytxfee: 0.00001 } })),
    ).toBe(1n);
    // A filling mempool: 0.00012345 BTC/kvB = 12.345 sat/vB → 13.
    expect(
      await nodeMinimumFeeRate(node({ mempool: { mempoolminfee: 0.00012345, minrelaytxfee: 0.00001 } })),
    ).toBe(13n);
    // bcoin reports mempoolminfee only.
    expect(await nodeMinimumFeeRate(node({ mempool: { mempoolminfee: 0.0002 } }))).toBe(20n);
    expect(await nodeMinimumFeeRate(node({ mempool: {} }))).toBeNull();
  });
});

describe('estimateFeeRate', () => {
  it('takes the estimate when the node relays it', async () => {
    // 0.0003 BTC/kvB = 30 sat/vB, above the 1 sat/vB minimum.
    const rpc = node({ estimate: { feerate: 0.0003 }, mempool: { mempoolminfee: 0.00001 } });
    expect(await estimateFeeRate(rpc, bounds)).toBe(30n);
  });

  it('never builds below what the node relays now, even above the estimate', async () => {
    // Estimate 5 sat/vB, the mempool's minimum 0.00025 BTC/kvB = 25 sat/vB.
    const rpc = node({ estimate: { feerate: 0.00005 }, mempool: { mempoolminfee: 0.00025 } });
    expect(await estimateFeeRate(rpc, bounds)).toBe(25n);
    // No estimate at all (a fresh node; bcoin's -1): the minimum, not the floor, when it is higher.
    expect(await estimateFeeRate(node({ mempool: { mempoolminfee: 0.00025 } }), bounds)).toBe(25n);
    expect(
      await estimateFeeRate(node({ estimate: { fee: -1 }, mempool: { mempoolminfee: 0.00025 } }), bounds),
    ).toBe(25n);
  });

  it('stays within the bounds', async () => {
    expect(
      await estimateFeeRate(node({ estimate: { fee: -1 }, mempool: { mempoolminfee: 0.00001 } }), bounds),
    ).toBe(2n);
    // 0.01 BTC/kvB = 1_000 sat/vB, above the 500 ceiling: the ceiling, even when the node's minimum is higher.
    expect(
      await estimateFeeRate(
        node({ estimate: { feerate: 0.01 }, mempool: { mempoolminfee: 0.00001 } }),
        bounds,
      ),
    ).toBe(500n);
    expect(
      await estimateFeeRate(
        node({ estimate: { feerate: 0.0001 }, mempool: { mempoolminfee: 0.02 } }),
        bounds,
      ),
    ).toBe(500n);
  });
});
