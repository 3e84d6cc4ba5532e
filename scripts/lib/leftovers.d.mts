export function recordPid(dataDir: string, name: string, pid: number): void;
export function forgetPid(dataDir: string, name: string): void;
export function recordedPid(dataDir: string, name: string): number | undefined;
export function readPid(file: string): number | undefined;
export function processArgs(pid: number): string[] | undefined;
export function stopLeftover(options: {
  label: string;
  pids: (number | undefined)[];
  matches: (args: string[]) => boolean;
  signal: NodeJS.Signals;
  timeoutMs?: number;
  log: (line: string) => void;
}): Promise<number | undefined>;
