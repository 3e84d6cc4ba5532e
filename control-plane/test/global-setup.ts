import type { TestProject } from 'vitest/node';
import { provideTestServices } from '../../scripts/lib/test-services.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    dockerHost: string;
    testImage: string;
    toolboxDir: string;
  }
}

/** Real PostgreSQL and a real Docker engine for every control-plane test; nothing is skipped. */
export default function setup(project: TestProject) {
  return provideTestServices(project as unknown as { provide(key: string, value: unknown): void }, {
    postgres: true,
    pgName: 'pg-test-control-plane',
    pgPort: 5441,
  });
}
