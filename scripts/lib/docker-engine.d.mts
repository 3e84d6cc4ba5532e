export interface DockerEngine {
  socketPath: string;
  dockerHost: string;
  private: boolean;
  /** Started by this call (a private dockerd): stop() stops it. An engine found running is left alone. */
  started: boolean;
  stop(): Promise<void>;
}
export function pingDocker(socketPath: string, timeoutMs?: number): Promise<boolean>;
export function ensureDockerEngine(options: {
  dataDir: string;
  log?: (line: string) => void;
  allowPrivate?: boolean;
}): Promise<DockerEngine>;
export function removeStaleTestContainers(socketPath: string, olderThanMs?: number): Promise<number>;
