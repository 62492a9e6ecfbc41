import { setFlagsFromString } from 'node:v8';

/**
 * The V8 settings the server runs with, set by importing this module first (`main.ts` does, before
 * any other module allocates).
 *
 * `--no-allocation-site-pretenuring`: V8 pretenures an allocation site (allocates its objects
 * straight into the old generation) once nearly all of them outlived a young collection. A burst of
 * such survivors (migrations and seeding at start-up, a slow moment under load) trains sites that
 * every request later goes through, such as the database driver's: each request's rows then hang off
 * old objects, are copied into the old generation at the next young collection and wait there for a
 * full one. Measured on the deal list (docs/performance.md, "2026-11-28, night"): 1.1 MB promoted per
 * young collection instead of 4 KB, and the list at 0.80 of a bare node:http server instead of 0.90.
 */
export const garbageCollectorFlags = ['--no-allocation-site-pretenuring'] as const;

for (const flag of garbageCollectorFlags) setFlagsFromString(flag);
