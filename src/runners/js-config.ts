/*
 * Where JavaScript runners read configuration or code that is not the code under test: files
 * the change may not touch (see docs/runner-configuration.md). Globs are repo-relative.
 */

import { TOOLCHAIN_FILES } from './toolchain-files.js';

/**
 * Read by node, npm/npx and every runner: a package folder inside the repo shadows an installed
 * one; npm config runs shells and sets node options; version files pick the node binary.
 */
export const JS_SHARED_CONFIG = ['**/node_modules/**', '**/.npmrc', '**/.yarnrc', '**/.yarnrc.yml', '**/.pnpmfile.cjs', ...TOOLCHAIN_FILES] as const;

const EXT = '{js,mjs,cjs,ts,mts,cts,json}';

/** vitest and vite: config files anywhere (a workspace member's count), PostCSS (loaded for CSS), common setup files. */
export const VITEST_CONFIG = [
  ...JS_SHARED_CONFIG,
  `**/vitest.config.${EXT}`,
  `**/vite.config.${EXT}`,
  `**/vitest.workspace.${EXT}`,
  `**/vitest.projects.${EXT}`,
  `**/postcss.config.${EXT}`,
  '**/.postcssrc*',
  `**/vitest.setup.${EXT}`,
  `**/setupTests.${EXT}`,
] as const;

/** jest: config files anywhere, babel (babel-jest transforms every test file), common setup files. */
export const JEST_CONFIG = [
  ...JS_SHARED_CONFIG,
  `**/jest.config.${EXT}`,
  `**/jest-preset.${EXT}`,
  `**/babel.config.${EXT}`,
  '**/.babelrc',
  `**/.babelrc.${EXT}`,
  `**/jest.setup.${EXT}`,
  `**/setupTests.${EXT}`,
] as const;

/**
 * mocha: its config files in any folder (`.mocharc.js`, `.cjs`, `.mjs`, `.json`, `.jsonc`,
 * `.yaml`, `.yml`; mocha reads the one in the working directory, a workspace member's count
 * too). The `mocha` key of package.json and the files a config loads (`require`, `file`, `ui`)
 * are protected by config-changes.ts.
 */
export const MOCHA_CONFIG = [...JS_SHARED_CONFIG, '**/.mocharc.{js,cjs,mjs,json,jsonc,yaml,yml}'] as const;

/** What mocha runs by default (`./test/*.{js,cjs,mjs}`, `--recursive` below it), and the usual `*.test`/`*.spec` names. */
export const MOCHA_TEST_FILES = ['test/**/*.?(c|m)[jt]s', '**/*.{test,spec}.?(c|m)[jt]s'] as const;

/** vitest's default `include`, and jest's default `testMatch`. */
export const VITEST_TEST_FILES = ['**/*.{test,spec}.?(c|m)[jt]s?(x)'] as const;
export const JEST_TEST_FILES = ['**/__tests__/**/*.?(c|m)[jt]s?(x)', '**/*.{test,spec}.?(c|m)[jt]s?(x)'] as const;

/** What `node --test <folder>` collects on Node 20. */
export const NODE_TEST_FILES = [
  '**/*.test.?(c|m)js',
  '**/*-test.?(c|m)js',
  '**/*_test.?(c|m)js',
  '**/test-*.?(c|m)js',
  '**/test.?(c|m)js',
  '**/test/**/*.?(c|m)js',
] as const;
