import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const root = import.meta.dirname;

/**
 * Workspace packages resolve to their TypeScript source (as in vitest.shared.ts) from any file, whether its package
 * declares them or not: a wrong-direction import is then judged by where it lands instead of passing as unresolved.
 */
const workspaceSources = {
  '@app/api': [path.join(root, 'apps/api/src/app.ts')],
  '@app/contracts': [path.join(root, 'packages/contracts/src/index.ts')],
  '@app/db': [path.join(root, 'packages/db/src/index.ts')],
};

/** One zone per folder in `dir`: each imports from its own folder only, never from a sibling or what gathers them. */
const ownFolderOnly = (dir, message) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => ({ target: `${dir}/${name}`, from: dir, except: [`./${name}`], message }));

/** The import direction of CONVENTIONS.md: resources → machinery → lib, apps → packages. */
const zones = [
  ...ownFolderOnly('apps', 'Apps never import each other; what they share lives in packages.'),
  { target: 'packages', from: 'apps', message: 'Packages never import apps.' },
  { target: 'packages/contracts', from: 'packages/db', message: 'Contracts are shared with the web: they never import the database.' },
  { target: 'apps/web', from: 'packages/db', message: 'The web never imports packages/db.' },
  { target: 'e2e', from: 'packages', except: ['./contracts'], message: 'e2e drives the app from outside: it may import @app/contracts only.' },
  // server.mjs starts the built server: that runs the app rather than importing its code.
  { target: 'e2e', from: 'apps', except: ['./api/dist/server.js'], message: 'e2e drives the app from outside: it may import @app/contracts only.' },
  { target: 'apps/api/src/lib', from: 'apps/api/src/resources', message: 'lib is generic: resources build on it, never the reverse.' },
  ...ownFolderOnly('apps/api/src/resources', "Resources never import each other's internals: move what they share to lib."),
  {
    target: 'apps/web/src/lib',
    from: ['apps/web/src/machinery', 'apps/web/src/resources', 'apps/web/src/app'],
    message: 'Imports flow resources → machinery → lib: lib never imports machinery, resources or the app.',
  },
  {
    target: 'apps/web/src/machinery',
    from: ['apps/web/src/resources', 'apps/web/src/app'],
    message: 'Imports flow resources → machinery → lib: machinery never imports resources or the app.',
  },
  { target: 'apps/web/src/resources', from: 'apps/web/src/app', message: 'Resources never import the app shell; resources/registry.ts hands them to it.' },
  ...ownFolderOnly('apps/web/src/resources', "Resources never import each other's internals; only resources/registry.ts gathers them."),
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/migrations/**', '**/test-results/**', '**/playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          // NodeNext sources import `./x.js` for `./x.ts`.
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
          alias: workspaceSources,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
      // Type-only imports are erased, so they cannot form a cycle at run time and are not followed.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // process.env is read in one place only (apps/api/src/env.ts), so configuration is validated once.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/env.ts', 'apps/api/src/**/*.test.ts', 'apps/api/src/test/**'],
    rules: { 'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through env.ts' }] },
  },
);
