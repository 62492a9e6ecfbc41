import type { z } from 'zod';

/** A kind of background job: its queue name, the shape of its payload and what working it does. */
export interface JobDefinition<Data extends object = object> {
  name: string;
  payload: z.ZodType<Data>;
  /** A cron expression (UTC) when the job also runs on a schedule. */
  cron?: string;
  /** Retries after a handler throws: up to `limit` more runs, `delaySeconds` apart, doubling with `backoff`. */
  retry?: { limit: number; delaySeconds: number; backoff: boolean };
  /** Must be idempotent: a job whose handler throws is retried, and a crash may run it twice. */
  handle(data: Data): Promise<void>;
}
