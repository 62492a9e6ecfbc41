import ipaddr from 'ipaddr.js';

/**
 * The part of a client address that one subscriber holds: an IPv4 address as it is, an IPv6 address
 * by its /64 (a home or a phone gets a whole /64, so counting single IPv6 addresses counts nothing).
 * IPv4-mapped IPv6 addresses count as the IPv4 address they carry.
 */
export function networkOfAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}
