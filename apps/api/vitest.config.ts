import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.js';

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core. Vitest's default keeps a core free (1 file at a time on CI's 2 cores), but a file
    // here waits on PostgreSQL and SMTP much of the time: measured on 2 cores, 6m07s with 1 worker, 4m04s with 2.
    maxWorkers: availableParallelism(),
  },
});
