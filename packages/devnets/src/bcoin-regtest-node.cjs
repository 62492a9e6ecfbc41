// The bcoin regtest full node, run as a child process of startBitcoinRegtest (bcoin is CommonJS and
// does its validation on the event loop, so it gets a process of its own). Options arrive as JSON in
// COVENANT_BCOIN_OPTIONS; "ready" goes back over the IPC channel, and the node stops when that
// channel closes: the parent's stop() or the parent's death, even by SIGKILL.
'use strict';

process.env.NODE_BACKEND = 'js';
const options = JSON.parse(process.env.COVENANT_BCOIN_OPTIONS || '{}');
if (options.dataDir) dropNullRangeOptions(require('leveldown'));
const bcoin = require('bcoin');

async function main() {
  const node = new bcoin.FullNode({
    network: 'regtest',
    memory: !options.dataDir,
    prefix: options.dataDir || undefined,
    indexTX: true,
    // The dev wallet finds its coins through the address index (GET /coin/address/:address).
    indexAddress: true,
    httpHost: '127.0.0.1',
    httpPort: options.port,
    apiKey: options.apiKey,
    // No peers: the node is alone on its chain.
    listen: false,
    workers: false,
    logLevel: 'error',
    logConsole: true,
  });
  await node.ensure();
  await node.open();
  keepTransactionsOfInvalidatedBlocks(node);
  addWaitForBlockHeight(node);
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    try {
      await node.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('disconnect', close);
  process.on('SIGTERM', close);
  acceptMinRelayFee(node);
  process.send({ ready: true });
}

/**
 * bcoin's invalidateblock rewinds the chain to the block's parent but leaves its mempool on the old
 * tip (the miner then refuses every block: "Mempool/chain tip mismatch") and drops the transactions
 * of the blocks it removed. Here the mempool follows the new tip and takes those transactions back,
 * as Bitcoin Core's does, so a test can reorganize the chain as it would on Core.
 */
function keepTransactionsOfInvalidatedBlocks(node) {
  const { chain, mempool } = node;
  const invalidate = chain.invalidate.bind(chain);
  chain.invalidate = async (hash) => {
    const blocks = [];
    const entry = await chain.getEntry(hash);
    if (entry && (await chain.isMainChain(entry))) {
      for (let height = entry.height; height <= chain.height; height++) {
        blocks.push(await chain.getBlock(await chain.getHash(height)));
      }
    }
    await invalidate(hash);
    await mempool._reset();
    for (const block of blocks) {
      for (const tx of block.txs.slice(1)) {
        await mempool.addTX(tx).catch(() => {});
      }
    }
  };
}

/**
 * Bitcoin Core's `waitforblockheight height (timeout_ms)`, which bcoin lacks: answers as soon as the
 * tip is at `height` or above (at once when it already is), or when `timeout` ms pass (0: never),
 * with the tip then `{ hash, height }`. The escrow engine follows new blocks with it (a long poll
 * the node answers as the block connects).
 */
function addWaitForBlockHeight(node) {
  const { chain } = node;
  const tip = () => ({ hash: chain.tip.rhash(), height: chain.height });
  node.rpc.add('waitforblockheight', async (params) => {
    const height = Number(params?.[0]);
    const timeout = Number(params?.[1] ?? 0);
    if (!Number.isSafeInteger(height) || !Number.isSafeInteger(timeout) || timeout < 0) {
      const error = new Error('Invalid parameters.');
      error.type = 'RPCError';
      error.code = -8;
      throw error;
    }
    if (chain.height >= height) return tip();
    await new Promise((resolve) => {
      const timer = timeout > 0 ? setTimeout(done, timeout) : null;
      function onTip() {
        if (chain.height >= height) done();
      }
      function done() {
        if (timer) clearTimeout(timer);
        chain.removeListener('tip', onTip);
        resolve();
      }
      chain.on('tip', onTip);
    });
    return tip();
  });
}

/**
 * The parent may raise (or lower) the mempool's minimum relay fee, as a filling mempool raises
 * Bitcoin Core's: `{ minRelay: <sat/kvB> }` over the IPC channel, answered with `{ minRelaySet }`.
 * getmempoolinfo's `mempoolminfee` reports it, and the mempool refuses a transaction paying less
 * (bcoin: unless its coins' age gives it priority).
 */
function acceptMinRelayFee(node) {
  process.on('message', (message) => {
    if (!message || typeof message.minRelay !== 'number') return;
    node.mempool.options.minRelay = message.minRelay;
    process.send({ minRelaySet: message.minRelay });
  });
}

/**
 * bcoin's database layer (bdb 0.2.3) gives every iterator all four range options, the unused ones
 * null. leveldown 1.x (bdb's own) ignored a null bound; leveldown 6 (the override, DESIGN §10)
 * serializes it as the string "null", so `gt: "null", lt: "null"` leaves nothing to read: every
 * range query of an on-disk node came back empty (the address index behind GET /coin/address, so
 * the dev wallet found no coins and could not fund anything). Unused bounds are dropped here.
 */
function dropNullRangeOptions(LevelDOWN) {
  const iterator = LevelDOWN.prototype.iterator;
  LevelDOWN.prototype.iterator = function (rangeOptions) {
    const cleaned = { ...rangeOptions };
    for (const bound of ['gt', 'gte', 'lt', 'lte']) {
      if (cleaned[bound] === null || cleaned[bound] === undefined) delete cleaned[bound];
    }
    return iterator.call(this, cleaned);
  };
}

main().catch((error) => {
  console.error(error?.stack ?? String(error));
  process.exit(1);
});
