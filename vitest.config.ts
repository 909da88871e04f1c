import { defineConfig } from 'vitest/config';

// One project per test level, chosen by file name: *.unit.test.ts, *.int.test.ts, *.e2e.test.ts.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['**/*.unit.test.ts'], exclude: ['**/node_modules/**'] } },
      {
        test: {
          name: 'int',
          include: ['**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
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
        },
      },
    ],
  },
});
