import type { FastifyBaseLogger } from 'fastify';

/**
 * Work an answer must not wait for. The auth endpoints that may e-mail an address answer the same
 * whether or not an account exists; sending in the background keeps their timing the same too.
 */
export interface BackgroundTasks {
  /** Starts `task` without waiting for it; a failure is logged under `what`. */
  run(what: string, task: () => Promise<void>): void;
  /** Resolves once every task started so far has ended (the app waits for it when closing). */
  settled(): Promise<void>;
}

export function createBackgroundTasks(logger: FastifyBaseLogger): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run: (what, task) => {
      const done = task()
        .catch((error: unknown) => logger.error({ err: error }, `${what} failed`))
        .finally(() => running.delete(done));
      running.add(done);
    },
    settled: async () => {
      await Promise.all([...running]);
    },
  };
}
