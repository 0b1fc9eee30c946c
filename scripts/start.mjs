// `pnpm start`: build what is missing or stale (turbo skips what is up to date), then run the server.
// The server starts the embedded PostgreSQL itself unless DATABASE_URL is set.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const build = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.error('The build failed; see above.');
  process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ['--enable-source-maps', 'apps/api/dist/server.js'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});

// Ctrl-C reaches the server through the terminal's process group; SIGTERM sent to us alone is passed on. pnpm
// passes its own SIGTERM on to us: the script `exec`s node, as a shell in between would not pass it on.
// Either way we wait for the server to stop PostgreSQL and exit.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => server.kill('SIGTERM'));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// pnpm itself killed outright (SIGKILL: nothing is passed on): stop the server too.
const parent = process.ppid;
const watch = setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    clearInterval(watch);
    server.kill('SIGTERM');
  }
}, 1000);
watch.unref();
