import { defineConfig } from 'vitest/config';

// One project per test level, chosen by file name: *.unit.test.ts, *.int.test.ts, *.e2e.test.ts.
// The levels run one after another (sequence.groupOrder), never at once: each level loads the two
// cores fully, and an e2e stack competing with integration tests for CPU answers slowly (creates
// answer 202, which tests accept but which slows every file). The e2e stack itself starts before the
// first level, in globalSetup.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['**/*.unit.test.ts'],
          exclude: ['**/node_modules/**'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'int',
          include: ['**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['**/*.e2e.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
