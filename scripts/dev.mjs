// `pnpm dev`: the API in watch mode (tsx, restarts on change) and the Vite dev server with hot
// reload, which proxies /api to the API. Open the URL Vite prints.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const apiPort = process.env.API_PORT ?? '3001';

const children = [
  spawn('pnpm', ['--filter', '@app/api', 'run', 'dev'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort },
  }),
  spawn('pnpm', ['--filter', '@app/web', 'run', 'dev'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, API_PORT: apiPort },
  }),
];

let exiting = false;
const stopAll = (signal) => {
  if (exiting) return;
  exiting = true;
  for (const child of children) if (child.exitCode === null) child.kill(signal);
};
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
let remaining = children.length;
for (const child of children) {
  child.on('exit', (code) => {
    stopAll('SIGTERM');
    if (--remaining === 0) process.exit(code ?? 0);
  });
}
