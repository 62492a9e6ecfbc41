import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * IANA's IPv6 address space registry allocates only 2000::/3 as global unicast; ipaddr.js calls
 * everything outside its special ranges "unicast", including unallocated space such as the
 * deprecated IPv4-compatible ::/96 or 4000::/2.
 */
const [globalUnicastV6, globalUnicastV6Bits] = ipaddr.IPv6.parseCIDR('2000::/3');

export type TargetAddressVerdict =
  | { allowed: true; address: string; family: 4 | 6 }
  | { allowed: false; why: string };

/**
 * Judges one address a webhook would connect to. Only plain global unicast passes: every range of
 * the IANA special-purpose registries (as ipaddr.js knows them: private, loopback, link-local,
 * CGNAT, documentation, benchmarking, 6to4, Teredo, NAT64, ORCHID, discard-only, multicast, …) is
 * refused, and so is every address of this machine, public or not. An IPv4-mapped IPv6 address is
 * the IPv4 address itself and is judged, and connected to, as that.
 */
export function classifyTargetAddress(
  address: string,
  ownAddresses: readonly string[],
): TargetAddressVerdict {
  if (isIP(address) === 0) return { allowed: false, why: 'not an IP address' };
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== 'unicast') return { allowed: false, why: `special-purpose range: ${range}` };
  if (parsed.kind() === 'ipv6' && !parsed.match(globalUnicastV6, globalUnicastV6Bits)) {
    return { allowed: false, why: 'outside the global unicast space 2000::/3' };
  }
  const normalized = parsed.toNormalizedString();
  if (
    ownAddresses.some((own) => isIP(own) !== 0 && ipaddr.process(own).toNormalizedString() === normalized)
  ) {
    return { allowed: false, why: 'an address of this server' };
  }
  return { allowed: true, address: parsed.toString(), family: parsed.kind() === 'ipv6' ? 6 : 4 };
}
