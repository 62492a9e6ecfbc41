import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('runs embedded with no settings at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      databaseUrl: undefined,
      redisUrl: undefined,
      smtpUrl: undefined,
      mailFrom: 'Covenant <no-reply@covenant.local>',
      publicUrl: 'http://localhost:3000',
      trustProxy: false,
    });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.webDistDir).toMatch(/apps\/web\/dist$/);
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['10.0.0.0/8,127.0.0.1', '10.0.0.0/8,127.0.0.1'],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('logs pretty lines by default, JSON lines in production, either when LOG_FORMAT says so', () => {
    expect(loadConfig({})).toMatchObject({ logLevel: 'info', logFormat: 'pretty' });
    expect(loadConfig({ NODE_ENV: 'test' }).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ logLevel: 'info', logFormat: 'json' });
    expect(loadConfig({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT: /);
  });

  it('runs Bitcoin on the embedded regtest node, or on a Bitcoin Core node given by BTC_RPC_URL', () => {
    expect(loadConfig({}).bitcoin).toEqual({
      mode: 'devnet',
      network: 'regtest',
      confirmations: 2,
      feeRateSatPerVbyte: { min: 2, max: 500 },
      blockIntervalMs: 5000,
    });
    expect(
      loadConfig({
        BTC_RPC_URL: 'http://127.0.0.1:48332',
        BTC_RPC_USER: 'covenant',
        BTC_RPC_PASSWORD: 'secret',
        BITCOIN_NETWORK: 'testnet',
        BTC_CONFIRMATIONS: '6',
        BTC_FEE_RATE_MIN_SAT_VB: '1',
        BTC_FEE_RATE_MAX_SAT_VB: '50',
      }).bitcoin,
    ).toEqual({
      mode: 'node',
      network: 'testnet',
      confirmations: 6,
      feeRateSatPerVbyte: { min: 1, max: 50 },
      rpcUrl: 'http://127.0.0.1:48332',
      rpcUser: 'covenant',
      rpcPassword: 'secret',
    });
    expect(() => loadConfig({ BTC_RPC_PASSWORD: 'secret' })).toThrow(
      /BTC_RPC_PASSWORD: is only used with BTC_RPC_URL/,
    );
    expect(() => loadConfig({ BTC_FEE_RATE_MIN_SAT_VB: '20', BTC_FEE_RATE_MAX_SAT_VB: '10' })).toThrow(
      /BTC_FEE_RATE_MIN_SAT_VB: must not exceed/,
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', BTC_RPC_URL: 'http://node:8332', BITCOIN_NETWORK: 'regtest' }),
    ).toThrow(/BITCOIN_NETWORK/);
  });

  it('takes FILE_ENCRYPTION_KEY only as 32 bytes of base64', () => {
    expect(loadConfig({}).fileEncryptionKey).toBeUndefined();
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ FILE_ENCRYPTION_KEY: key }).fileEncryptionKey).toBe(key);
    expect(() => loadConfig({ FILE_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      /FILE_ENCRYPTION_KEY: must be 32 bytes in base64/,
    );
  });

  it('takes ESCROW_CRASH_POINT outside production only, and only a known crash point', () => {
    expect(loadConfig({}).escrow.crashPoint).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', ESCROW_CRASH_POINT: 'mid-refund' }).escrow.crashPoint).toBe(
      'mid-refund',
    );
    expect(() => loadConfig({ ESCROW_CRASH_POINT: 'somewhere' })).toThrow(/ESCROW_CRASH_POINT: /);
    expect(() => loadConfig({ NODE_ENV: 'production', ESCROW_CRASH_POINT: 'after-cosign' })).toThrow(
      /ESCROW_CRASH_POINT: is for tests only and refused with NODE_ENV=production/,
    );
  });

  it('lifts sign-in throttling for the bench accounts outside production only', () => {
    expect(loadConfig({}).auth.unthrottledSignInEmails.size).toBe(0);
    expect([
      ...loadConfig({
        NODE_ENV: 'test',
        BENCH_UNTHROTTLED_SIGN_IN_EMAILS: ' Bench-1@Example.test, bench-2@example.test ',
      }).auth.unthrottledSignInEmails,
    ]).toEqual(['bench-1@example.test', 'bench-2@example.test']);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', BENCH_UNTHROTTLED_SIGN_IN_EMAILS: 'bench-1@example.test' }),
    ).toThrow(
      /BENCH_UNTHROTTLED_SIGN_IN_EMAILS: is for benchmarks only and refused with NODE_ENV=production/,
    );
    expect(
      loadConfig({ NODE_ENV: 'production', BENCH_UNTHROTTLED_SIGN_IN_EMAILS: '' }).auth
        .unthrottledSignInEmails.size,
    ).toBe(0);
  });

  it('turns Google sign-in on with its client id and secret together, from Google or an https issuer in production', () => {
    expect(loadConfig({}).auth.google).toBeUndefined();
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }).auth.google).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      issuerUrl: 'https://accounts.google.com',
    });
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'id' })).toThrow(
      /GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set together/,
    );
    expect(() => loadConfig({ GOOGLE_CLIENT_SECRET: 'secret' })).toThrow(/GOOGLE_CLIENT_ID: /);
    expect(() => loadConfig({ NODE_ENV: 'production', GOOGLE_ISSUER_URL: 'http://127.0.0.1:3190' })).toThrow(
      /GOOGLE_ISSUER_URL: must be an https URL in production/,
    );
  });

  it('finds the nodes’ WebSocket endpoints for new-block subscriptions, by default from their RPC URLs', () => {
    const ethereum = {
      ETH_RPC_URL: 'https://eth.example:8545/key',
      ETH_ESCROW_FACTORY: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      ETH_FEE_ADDRESS: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      ETH_TOKENS: 'USDC:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    };
    expect(loadConfig(ethereum).ethereum).toMatchObject({ wsUrl: 'wss://eth.example:8545/key' });
    expect(loadConfig({ ...ethereum, ETH_WS_URL: 'wss://ws.example/key' }).ethereum).toMatchObject({
      wsUrl: 'wss://ws.example/key',
    });
    expect(loadConfig({ SOL_RPC_URL: 'http://127.0.0.1:8899' }).solana).toMatchObject({
      wsUrl: 'ws://127.0.0.1:8900/',
    });
    expect(loadConfig({ SOL_RPC_URL: 'https://api.mainnet-beta.solana.com' }).solana).toMatchObject({
      wsUrl: 'wss://api.mainnet-beta.solana.com/',
    });
    expect(() => loadConfig({ ETH_WS_URL: 'ws://127.0.0.1:8545' })).toThrow(
      /ETH_WS_URL: is only used with ETH_RPC_URL/,
    );
    expect(() => loadConfig({ SOL_WS_URL: 'ws://127.0.0.1:8900' })).toThrow(
      /SOL_WS_URL: is only used with SOL_RPC_URL/,
    );
  });

  it('keeps Redis keys under REDIS_KEY_PREFIX, covenant: by default', () => {
    expect(loadConfig({}).redisKeyPrefix).toBe('covenant:');
    expect(loadConfig({ REDIS_KEY_PREFIX: 'covenant-staging:' }).redisKeyPrefix).toBe('covenant-staging:');
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'has space' })).toThrow(/REDIS_KEY_PREFIX: /);
  });

  it('reads MATCHING_DENIED_JURISDICTIONS as countries and pairs, empty by default, and refuses unknown codes', () => {
    expect(loadConfig({}).matching.deniedJurisdictions).toEqual({ countries: new Set(), pairs: new Set() });
    expect(
      loadConfig({ MATCHING_DENIED_JURISDICTIONS: 'KP, ir,US-CU' }).matching.deniedJurisdictions,
    ).toEqual({
      countries: new Set(['KP', 'IR']),
      pairs: new Set(['CU-US']),
    });
    expect(() => loadConfig({ MATCHING_DENIED_JURISDICTIONS: 'KP,XX' })).toThrow(
      /MATCHING_DENIED_JURISDICTIONS: unknown entries XX/,
    );
  });

  it('names every invalid setting at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url' })).toThrow(
      /PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/,
    );
  });
});
