/** The backups in backupDir (gpucloud-YYYYMMDD-HHMMSS.tar.gz), oldest first. */
export function listBackups(backupDir: string): Promise<string[]>;
/** One physical backup of the running cluster in clusterDir; returns the file's path. */
export function backupCluster(options: {
  databaseUrl: string;
  clusterDir: string;
  backupDir: string;
  now?: Date;
}): Promise<string>;
/** Deletes all but the newest `keep` backups; returns the deleted paths. */
export function pruneBackups(backupDir: string, keep?: number): Promise<string[]>;
/** A backup now when the newest is older than intervalMs, then one every intervalMs. */
export function scheduleBackups(options: {
  databaseUrl: string;
  clusterDir: string;
  backupDir: string;
  intervalMs?: number;
  keep?: number;
  log?: (line: string) => void;
}): { stop(): Promise<void> };
