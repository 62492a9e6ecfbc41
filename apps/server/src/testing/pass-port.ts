/**
 * A fixed port for a test file's server (one it must know before starting it, for its PUBLIC_URL or
 * to start it again on the same address): `port` in the embedded-database pass, `port + 100` in the
 * PostgreSQL pass, since `npm test` runs the two side by side.
 */
export function passPort(port: number): number {
  return process.env.TEST_DB === 'postgres' ? port + 100 : port;
}
