import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.js';

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    setupFiles: ['src/test/setup-file.ts'],
    // Timeouts catch a test that hangs; they are not speed checks (the bench measures speed). CI's machines differ:
    // the slowest yet ran the scale tests 5–6 times slower than a quick one, two files at a time — a 4 s test took
    // over 20 s there, and seeding 10,500 contracts with their invoices and payments 49 s (stop 37).
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // The files of a worker share its process and modules: importing the app anew for each file took more time
    // than its tests (import 179 s of 330 s, against 38 s of 230 s shared; decision 058). Each file still has its
    // own database; what a module keeps is kept per database (the batch previews) or in the database itself.
    isolate: false,
    // One test file per core. Vitest's default keeps a core free (1 file at a time on CI's 2 cores), but a file
    // here waits on PostgreSQL and SMTP much of the time: measured on 2 cores, 6m07s with 1 worker, 4m04s with 2.
    maxWorkers: availableParallelism(),
  },
});
