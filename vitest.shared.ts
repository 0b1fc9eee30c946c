import { fileURLToPath } from 'node:url';

/**
 * Workspace packages resolved to their TypeScript sources in tests, so no build is needed first.
 * (The `source` export condition does the same for tsx and tsc; Vitest's global setup ignores it.)
 */
export const sourceAliases = {
  '@app/contracts': fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url)),
  '@app/db': fileURLToPath(new URL('./packages/db/src/index.ts', import.meta.url)),
};
