import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '@covenant/domain';
import { classifyTargetAddress } from './classify-target-address.js';
import { listOwnAddresses } from './list-own-addresses.js';

export interface WebhookTargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE: tests and local development send to receivers on this machine. */
  allowPrivate: boolean;
  /** Every address a host name resolves to; the system resolver by default. */
  resolveHost?: (hostname: string) => Promise<string[]>;
  /** This machine's addresses, read at each check; its network interfaces by default. */
  ownAddresses?: () => readonly string[];
}

export interface ResolvedTarget {
  url: URL;
  /** The checked address to connect to, so DNS cannot answer differently between check and connect. */
  address: string;
  family: 4 | 6;
}

async function resolveWithSystem(hostname: string): Promise<string[]> {
  return (await lookup(hostname, { all: true })).map((entry) => entry.address);
}

/**
 * Checks a webhook URL: http(s), no credentials, and — unless private targets are allowed — every
 * address its host resolves to is public (see classifyTargetAddress). The host is resolved once,
 * here; the caller connects to the returned address. Refusals are VALIDATION_FAILED with the
 * reason. For a host name the reason does not say what it resolved to: that would tell a caller
 * the answers of the server's internal DNS.
 */
export async function checkWebhookTarget(
  rawUrl: string,
  policy: WebhookTargetPolicy,
): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw refuse('is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('must be http or https');
  if (url.username || url.password) throw refuse('must not contain credentials');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host) !== 0;
  const notPublicName = 'has a host name that does not resolve to public internet addresses only';
  // Without the address rules there is nothing to hide about DNS; with them, no DNS oracle.
  const unresolvable = policy.allowPrivate ? 'has a host name that does not resolve' : notPublicName;
  let addresses: string[];
  try {
    addresses = literal ? [host] : await (policy.resolveHost ?? resolveWithSystem)(host);
  } catch {
    throw refuse(unresolvable);
  }
  if (addresses.length === 0) throw refuse(unresolvable);
  if (policy.allowPrivate) {
    const first = addresses[0]!;
    return { url, address: first, family: isIP(first) === 6 ? 6 : 4 };
  }
  const own = (policy.ownAddresses ?? listOwnAddresses)();
  let target: ResolvedTarget | undefined;
  for (const address of addresses) {
    const verdict = classifyTargetAddress(address, own);
    if (!verdict.allowed) {
      throw refuse(
        literal
          ? `points to ${host}, which is not a public internet address (${verdict.why})`
          : notPublicName,
      );
    }
    target ??= { url, address: verdict.address, family: verdict.family };
  }
  return target!;
}

function refuse(reason: string): AppError {
  return new AppError('VALIDATION_FAILED', `The webhook URL ${reason}`, { fields: { url: reason } });
}
