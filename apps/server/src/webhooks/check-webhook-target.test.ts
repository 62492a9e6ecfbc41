import { describe, expect, it } from 'vitest';
import { checkWebhookTarget } from './check-webhook-target.js';
import { classifyTargetAddress } from './classify-target-address.js';
import { listOwnAddresses } from './list-own-addresses.js';

/** Addresses inside every block of IANA's IPv4 special-purpose registry, at both ends where a block is wide. */
const ipv4SpecialPurpose = [
  ['0.0.0.0/8 this network', ['0.0.0.0', '0.1.2.3', '0.255.255.255']],
  ['10.0.0.0/8 private', ['10.0.0.0', '10.1.2.3', '10.255.255.255']],
  ['100.64.0.0/10 shared address space (CGNAT)', ['100.64.0.0', '100.64.0.1', '100.127.255.255']],
  ['127.0.0.0/8 loopback', ['127.0.0.1', '127.0.0.2', '127.255.255.255']],
  ['169.254.0.0/16 link-local', ['169.254.0.1', '169.254.169.254', '169.254.255.255']],
  ['172.16.0.0/12 private', ['172.16.0.0', '172.20.1.1', '172.31.255.255']],
  [
    '192.0.0.0/24 IETF protocol assignments (DS-Lite, PCP and TURN anycast, NAT64 discovery)',
    ['192.0.0.0', '192.0.0.8', '192.0.0.9', '192.0.0.10', '192.0.0.170', '192.0.0.171', '192.0.0.255'],
  ],
  ['192.0.2.0/24 documentation (TEST-NET-1)', ['192.0.2.0', '192.0.2.2', '192.0.2.255']],
  ['192.31.196.0/24 AS112-v4', ['192.31.196.1']],
  ['192.52.193.0/24 AMT', ['192.52.193.1']],
  ['192.88.99.0/24 deprecated 6to4 relay anycast', ['192.88.99.1', '192.88.99.2']],
  ['192.168.0.0/16 private', ['192.168.0.0', '192.168.1.1', '192.168.255.255']],
  ['192.175.48.0/24 AS112 direct delegation', ['192.175.48.1']],
  ['198.18.0.0/15 benchmarking', ['198.18.0.0', '198.19.255.255']],
  ['198.51.100.0/24 documentation (TEST-NET-2)', ['198.51.100.0', '198.51.100.7', '198.51.100.255']],
  ['203.0.113.0/24 documentation (TEST-NET-3)', ['203.0.113.0', '203.0.113.9', '203.0.113.255']],
  ['224.0.0.0/4 multicast', ['224.0.0.1', '239.255.255.250']],
  ['240.0.0.0/4 reserved', ['240.0.0.1', '255.255.255.254']],
  ['255.255.255.255/32 limited broadcast', ['255.255.255.255']],
] as const;

/** Addresses inside every block of IANA's IPv6 special-purpose registry, and the rest of the space outside 2000::/3. */
const ipv6SpecialPurpose = [
  ['::1/128 loopback', ['::1']],
  ['::/128 unspecified', ['::']],
  ['::ffff:0:0/96 IPv4-mapped, of special IPv4', ['::ffff:7f00:1', '::ffff:a00:1', '::ffff:c000:202']],
  ['::/96 IPv4-compatible (deprecated)', ['::7f00:1', '::a00:1', '::808:808']],
  ['::ffff:0:0:0/96 IPv4-translated', ['::ffff:0:7f00:1', '::ffff:0:808:808']],
  ['64:ff9b::/96 NAT64', ['64:ff9b::7f00:1', '64:ff9b::a00:1', '64:ff9b::808:808']],
  ['64:ff9b:1::/48 local-use NAT64', ['64:ff9b:1::a00:1', '64:ff9b:1:ffff::1']],
  ['100::/64 discard-only', ['100::', '100::1', '100::ffff:ffff:ffff:ffff']],
  ['100:0:0:1::/64 dummy prefix', ['100:0:0:1::1']],
  ['2001::/23 IETF protocol assignments', ['2001:1::1', '2001:1::2', '2001:1::3', '2001:1ff:ffff::1']],
  ['2001::/32 Teredo', ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:ffff::1']],
  ['2001:2::/48 benchmarking', ['2001:2::1', '2001:2:0:ffff::1']],
  ['2001:3::/32 AMT', ['2001:3::1']],
  ['2001:4:112::/48 AS112-v6', ['2001:4:112::1']],
  ['2001:10::/28 ORCHID (deprecated)', ['2001:10::1', '2001:1f::1']],
  ['2001:20::/28 ORCHIDv2', ['2001:20::1', '2001:2f:ffff::1']],
  ['2001:30::/28 drone remote ID', ['2001:30::1']],
  ['2001:db8::/32 documentation', ['2001:db8::1', '2001:db8:ffff::1']],
  ['2002::/16 6to4', ['2002:7f00:1::', '2002:c000:202::1', '2002:a00:1::1', '2002:808:808::1']],
  ['2620:4f:8000::/48 AS112 direct delegation', ['2620:4f:8000::1']],
  ['3fff::/20 documentation', ['3fff::1', '3fff:fff:ffff::1']],
  ['5f00::/16 SRv6 SIDs', ['5f00::1']],
  ['fc00::/7 unique local', ['fc00::1', 'fd00::2', 'fdff:ffff::1']],
  ['fe80::/10 link-local', ['fe80::1', 'febf::1']],
  ['fec0::/10 site-local (deprecated)', ['fec0::1']],
  ['ff00::/8 multicast', ['ff02::1', 'ff05::1:3', 'ff0e::1']],
  ['outside the global unicast space 2000::/3', ['1::1', '4000::1', 'e000::1']],
] as const;

const globalUnicast = [
  ['1.1.1.1', '1.1.1.1'],
  ['8.8.8.8', '8.8.8.8'],
  ['93.184.216.34', '93.184.216.34'],
  // The neighbours of refused blocks stay reachable.
  ['11.0.0.1', '11.0.0.1'],
  ['100.63.255.255', '100.63.255.255'],
  ['100.128.0.0', '100.128.0.0'],
  ['126.255.255.255', '126.255.255.255'],
  ['172.15.255.255', '172.15.255.255'],
  ['172.32.0.0', '172.32.0.0'],
  ['192.0.1.255', '192.0.1.255'],
  ['192.0.3.0', '192.0.3.0'],
  ['198.17.255.255', '198.17.255.255'],
  ['198.20.0.0', '198.20.0.0'],
  ['203.0.112.255', '203.0.112.255'],
  ['203.0.114.0', '203.0.114.0'],
  ['223.255.255.255', '223.255.255.255'],
  ['2606:4700:4700::1111', '2606:4700:4700::1111'],
  ['2001:4860:4860::8888', '2001:4860:4860::8888'],
  ['2001:200::1', '2001:200::1'],
  ['2a00:1450:4001::1', '2a00:1450:4001::1'],
  // An IPv4-mapped address is its IPv4 address, and is connected to as that.
  ['::ffff:808:808', '8.8.8.8'],
] as const;

describe('classifyTargetAddress', () => {
  describe.each([...ipv4SpecialPurpose, ...ipv6SpecialPurpose])('%s', (_block, addresses) => {
    it.each(addresses)('refuses %s', (address) => {
      expect(classifyTargetAddress(address, [])).toMatchObject({ allowed: false });
    });
  });

  it.each(globalUnicast)('lets %s through', (address, connectTo) => {
    expect(classifyTargetAddress(address, [])).toEqual({
      allowed: true,
      address: connectTo,
      family: connectTo.includes(':') ? 6 : 4,
    });
  });

  it("refuses the server's own addresses even when they are public", () => {
    const own = ['127.0.0.1', '::1', '93.184.216.34', '2606:4700:4700::1111'];
    expect(classifyTargetAddress('93.184.216.34', own)).toEqual({
      allowed: false,
      why: 'an address of this server',
    });
    expect(classifyTargetAddress('::ffff:5db8:d822', own)).toMatchObject({ allowed: false });
    expect(classifyTargetAddress('2606:4700:4700:0::1111', own)).toMatchObject({ allowed: false });
    expect(classifyTargetAddress('93.184.216.35', own)).toMatchObject({ allowed: true });
  });

  it('refuses what is not an address', () => {
    expect(classifyTargetAddress('example.com', [])).toMatchObject({ allowed: false });
    expect(classifyTargetAddress('', [])).toMatchObject({ allowed: false });
  });
});

describe('checkWebhookTarget', () => {
  const noOwnAddresses = () => [];

  it.each([
    ['http://192.0.2.2:3000/', '192.0.2.2', 'reserved'],
    ['http://198.51.100.1/', '198.51.100.1', 'reserved'],
    ['https://203.0.113.5/hook', '203.0.113.5', 'reserved'],
    ['http://[2002:7f00:1::]/', '2002:7f00:1::', '6to4'],
    ['http://100.64.0.1/', '100.64.0.1', 'carrierGradeNat'],
    ['http://[64:ff9b::a00:1]/', '64:ff9b::a00:1', 'rfc6052'],
    ['http://[2001::1]/', '2001::1', 'teredo'],
    ['http://[3fff::1]/', '3fff::1', 'reserved'],
    // The URL parser writes these as 127.0.0.1, 127.0.0.1 and ::ffff:7f00:1 before the check.
    ['http://2130706433/', '127.0.0.1', 'loopback'],
    ['http://0x7f.1/', '127.0.0.1', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1', 'loopback'],
  ])('refuses %s naming the address and its range', async (url, address, range) => {
    const refusal = checkWebhookTarget(url, { allowPrivate: false, ownAddresses: noOwnAddresses });
    await expect(refusal).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: `The webhook URL points to ${address}, which is not a public internet address (special-purpose range: ${range})`,
    });
  });

  it("refuses every address of this machine's interfaces, read at each check", async () => {
    const own = listOwnAddresses();
    expect(own).toContain('127.0.0.1');
    for (const address of own) {
      const host = address.includes(':') ? `[${address}]` : address;
      await expect(checkWebhookTarget(`http://${host}:8080/`, { allowPrivate: false })).rejects.toMatchObject(
        {
          code: 'VALIDATION_FAILED',
        },
      );
    }
    let addresses: string[] = [];
    const policy = { allowPrivate: false, ownAddresses: () => addresses };
    await expect(checkWebhookTarget('https://93.184.216.34/hook', policy)).resolves.toMatchObject({
      address: '93.184.216.34',
    });
    addresses = ['93.184.216.34'];
    await expect(checkWebhookTarget('https://93.184.216.34/hook', policy)).rejects.toMatchObject({
      message:
        'The webhook URL points to 93.184.216.34, which is not a public internet address (an address of this server)',
    });
  });

  it('resolves a host name once and refuses it when any address is not public, without saying which', async () => {
    const asked: string[] = [];
    const answers: Record<string, string[]> = {
      'hooks.example.com': ['93.184.216.34', '2606:4700:4700::1111'],
      'mixed.example.com': ['93.184.216.34', '10.0.0.7'],
      'internal.example.com': ['192.168.10.20'],
      'nothing.example.com': [],
    };
    const policy = {
      allowPrivate: false,
      ownAddresses: noOwnAddresses,
      resolveHost: async (host: string) => {
        asked.push(host);
        const found = answers[host];
        if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
        return found;
      },
    };
    await expect(checkWebhookTarget('https://hooks.example.com/in', policy)).resolves.toEqual({
      url: new URL('https://hooks.example.com/in'),
      address: '93.184.216.34',
      family: 4,
    });
    expect(asked).toEqual(['hooks.example.com']);
    for (const host of [
      'mixed.example.com',
      'internal.example.com',
      'nothing.example.com',
      'missing.example.com',
    ]) {
      const refusal = await checkWebhookTarget(`https://${host}/in`, policy).catch((error: unknown) => error);
      expect(refusal).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'The webhook URL has a host name that does not resolve to public internet addresses only',
        details: {
          fields: { url: 'has a host name that does not resolve to public internet addresses only' },
        },
      });
    }
  });

  it('refuses localhost with the system resolver', async () => {
    await expect(
      checkWebhookTarget('http://localhost:3000/hook', { allowPrivate: false }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('lets any resolvable target through when private targets are allowed', async () => {
    await expect(checkWebhookTarget('http://localhost/hook', { allowPrivate: true })).resolves.toMatchObject({
      address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
    await expect(checkWebhookTarget('http://192.0.2.2:3000/', { allowPrivate: true })).resolves.toMatchObject(
      {
        address: '192.0.2.2',
        family: 4,
      },
    );
  });

  it.each([
    ['ftp://93.184.216.34/', 'must be http or https'],
    ['https://user:pw@93.184.216.34/', 'must not contain credentials'],
    ['not a url', 'is not a URL'],
  ])('refuses %s', async (url, reason) => {
    await expect(checkWebhookTarget(url, { allowPrivate: true })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { url: reason } },
    });
  });
});
