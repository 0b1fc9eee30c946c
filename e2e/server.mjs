// Starts the built app for the e2e run on a fresh embedded database under e2e/.data.
import { rmSync, mkdirSync, chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dataDir = fileURLToPath(new URL('./.data', import.meta.url));
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
chmodSync(dataDir, 0o755);
process.env.DATA_DIR = dataDir;
await import('../apps/api/dist/server.js');
