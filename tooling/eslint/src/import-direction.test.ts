import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The repository's eslint.config.js run on source text placed in the real folders. Both rules judge resolved paths
 * and pass an import they cannot resolve, so these cases also prove the resolver finds `.js`-suffixed TypeScript
 * sources and workspace packages.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function problems(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}

const restricted = (reason: string) => ({ ruleId: 'import-x/no-restricted-paths', message: expect.stringContaining(reason) });

describe('import direction (CONVENTIONS.md)', () => {
  it('a package importing an app fails lint', async () => {
    expect(await problems('packages/db/src/x.ts', `export { createApp } from '@app/api';\n`)).toEqual([
      restricted('Packages never import apps.'),
    ]);
  });

  it('contracts importing the database fails lint', async () => {
    expect(await problems('packages/contracts/src/x.ts', `export { users } from '@app/db';\n`)).toEqual([
      restricted('Contracts are shared with the web: they never import the database.'),
    ]);
  });

  it('the web importing the database fails lint', async () => {
    expect(await problems('apps/web/src/x.ts', `export { users } from '@app/db';\n`)).toEqual([restricted('The web never imports packages/db.')]);
  });

  it('the web importing the api fails lint', async () => {
    expect(await problems('apps/web/src/x.ts', `export { createApp } from '../../api/src/app.js';\n`)).toEqual([
      restricted('Apps never import each other'),
    ]);
  });

  it('an e2e journey importing the database fails lint', async () => {
    expect(await problems('e2e/tests/x.ts', `export { users } from '@app/db';\n`)).toEqual([restricted('e2e drives the app from outside: it may import @app/contracts only.')]);
  });

  it('an api lib file importing a resource fails lint', async () => {
    expect(await problems('apps/api/src/lib/x.ts', `export { studentRouter } from '../resources/student/student.router.js';\n`)).toEqual([
      restricted('lib is generic: resources build on it, never the reverse.'),
    ]);
  });

  it("an api resource importing another resource's internals fails lint", async () => {
    expect(await problems('apps/api/src/resources/contract/x.ts', `export { studentRouter } from '../student/student.router.js';\n`)).toEqual([
      restricted("Resources never import each other's internals: move what they share to lib."),
    ]);
  });

  it('a web lib file importing machinery fails lint', async () => {
    expect(await problems('apps/web/src/lib/x.ts', `export { useOverview } from '../machinery/overview/use-overview';\n`)).toEqual([
      restricted('lib never imports machinery, resources or the app.'),
    ]);
  });

  it('web machinery importing a resource fails lint', async () => {
    expect(await problems('apps/web/src/machinery/x.ts', `export { studentUi } from '../resources/student/student.ui';\n`)).toEqual([
      restricted('machinery never imports resources or the app.'),
    ]);
  });

  it('a web resource importing another resource fails lint', async () => {
    expect(await problems('apps/web/src/resources/contract/x.ts', `export { studentUi } from '../student/student.ui';\n`)).toEqual([
      restricted("Resources never import each other's internals; only resources/registry.ts gathers them."),
    ]);
  });

  it('a web resource importing machinery, lib, contracts and its own folder passes lint', async () => {
    const code = [
      `export { useOverview } from '../../machinery/overview/use-overview';`,
      `export { formatValue } from '../../lib/format';`,
      `export { studentResource } from '@app/contracts';`,
      `export { studentFields } from './student.fields';`,
      '',
    ].join('\n');
    expect(await problems('apps/web/src/resources/student/x.ts', code)).toEqual([]);
  });
});

describe('import cycles', () => {
  it('columns.ts importing auth.ts again (auth.ts imports columns.ts) fails lint', async () => {
    expect(await problems('packages/db/src/schema/columns.ts', `export { users } from './auth.js';\n`)).toEqual([
      { ruleId: 'import-x/no-cycle', message: 'Dependency cycle detected' },
    ]);
  });
});
