export interface DockerEngine {
  socketPath: string;
  dockerHost: string;
  private: boolean;
  stop(): Promise<void>;
}
export function pingDocker(socketPath: string, timeoutMs?: number): Promise<boolean>;
export function ensureDockerEngine(options: {
  dataDir: string;
  log?: (line: string) => void;
  allowPrivate?: boolean;
}): Promise<DockerEngine>;
export function removeStaleTestContainers(socketPath: string, olderThanMs?: number): Promise<number>;
