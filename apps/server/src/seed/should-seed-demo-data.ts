import type { Config } from '../config.js';

/**
 * Whether an empty database gets the demo accounts: the embedded one always, one of DATABASE_URL
 * only when SEED_DEMO_DATA asks, and never in production (ASVS 2.5.4): their passwords and the
 * staff accounts' TOTP secret are published in the README.
 */
export function shouldSeedDemoData(config: Pick<Config, 'env' | 'databaseUrl' | 'seedDemoData'>): boolean {
  if (config.env === 'production') return false;
  return !config.databaseUrl || config.seedDemoData;
}
