import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiPort = process.env.API_PORT ?? '3001';

export default defineConfig({
  plugins: [react()],
  // `source` makes workspace packages (@app/contracts) resolve to their TypeScript sources: no build step first.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  server: {
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}` } },
  },
  // No source maps: they would publish the whole source (issue 11). Hashed assets are precompressed after the
  // build (scripts/precompress.mjs).
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1200 },
});
