export function provideTestServices(
  project: { provide(key: string, value: unknown): void },
  options?: { postgres?: boolean; pgName?: string; pgPort?: number },
): Promise<() => Promise<void>>;
export function testToolboxDir(): string;
