import type { TestProject } from 'vitest/node';
import { startStack, type Stack } from './stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

let stack: Stack | undefined;

/** One stack for every e2e file: tests use fresh ids, so they never depend on each other. */
export async function setup(project: TestProject): Promise<void> {
  stack = await startStack();
  project.provide('baseUrl', stack.baseUrl);
}

export async function teardown(): Promise<void> {
  await stack?.stop();
}
