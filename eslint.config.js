// Type-aware lint for the whole monorepo. `libs/domain` stays pure: no I/O imports.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ioModules = [
  'express',
  'pg',
  'bullmq',
  'ioredis',
  '@eventstore/db-client',
  'pino',
  'pino-http',
  'jsonwebtoken',
  'cookie-parser',
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '.data/**', 'coverage/**', 'apps/web/dist/**', 'test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // One import per module (a type-only one beside it is fine): moves that rewrite paths leave twins.
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
    },
  },
  {
    files: ['libs/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ioModules.map((name) => ({ name, message: 'libs/domain is pure: no I/O imports.' })),
          patterns: [
            {
              group: ['node:*', 'fs', 'net', 'http', 'https', 'child_process'],
              message: 'libs/domain is pure: no Node I/O.',
            },
            {
              group: ['@aws-sdk/*', '@portal/*'],
              message: 'libs/domain imports nothing with I/O and no other workspace.',
            },
          ],
        },
      ],
    },
  },
  {
    // One router factory, so every API path is matched case-sensitively (docs/decisions.md, "HTTP").
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/http/routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='Router']",
          message: 'Use apiRouter() from apps/api/src/http/routes.ts: API paths are case-sensitive.',
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
