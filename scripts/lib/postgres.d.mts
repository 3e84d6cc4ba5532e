export function ensurePostgres(options: {
  dataDir: string;
  name?: string;
  port?: number;
  database?: string;
  fresh?: boolean;
  log?: (line: string) => void;
}): Promise<{ url: string; embedded: boolean; stop(): Promise<void> }>;
