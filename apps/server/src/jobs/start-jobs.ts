import type { Database } from '@covenant/db';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { JobDefinition } from './job-definition.js';

export interface JobQueue {
  send<Data extends object>(job: JobDefinition<Data>, data: Data): Promise<void>;
  /** Stops taking jobs, lets running ones finish (up to a timeout) and closes the connections. */
  stop(): Promise<void>;
}

export interface StartJobsOptions {
  database: Pick<Database, 'connectionString' | 'sharedConnectionOnly' | 'executeSql' | 'exclusively'>;
  logger: FastifyBaseLogger;
  jobs: JobDefinition[];
  pollingIntervalSeconds?: number;
}

/** Starts the pg-boss job queue on the application database and a worker for every job definition. */
export async function startJobs(options: StartJobsOptions): Promise<JobQueue> {
  const { database } = options;
  const boss = new PgBoss(
    database.sharedConnectionOnly
      ? { db: { executeSql: database.executeSql } }
      : { connectionString: database.connectionString, application_name: 'covenant-jobs', max: 4 },
  );
  boss.on('error', (error) => options.logger.error({ err: error }, 'job queue error'));
  await boss.start();
  // Creating a queue is DDL (pg-boss adds a table partition); replicas starting together would
  // deadlock on it, so they take turns across processes.
  await database.exclusively('job-queues', async () => {
    for (const job of options.jobs) {
      await boss.createQueue(job.name, { name: job.name, ...retryOptionsOf(job) });
      // A schedule without data sends jobs whose data is null, which no payload schema accepts: every
      // scheduled run would fail. The empty object is what a scheduled job's payload is.
      if (job.cron) await boss.schedule(job.name, job.cron, {});
    }
  });
  for (const job of options.jobs) {
    await boss.work(
      job.name,
      { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
      async ([received]) => {
        if (!received) return;
        const data = job.payload.parse(received.data);
        options.logger.debug({ job: job.name, id: received.id }, 'working job');
        await job.handle(data);
      },
    );
  }
  return {
    send: async (job, data) => {
      await boss.send(job.name, job.payload.parse(data), retryOptionsOf(job));
    },
    stop: () => boss.stop({ graceful: true, timeout: 10_000 }),
  };
}

function retryOptionsOf(job: JobDefinition): PgBoss.RetryOptions {
  if (!job.retry) return {};
  return { retryLimit: job.retry.limit, retryDelay: job.retry.delaySeconds, retryBackoff: job.retry.backoff };
}
