import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// The README promises the two commands on this Node.js version; npm only warns (EBADENGINE) when an
// installed package wants a newer one, and such a package may use APIs this version lacks.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as {
  engines: { node: string };
};
const lockfile = JSON.parse(readFileSync(`${repoRoot}/package-lock.json`, 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean }>;
};

describe('installed packages and the promised Node.js version', () => {
  const promised = semver.minVersion(manifest.engines.node)?.version;

  it('the README and package.json promise the same Node.js version', () => {
    const readme = readFileSync(`${repoRoot}/README.md`, 'utf8');
    expect(promised).toBeDefined();
    expect(readme).toContain(`Node.js ≥ ${semver.major(promised!)}.${semver.minor(promised!)}`);
  });

  it('every package in package-lock.json runs on the oldest Node.js the project promises', () => {
    const refusing = Object.entries(lockfile.packages).flatMap(([path, entry]) => {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!wanted || semver.satisfies(promised!, wanted)) return [];
      return [`${path.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${wanted}`];
    });
    expect(refusing).toEqual([]);
  });
});
