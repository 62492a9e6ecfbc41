import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { shouldSeedDemoData } from './should-seed-demo-data.js';

const postgresUrl = 'postgres://postgres@127.0.0.1:5432/covenant';

describe('shouldSeedDemoData', () => {
  it('seeds the embedded database, a DATABASE_URL one only when asked, and never in production', () => {
    expect(shouldSeedDemoData(loadConfig({}))).toBe(true);
    expect(shouldSeedDemoData(loadConfig({ NODE_ENV: 'test' }))).toBe(true);
    expect(shouldSeedDemoData(loadConfig({ DATABASE_URL: postgresUrl }))).toBe(false);
    expect(shouldSeedDemoData(loadConfig({ DATABASE_URL: postgresUrl, SEED_DEMO_DATA: 'true' }))).toBe(true);
    expect(shouldSeedDemoData(loadConfig({ NODE_ENV: 'production' }))).toBe(false);
    expect(shouldSeedDemoData(loadConfig({ NODE_ENV: 'production', DATABASE_URL: postgresUrl }))).toBe(false);
  });

  it('refuses to start in production when asked to seed them', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SEED_DEMO_DATA: 'true' })).toThrow(
      /SEED_DEMO_DATA: demo accounts \(published passwords\) are never seeded when NODE_ENV=production/,
    );
  });
});
