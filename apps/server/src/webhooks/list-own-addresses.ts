import { networkInterfaces } from 'node:os';

/** Every address of this machine's network interfaces now (they change: DHCP, VPNs, containers). */
export function listOwnAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) =>
    (entries ?? []).map((entry) => entry.address),
  );
}
