import type { Command } from 'commander';
import { COVE_VERSION } from '../../version.js';
import { intFlag } from '../db-source.js';

interface WorkerFlags {
  queue: string;
  concurrency: string;
  run?: string;
  queuePrefix: string;
  stallMs: string;
}

/** `cove worker`: runs the episodes of distributed runs (docs/distributed.md). */
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('run episodes of `cove generate --queue` runs (every run registered on the queue, or one)')
    .requiredOption('--queue <url>', 'Redis of the queue (redis://host:port)')
    .option('--concurrency <n>', 'episodes at once per run', '16')
    .option('--run <id>', 'serve only this run (default: every registered run)')
    .option('--queue-prefix <name>', 'key prefix of the queues and the run registry', 'cove')
    .option(
      '--stall-ms <ms>',
      "a job's lock time: a worker that dies loses its jobs to the others after about this long",
      '30000',
    )
    .action(async (flags: WorkerFlags) => {
      // loaded here: BullMQ, ioredis and pg are not needed by any other command
      const { checkRedis, redactUrl, redisConnection } = await import('../../queue/connection.js');
      const { CoveWorker } = await import('../../queue/worker.js');
      const concurrency = intFlag('--concurrency', flags.concurrency, 16, 1, 4096);
      const stallMs = intFlag('--stall-ms', flags.stallMs, 30_000, 500, 3_600_000);
      const probe = redisConnection(flags.queue);
      try {
        await checkRedis(probe, flags.queue);
      } finally {
        probe.disconnect();
      }
      const log = (message: string) => process.stderr.write(`cove worker: ${message}\n`);
      const worker = new CoveWorker({
        queueUrl: flags.queue,
        prefix: flags.queuePrefix,
        concurrency,
        ...(flags.run === undefined ? {} : { run: flags.run }),
        coveVersion: COVE_VERSION,
        env: process.env,
        stallMs,
        log,
      });
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) {
          log(`${signal} again: leaving the episodes in hand to the other workers`);
          worker.close(true).finally(() => process.exit(143));
          return;
        }
        stopping = true;
        log(`${signal}: finishing the episodes in hand, then exiting (${signal} again to leave them)`);
        worker.close().then(
          () => {
            log(`stopped after ${worker.completed} episode(s)`);
            process.exit(0);
          },
          (e) => {
            log(`stopping failed: ${(e as Error).message}`);
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', () => stop('SIGTERM'));
      process.on('SIGINT', () => stop('SIGINT'));
      try {
        await worker.start();
      } catch (e) {
        await worker.close(true);
        throw e;
      }
      log(`ready on ${redactUrl(flags.queue)} (concurrency ${concurrency})`);
      await new Promise<never>(() => {}); // runs until a signal
    });
}
