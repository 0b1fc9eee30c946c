import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/test/setup.ts'],
      restoreMocks: true,
      unstubGlobals: true,
      // For a test that hangs, not a speed check: CI's slowest machine ran tests five to six times slower than a
      // quick one (decision 057), and the slowest test here takes 3.7 s on a quick one.
      testTimeout: 60_000,
      // One test file per core (Vitest's default keeps one free): measured on 2 cores, 3m12s with 1, 2m23s with 2.
      maxWorkers: availableParallelism(),
    },
  }),
);
