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
  // One internal back-office bundle (React, Mantine, zod); splitting it buys little on an office network.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1200 },
});
