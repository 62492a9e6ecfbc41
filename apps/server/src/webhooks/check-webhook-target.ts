import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '@covenant/domain';

/** Addresses a webhook may not reach: the server's own machine and networks that are not the internet. */
const privateNetworks = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  privateNetworks.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  privateNetworks.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return privateNetworks.check(address, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged by its IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return privateNetworks.check(mapped[1]!, 'ipv4');
  return privateNetworks.check(address, 'ipv6');
}

export interface ResolvedTarget {
  url: URL;
  /** The checked address to connect to, so DNS cannot answer differently between check and connect. */
  address: string;
  family: 4 | 6;
}

/**
 * Checks a webhook URL: http(s), no credentials, and — unless private targets are allowed — every
 * address its host resolves to is public. Refusals are VALIDATION_FAILED with the reason.
 */
export async function checkWebhookTarget(rawUrl: string, allowPrivate: boolean): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw refuse('is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('must be http or https');
  if (url.username || url.password) throw refuse('must not contain credentials');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    throw refuse('has a host name that does not resolve');
  }
  if (addresses.length === 0) throw refuse('has a host name that does not resolve');
  if (!allowPrivate && addresses.some((entry) => isPrivateAddress(entry.address))) {
    throw refuse('points to a private or loopback address');
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

function refuse(reason: string): AppError {
  return new AppError('VALIDATION_FAILED', `The webhook URL ${reason}`, { fields: { url: reason } });
}
