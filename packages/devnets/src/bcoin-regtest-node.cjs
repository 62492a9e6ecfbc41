// The bcoin regtest full node, run as a child process of startBitcoinRegtest (bcoin is CommonJS and
// does its validation on the event loop, so it gets a process of its own). Options arrive as JSON in
// COVENANT_BCOIN_OPTIONS; "ready" goes back over the IPC channel, and the node stops when that
// channel closes: the parent's stop() or the parent's death, even by SIGKILL.
'use strict';

process.env.NODE_BACKEND = 'js';
boundIteratorsOnlyWhereAsked();
const bcoin = require('bcoin');

const options = JSON.parse(process.env.COVENANT_BCOIN_OPTIONS || '{}');

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
 * bcoin's database layer (bdb 0.2.3) opens every iterator with `gt`, `gte`, `lt` and `lte` set to null
 * for the ends it leaves open; leveldown 6.1.1 (the version the root package.json pins) reads a null
 * range option as a bound, so every iteration of the on-disk chain came back empty: the address index
 * (the dev wallet's coins, so `POST /dev/fund` failed with a DATA_DIR), and everything else bcoin
 * iterates. The in-memory database was not affected. Null bounds are dropped before leveldown sees them.
 */
function boundIteratorsOnlyWhereAsked() {
  const LevelDOWN = require('leveldown');
  const setup = LevelDOWN.prototype._setupIteratorOptions;
  LevelDOWN.prototype._setupIteratorOptions = function (options) {
    const bounded = {};
    for (const [key, value] of Object.entries(options)) {
      if (value === null && ['gt', 'gte', 'lt', 'lte'].includes(key)) continue;
      bounded[key] = value;
    }
    return setup.call(this, bounded);
  };
}

main().catch((error) => {
  console.error(error?.stack ?? String(error));
  process.exit(1);
});
