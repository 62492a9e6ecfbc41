import { describe, expect, it } from 'vitest';
import { networkOfAddress } from './network-of-address.js';

describe('networkOfAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::9', '2001:db8:1:3::/64'],
    ['::1', '::/64'],
  ])('counts %s as %s', (address, network) => {
    expect(networkOfAddress(address)).toBe(network);
  });
});
