/**
 * The WebSocket endpoint of a node whose JSON-RPC is at `rpcUrl`, where none is configured:
 * Ethereum nodes that serve both on one port (anvil; geth and others with their WebSocket server
 * on the HTTP port) take the same URL with the ws(s) scheme; Solana's RPC serves its pub/sub on the
 * next port when the URL names one (8899 → 8900), as Solana's own clients assume.
 */
export function webSocketUrlOf(rpcUrl: string, convention: 'same-port' | 'next-port'): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (convention === 'next-port' && url.port !== '') url.port = String(Number(url.port) + 1);
  return url.toString();
}
