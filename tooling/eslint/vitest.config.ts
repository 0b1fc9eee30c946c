import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Loading the config and parsing the import graph behind a case takes seconds on a busy machine.
  test: { include: ['src/**/*.test.ts'], testTimeout: 30_000 },
});
