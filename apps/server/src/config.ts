import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type JurisdictionDenyList, parseJurisdictionDenyList, validateChainAddress } from '@covenant/domain';
import { type Address, getAddress } from 'viem';
import { z } from 'zod';
import { webSocketUrlOf } from './chains/web-socket-url.js';
import { type EscrowCrashPoint, escrowCrashPoints } from './escrow/escrow-crash-point.js';

const ethereumAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be an Ethereum address (0x and 40 hex digits)')
  .transform((value) => getAddress(value));

/** `USDC:0x…,USDT:0x…`: the ERC-20 tokens the platform trades on a real Ethereum node. */
const ethereumTokens = z
  .string()
  .transform((value) => value.split(',').map((entry) => entry.trim()))
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^[A-Z0-9]{2,10}:0x[0-9a-fA-F]{40}$/, 'each entry must be SYMBOL:address')
          .transform((entry) => {
            const [symbol = '', address = ''] = entry.split(':');
            return { symbol, address: getAddress(address) };
          }),
      )
      .min(1),
  );

/** How deep a deposit must be: `finalized` (the chain's finality) or a number of blocks. */
const solanaAddress = z
  .string()
  .refine(
    (value) => validateChainAddress('SOL', value, { bitcoinNetwork: 'mainnet' }).ok,
    'must be a Solana address (base58 of 32 bytes)',
  );

const confirmationsFromEnv = z.union([z.literal('finalized'), z.coerce.number().int().min(1).max(10_000)]);

/** `KP,IR,US-CU`: countries never matched, and pairs of countries whose parties are not matched with each other. */
const jurisdictionDenyList = z.string().transform((value, context) => {
  const parsed = parseJurisdictionDenyList(value);
  if (parsed.ok) return parsed.list;
  context.addIssue({
    code: 'custom',
    message: `unknown entries ${parsed.invalid.join(', ')}: each is an ISO 3166-1 alpha-2 code (KP) or a pair of them (US-CU)`,
  });
  return z.NEVER;
});

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Every setting the server reads, parsed once at start. See the README's settings table. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  /** Where this deployment's keys start in Redis: deployments sharing one Redis keep apart by it. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'letters, digits and : _ . - (at most 64)')
    .default('covenant:'),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('Covenant <no-reply@covenant.local>'),
  PUBLIC_URL: z.string().url().optional(),
  ETH_RPC_URL: z.string().url().optional(),
  /**
   * With ETH_RPC_URL: the node's WebSocket endpoint, where the engine subscribes to new blocks
   * (`eth_subscribe` newHeads); unset → ETH_RPC_URL with the ws(s) scheme.
   */
  ETH_WS_URL: z.string().url().optional(),
  /** With ETH_RPC_URL: the deployed escrow factory, the platform's fee address and the traded tokens. */
  ETH_ESCROW_FACTORY: ethereumAddress.optional(),
  ETH_FEE_ADDRESS: ethereumAddress.optional(),
  ETH_TOKENS: ethereumTokens.optional(),
  ETH_CONFIRMATIONS: confirmationsFromEnv.optional(),
  /** Hours after the funding deadline before anyone may refund an escrow on-chain: the time a funded deal has to settle. */
  ESCROW_SETTLEMENT_WINDOW_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(72),
  /** How often the escrow engine watches the chains and moves payouts along (0: never on its own). */
  ESCROW_POLL_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
  /** Seconds a sent payout may wait unmined before it is sent again with a 12.5% higher fee (same nonce). */
  ESCROW_FEE_BUMP_AFTER_SECONDS: z.coerce.number().int().min(15).max(86_400).default(180),
  /** Seconds opening an escrow waits for its deployments to be mined before answering that they are on their way. */
  ESCROW_DEPLOYMENT_WAIT_SECONDS: z.coerce.number().int().min(0).max(120).default(30),
  /** How far from the meeting's coordinates a check-in may be before it is flagged for the mediators. */
  MEETING_RADIUS_METERS: z.coerce.number().int().min(50).max(100_000).default(1000),
  /** Jurisdictions the counterparty suggestions never match (GET /api/v1/partners/matches). */
  MATCHING_DENIED_JURISDICTIONS: jurisdictionDenyList.prefault(''),
  /** Days a check-in's position is kept (the privacy policy states it) before it is erased. */
  MEETING_POSITION_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** Tests only (refused in production): where the engine kills its own process to prove recovery. */
  ESCROW_CRASH_POINT: z.enum(escrowCrashPoints).optional(),
  /**
   * A Bitcoin Core node's JSON-RPC (testnet4, signet or mainnet, per BITCOIN_NETWORK); unset → the
   * embedded regtest node. Credentials with BTC_RPC_USER and BTC_RPC_PASSWORD (never in the URL).
   */
  BTC_RPC_URL: z.string().url().optional(),
  BTC_RPC_USER: z.string().min(1).optional(),
  BTC_RPC_PASSWORD: z.string().min(1).optional(),
  /** Blocks on top of a deposit's before it counts (default 2). */
  BTC_CONFIRMATIONS: z.coerce.number().int().min(1).max(100).optional(),
  /** Bounds of the network fee rate (sat/vB) taken from the node's `estimatesmartfee` for payouts. */
  BTC_FEE_RATE_MIN_SAT_VB: z.coerce.number().int().min(1).max(10_000).default(2),
  BTC_FEE_RATE_MAX_SAT_VB: z.coerce.number().int().min(1).max(10_000).default(500),
  /** The embedded regtest node mines a block this often (0: only on request). */
  BTC_DEVNET_BLOCK_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  /**
   * A Solana cluster's JSON-RPC (devnet or mainnet-beta, per SOL_NETWORK); unset → the embedded
   * local devnet (LiteSVM behind the same JSON-RPC).
   */
  SOL_RPC_URL: z.string().url().optional(),
  /**
   * With SOL_RPC_URL: the RPC's WebSocket endpoint, where the engine subscribes to new slots
   * (`slotSubscribe`); unset → SOL_RPC_URL with the ws(s) scheme and, when it names a port, the next.
   */
  SOL_WS_URL: z.string().url().optional(),
  /** Which cluster SOL_RPC_URL serves: the deal addresses and the default mints depend on it. */
  SOL_NETWORK: z.enum(['devnet', 'mainnet-beta']).default('mainnet-beta'),
  /** Slots on top of a deposit's before it counts, or `finalized` (the default on a real cluster). */
  SOL_CONFIRMATIONS: confirmationsFromEnv.optional(),
  /** The USDC and USDT mints on the cluster (defaults: Circle's and Tether's on mainnet-beta; USDC's devnet mint on devnet). */
  SOL_USDC_MINT: solanaAddress.optional(),
  SOL_USDT_MINT: solanaAddress.optional(),
  /** The wallet the Solana legs' 1 bp fee is paid to; unset → a wallet of the platform's Solana seed. */
  SOL_FEE_ADDRESS: solanaAddress.optional(),
  /** The embedded devnet advances a slot this often. */
  SOL_DEVNET_SLOT_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(400),
  /** The Bitcoin network whose address formats deal addresses must have (version bytes, bech32 prefix). */
  BITCOIN_NETWORK: z.enum(['mainnet', 'testnet', 'regtest']).default('regtest'),
  WEBHOOK_ALLOW_PRIVATE: booleanFromEnv.default(false),
  /** Requests per hour to /api/v1 per user or API key, by API access tier (spec: 1000 and 10000). */
  API_RATE_LIMIT_STANDARD: z.coerce.number().int().min(1).default(1000),
  API_RATE_LIMIT_PREMIUM: z.coerce.number().int().min(1).default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` (one human line per entry, requests at debug) or `json` (one JSON line per entry and per request). */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  /**
   * Behind a load balancer: `true`, the number of proxy hops, or their addresses/CIDRs (comma-separated),
   * so client IPs (rate limits, logs) come from X-Forwarded-For. Unset: the socket's address.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value) => {
      if (value === 'true' || value === 'false') return value === 'true';
      return /^\d+$/.test(value) ? Number(value) : value;
    }),
  // Auth
  AUTH_JWT_EXPIRY_SECONDS: z.coerce.number().int().min(10).max(86_400).default(3600),
  AUTH_REFRESH_REUSE_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  AUTH_REQUIRE_EMAIL_CONFIRMATION: booleanFromEnv.default(true),
  AUTH_REAUTHENTICATION_WINDOW_SECONDS: z.coerce.number().int().min(30).max(86_400).default(600),
  /** Production: the ES256 signing key as a JWK (JSON); unset → generated into DATA_DIR/keys on first start. */
  AUTH_JWT_PRIVATE_JWK: z.string().optional(),
  /** "Continue with Google": the OAuth client of the Google Cloud project; both unset → Google sign-in off. */
  GOOGLE_CLIENT_ID: z.string().min(1).max(512).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).max(512).optional(),
  /** The OpenID provider standing in for Google (its discovery document is read from here). */
  GOOGLE_ISSUER_URL: z.string().url().default('https://accounts.google.com'),
  /** Production: the master key that wraps each uploaded file's key (base64, 32 bytes); unset → DATA_DIR/keys. */
  FILE_ENCRYPTION_KEY: z
    .string()
    .refine((value) => /^[A-Za-z0-9+/]{43}=$/.test(value), 'must be 32 bytes in base64')
    .optional(),
  /**
   * Seed the demo accounts into an empty database given by DATABASE_URL (always seeded into an empty
   * PGlite). Never in production: refused there, as the accounts' passwords are published.
   */
  SEED_DEMO_DATA: booleanFromEnv.default(false),
  /**
   * Benchmarks only (refused in production): e-mail addresses, comma-separated, whose password
   * sign-ins skip the failure throttle of ADR 012, so `npm run bench` can measure sign-in throughput
   * with its own accounts. Every other account stays throttled as usual.
   */
  BENCH_UNTHROTTLED_SIGN_IN_EMAILS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
});

/** A real node needs the contracts deployed on it; the embedded devnet deploys its own. */
const checkedEnvSchema = envSchema.superRefine((env, context) => {
  for (const name of ['BTC_RPC_USER', 'BTC_RPC_PASSWORD'] as const) {
    if (!env.BTC_RPC_URL && env[name] !== undefined) {
      context.addIssue({ code: 'custom', path: [name], message: 'is only used with BTC_RPC_URL' });
    }
  }
  if (env.BTC_FEE_RATE_MIN_SAT_VB > env.BTC_FEE_RATE_MAX_SAT_VB) {
    context.addIssue({
      code: 'custom',
      path: ['BTC_FEE_RATE_MIN_SAT_VB'],
      message: 'must not exceed BTC_FEE_RATE_MAX_SAT_VB',
    });
  }
  if (env.BTC_RPC_URL && env.BITCOIN_NETWORK === 'regtest' && env.NODE_ENV === 'production') {
    context.addIssue({
      code: 'custom',
      path: ['BITCOIN_NETWORK'],
      message: 'must name the node’s network (mainnet or testnet) in production',
    });
  }
  if (env.NODE_ENV === 'production' && env.ESCROW_CRASH_POINT !== undefined) {
    context.addIssue({
      code: 'custom',
      path: ['ESCROW_CRASH_POINT'],
      message: 'is for tests only and refused with NODE_ENV=production',
    });
  }
  for (const [name, rpc] of [
    ['ETH_WS_URL', 'ETH_RPC_URL'],
    ['SOL_WS_URL', 'SOL_RPC_URL'],
  ] as const) {
    if (!env[rpc] && env[name] !== undefined) {
      context.addIssue({ code: 'custom', path: [name], message: `is only used with ${rpc}` });
    }
  }
  for (const name of ['ETH_ESCROW_FACTORY', 'ETH_FEE_ADDRESS', 'ETH_TOKENS'] as const) {
    if (env.ETH_RPC_URL && env[name] === undefined) {
      context.addIssue({ code: 'custom', path: [name], message: 'is required when ETH_RPC_URL is set' });
    }
    if (!env.ETH_RPC_URL && env[name] !== undefined) {
      context.addIssue({ code: 'custom', path: [name], message: 'is only used with ETH_RPC_URL' });
    }
  }
  if ((env.GOOGLE_CLIENT_ID === undefined) !== (env.GOOGLE_CLIENT_SECRET === undefined)) {
    const missing = env.GOOGLE_CLIENT_ID === undefined ? 'GOOGLE_CLIENT_ID' : 'GOOGLE_CLIENT_SECRET';
    context.addIssue({
      code: 'custom',
      path: [missing],
      message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set together',
    });
  }
  if (env.NODE_ENV === 'production' && !env.GOOGLE_ISSUER_URL.startsWith('https:')) {
    context.addIssue({
      code: 'custom',
      path: ['GOOGLE_ISSUER_URL'],
      message: 'must be an https URL in production',
    });
  }
  if (env.NODE_ENV === 'production' && env.BENCH_UNTHROTTLED_SIGN_IN_EMAILS.length > 0) {
    context.addIssue({
      code: 'custom',
      path: ['BENCH_UNTHROTTLED_SIGN_IN_EMAILS'],
      message: 'is for benchmarks only and refused with NODE_ENV=production',
    });
  }
  if (env.NODE_ENV === 'production' && env.SEED_DEMO_DATA) {
    context.addIssue({
      code: 'custom',
      path: ['SEED_DEMO_DATA'],
      message: 'demo accounts (published passwords) are never seeded when NODE_ENV=production',
    });
  }
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of every key this deployment writes to Redis. */
  redisKeyPrefix: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  webhookAllowPrivate: boolean;
  /** The Bitcoin network deal addresses are checked against. */
  bitcoinNetwork: Env['BITCOIN_NETWORK'];
  /** Requests per hour to /api/v1 by API access tier. */
  apiRateLimits: { standard: number; premium: number };
  logLevel: Env['LOG_LEVEL'];
  /** LOG_FORMAT, by default `json` in production and `pretty` otherwise. */
  logFormat: 'pretty' | 'json';
  trustProxy: boolean | number | string;
  /** The built web app the server serves (not a setting: `npm run build` writes it there). */
  webDistDir: string;
  auth: {
    jwtExpirySeconds: number;
    refreshReuseIntervalSeconds: number;
    requireEmailConfirmation: boolean;
    /** A sensitive action needs a proof of identity (password, TOTP) at most this old (ADR 013). */
    reauthenticationWindowSeconds: number;
    jwtPrivateJwk: string | undefined;
    /** "Continue with Google" (OpenID Connect); undefined when GOOGLE_CLIENT_ID/SECRET are unset. */
    google: GoogleConfig | undefined;
    /** Benchmarks only (never in production): accounts whose password sign-ins are not throttled. */
    unthrottledSignInEmails: ReadonlySet<string>;
  };
  /** The configured file master key (base64); unset → generated into DATA_DIR/keys on first start. */
  fileEncryptionKey: string | undefined;
  seedDemoData: boolean;
  ethereum: EthereumConfig;
  bitcoin: BitcoinConfig;
  solana: SolanaConfig;
  escrow: {
    settlementWindowHours: number;
    pollMs: number;
    feeBumpAfterSeconds: number;
    deploymentWaitSeconds: number;
    /** Tests only: where the escrow engine kills its own process (never set in production). */
    crashPoint: EscrowCrashPoint | undefined;
  };
  meetings: { radiusMeters: number; positionRetentionDays: number };
  matching: { deniedJurisdictions: JurisdictionDenyList };
}

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  issuerUrl: string;
}

export type Confirmations = number | 'finalized';

/** Ethereum: the embedded devnet (ETH_RPC_URL unset) or a real node with its deployed contracts. */
export type EthereumConfig =
  | { mode: 'devnet'; confirmations: Confirmations }
  | {
      mode: 'node';
      rpcUrl: string;
      wsUrl: string;
      escrowFactory: Address;
      feeAddress: Address;
      tokens: { symbol: string; address: Address }[];
      confirmations: Confirmations;
    };

/** Bitcoin: the embedded regtest node (BTC_RPC_URL unset) or a Bitcoin Core node. */
export type BitcoinConfig = {
  network: Env['BITCOIN_NETWORK'];
  confirmations: number;
  feeRateSatPerVbyte: { min: number; max: number };
} & (
  | { mode: 'devnet'; blockIntervalMs: number }
  | { mode: 'node'; rpcUrl: string; rpcUser: string | undefined; rpcPassword: string | undefined }
);

/** Solana: the embedded local devnet (SOL_RPC_URL unset) or a cluster's RPC. */
export type SolanaConfig = { confirmations: Confirmations; feeAddress: string | undefined } & (
  | { mode: 'devnet'; slotIntervalMs: number }
  | {
      mode: 'node';
      rpcUrl: string;
      wsUrl: string;
      network: Env['SOL_NETWORK'];
      mints: { USDC: string; USDT: string | undefined };
    }
);

/** The stablecoin mints of each cluster: Circle's USDC, Tether's USDT (none on devnet). */
const solanaDefaultMints: Record<Env['SOL_NETWORK'], { USDC: string; USDT: string | undefined }> = {
  'mainnet-beta': {
    USDC: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    USDT: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
  },
  devnet: { USDC: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU', USDT: undefined },
};

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = checkedEnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const env = parsed.data;
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir: resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
    bitcoinNetwork: env.BITCOIN_NETWORK,
    apiRateLimits: { standard: env.API_RATE_LIMIT_STANDARD, premium: env.API_RATE_LIMIT_PREMIUM },
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'pretty'),
    trustProxy: env.TRUST_PROXY,
    webDistDir: fileURLToPath(new URL('../../web/dist', import.meta.url)),
    auth: {
      jwtExpirySeconds: env.AUTH_JWT_EXPIRY_SECONDS,
      refreshReuseIntervalSeconds: env.AUTH_REFRESH_REUSE_INTERVAL_SECONDS,
      requireEmailConfirmation: env.AUTH_REQUIRE_EMAIL_CONFIRMATION,
      reauthenticationWindowSeconds: env.AUTH_REAUTHENTICATION_WINDOW_SECONDS,
      jwtPrivateJwk: env.AUTH_JWT_PRIVATE_JWK,
      google:
        env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
          ? {
              clientId: env.GOOGLE_CLIENT_ID,
              clientSecret: env.GOOGLE_CLIENT_SECRET,
              issuerUrl: env.GOOGLE_ISSUER_URL,
            }
          : undefined,
      unthrottledSignInEmails: new Set(env.BENCH_UNTHROTTLED_SIGN_IN_EMAILS),
    },
    fileEncryptionKey: env.FILE_ENCRYPTION_KEY,
    seedDemoData: env.SEED_DEMO_DATA,
    ethereum: ethereumConfig(env),
    bitcoin: bitcoinConfig(env),
    solana: solanaConfig(env),
    escrow: {
      settlementWindowHours: env.ESCROW_SETTLEMENT_WINDOW_HOURS,
      pollMs: env.ESCROW_POLL_MS,
      feeBumpAfterSeconds: env.ESCROW_FEE_BUMP_AFTER_SECONDS,
      deploymentWaitSeconds: env.ESCROW_DEPLOYMENT_WAIT_SECONDS,
      crashPoint: env.ESCROW_CRASH_POINT,
    },
    meetings: {
      radiusMeters: env.MEETING_RADIUS_METERS,
      positionRetentionDays: env.MEETING_POSITION_RETENTION_DAYS,
    },
    matching: { deniedJurisdictions: env.MATCHING_DENIED_JURISDICTIONS },
  };
}

function ethereumConfig(env: Env): EthereumConfig {
  if (!env.ETH_RPC_URL || !env.ETH_ESCROW_FACTORY || !env.ETH_FEE_ADDRESS || !env.ETH_TOKENS) {
    return { mode: 'devnet', confirmations: env.ETH_CONFIRMATIONS ?? 1 };
  }
  return {
    mode: 'node',
    rpcUrl: env.ETH_RPC_URL,
    wsUrl: env.ETH_WS_URL ?? webSocketUrlOf(env.ETH_RPC_URL, 'same-port'),
    escrowFactory: env.ETH_ESCROW_FACTORY,
    feeAddress: env.ETH_FEE_ADDRESS,
    tokens: env.ETH_TOKENS,
    confirmations: env.ETH_CONFIRMATIONS ?? 'finalized',
  };
}

function bitcoinConfig(env: Env): BitcoinConfig {
  const common = {
    network: env.BITCOIN_NETWORK,
    confirmations: env.BTC_CONFIRMATIONS ?? 2,
    feeRateSatPerVbyte: { min: env.BTC_FEE_RATE_MIN_SAT_VB, max: env.BTC_FEE_RATE_MAX_SAT_VB },
  };
  if (!env.BTC_RPC_URL) {
    return { ...common, mode: 'devnet', blockIntervalMs: env.BTC_DEVNET_BLOCK_INTERVAL_MS };
  }
  return {
    ...common,
    mode: 'node',
    rpcUrl: env.BTC_RPC_URL,
    rpcUser: env.BTC_RPC_USER,
    rpcPassword: env.BTC_RPC_PASSWORD,
  };
}

function solanaConfig(env: Env): SolanaConfig {
  if (!env.SOL_RPC_URL) {
    return {
      mode: 'devnet',
      feeAddress: env.SOL_FEE_ADDRESS,
      confirmations: env.SOL_CONFIRMATIONS ?? 1,
      slotIntervalMs: env.SOL_DEVNET_SLOT_INTERVAL_MS,
    };
  }
  const defaults = solanaDefaultMints[env.SOL_NETWORK];
  return {
    mode: 'node',
    feeAddress: env.SOL_FEE_ADDRESS,
    rpcUrl: env.SOL_RPC_URL,
    wsUrl: env.SOL_WS_URL ?? webSocketUrlOf(env.SOL_RPC_URL, 'next-port'),
    network: env.SOL_NETWORK,
    confirmations: env.SOL_CONFIRMATIONS ?? 'finalized',
    mints: { USDC: env.SOL_USDC_MINT ?? defaults.USDC, USDT: env.SOL_USDT_MINT ?? defaults.USDT },
  };
}
