// The bcoin regtest full node, run as a child process of startBitcoinRegtest (bcoin is CommonJS and
// does its validation on the event loop, so it gets a process of its own). Options arrive as JSON in
// COVENANT_BCOIN_OPTIONS; "ready" goes back over the IPC channel, and the node stops when that
// channel closes: the parent's stop() or the parent's death, even by SIGKILL.
'use strict';

process.env.NODE_BACKEND = 'js';
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

main().catch((error) => {
  console.error(error?.stack ?? String(error));
  process.exit(1);
});
