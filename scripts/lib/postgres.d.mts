/** The fixed password of the test clusters (and of `npm start`'s before it had its own). */
export const TEST_PASSWORD: string;
/**
 * By default a test cluster (fsync and synchronous commits off, the fixed password); `durable`
 * (`npm start`) keeps PostgreSQL's crash safety and needs `password`, which replaces the fixed
 * one of a cluster made before.
 */
export function ensurePostgres(options: {
  dataDir: string;
  name?: string;
  port?: number;
  database?: string;
  fresh?: boolean;
  durable?: boolean;
  password?: string;
  log?: (line: string) => void;
}): Promise<{
  url: string;
  embedded: boolean;
  /** The cluster's folder (embedded only). */
  clusterDir?: string;
  /** The server's process id (embedded only). */
  pid?: number;
  stop(): Promise<void>;
}>;
