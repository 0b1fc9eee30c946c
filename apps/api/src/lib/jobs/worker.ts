import { run, type Runner, type TaskList } from 'graphile-worker';
import type { AppContext } from '../context.js';
import type { ResourceModule } from '../actions/module.js';
import { BATCH_TASK } from '../batch/batch-service.js';
import { batchRunTask, resumeStaleRuns } from '../batch/batch-worker.js';
import { closeIdleConnections, DELIVERY_DEADLINE_TIMEOUTS, deliverMailTask, markStalledMails } from '../mail/deliver.js';
import { MAIL_TASK } from '../mail/outbox.js';
import { workerLogger } from './queue.js';

export interface Workers {
  stop(): Promise<void>;
}

/**
 * The job workers of this process (DESIGN §10): graphile-worker over the app's pool (one runner for batch runs,
 * one for mail deliveries), plus the sweepers that take up batch runs whose worker died and mark mails whose
 * delivery was cut off. Any number of processes may run them against one database.
 */
export async function startWorkers(ctx: AppContext, modules: ReadonlyMap<string, ResourceModule>): Promise<Workers> {
  const { env } = ctx;
  const stopping = new AbortController();
  const runnerOf = (taskList: TaskList): Promise<Runner> =>
    run({ pgPool: ctx.db.$client, concurrency: env.WORKER_CONCURRENCY, noHandleSignals: true, pollInterval: 2000, logger: workerLogger(ctx.logger), taskList });
  // Two runners, each taking only the jobs of its own tasks: mail is delivered while batch runs fill every batch
  // slot (decision 062). One runner for both kept an invoice mail waiting 49 s behind a run of 2,000 invoices.
  const runners = await Promise.all([
    runnerOf({
      [BATCH_TASK]: batchRunTask(ctx, modules, {
        rowPauseMs: env.BATCH_ROW_PAUSE_MS,
        sliceMs: env.BATCH_SLICE_MS,
        heartbeatMs: Math.max(250, (env.BATCH_STALE_SECONDS * 1000) / 4),
        stopping: stopping.signal,
      }),
    }),
    runnerOf({ [MAIL_TASK]: deliverMailTask(ctx) }),
  ]);
  const sweep = () =>
    resumeStaleRuns(ctx, env.BATCH_STALE_SECONDS)
      .then((ids) => ids.length > 0 && ctx.logger.info({ runs: ids }, 'batch runs taken up again'))
      .catch((err: unknown) => ctx.logger.warn({ err }, 'batch sweep failed'));
  // A mail whose delivery began longer ago than a delivery may take (its deadline, DELIVERY_DEADLINE_TIMEOUTS waits,
  // and one wait more) died with its worker: it is `unknown`, never sent again by itself.
  const mailStallMs = env.MAIL_TIMEOUT_MS * (DELIVERY_DEADLINE_TIMEOUTS + 1);
  const sweepMails = () =>
    markStalledMails(ctx, mailStallMs)
      .then((ids) => ids.length > 0 && ctx.logger.warn({ outbox_ids: ids }, 'interrupted mail deliveries marked unknown'))
      .catch((err: unknown) => ctx.logger.warn({ err }, 'mail sweep failed'));
  void sweep();
  const sweeper = setInterval(sweep, Math.max(500, (env.BATCH_STALE_SECONDS * 1000) / 2));
  const mailSweeper = setInterval(sweepMails, Math.max(1000, mailStallMs / 2));
  return {
    async stop() {
      clearInterval(sweeper);
      clearInterval(mailSweeper);
      stopping.abort();
      await Promise.all(runners.map((runner) => runner.stop()));
      closeIdleConnections();
    },
  };
}
