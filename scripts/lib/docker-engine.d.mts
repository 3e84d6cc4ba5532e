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
  /** Skip DOCKER_HOST and /var/run/docker.sock: only the data folder's private engine. */
  privateOnly?: boolean;
  /** Called with the pid of a dockerd started here, as soon as it is spawned. */
  onSpawn?: (pid: number) => void;
}): Promise<DockerEngine>;
/** Where the private engine of a data folder lives (its bridge and exec-root are derived from it). */
export function privateEngine(dataDir: string): {
  root: string;
  rootHash: string;
  socketPath: string;
  dataRoot: string;
  execRoot: string;
  bridge: string;
};
export function removeStaleTestContainers(socketPath: string, olderThanMs?: number): Promise<number>;
