import type { TestProject } from 'vitest/node';
import { startStack, type Stack } from './stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The stack's database, for the few tests that must write what no request can (old stored data). */
    databaseUrl: string;
  }
}

let stack: Stack | undefined;

/** One stack for every e2e file: tests use fresh ids, so they never depend on each other. */
export async function setup(project: TestProject): Promise<void> {
  stack = await startStack();
  project.provide('baseUrl', stack.baseUrl);
  project.provide('databaseUrl', stack.databaseUrl);
}

export async function teardown(): Promise<void> {
  await stack?.stop();
}
