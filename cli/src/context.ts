import { ApiClient } from './api-client.js';
import { configDir, configFile, readLogin, resolveLogin } from './config.js';
import type { Lang, Messages } from './i18n.js';
import type { OutputStream } from './output.js';

export interface InputStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** A program the CLI hands the terminal to (ssh, scp, sshpass). */
export interface ProgramRun {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  /** Nothing on the terminal (the SSH key probe): stdin, stdout and stderr go nowhere. */
  quiet?: boolean;
}

/** What the CLI reads from and acts on: the process's in main.ts, stand-ins in tests. */
export interface CliDeps {
  env: Record<string, string | undefined>;
  /** $HOME: where the saved login lives (~/.config/gpucloud). */
  homeDir: string;
  /**
   * The folder ssh takes the user's keys from: ~/.ssh of the account's home in the password
   * database, which is where OpenSSH looks whatever $HOME says.
   */
  sshDir: string;
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
  /** Runs a program and resolves to its exit status (128 + signal number when killed). */
  runProgram(run: ProgramRun): Promise<number>;
  /** Calls `handler` on Ctrl-C (SIGINT) or SIGTERM instead of exiting; returns the undo. */
  onInterrupt(handler: () => void): () => void;
}

export interface CliContext extends CliDeps {
  lang: Lang;
  msg: Messages;
  /** --json: output for scripts. */
  json: boolean;
  /** The folder of config.json (and the SSH known_hosts of the containers). */
  configDir: string;
  /** The API as the saved login (or GPUCLOUD_URL / GPUCLOUD_API_KEY) reaches it. */
  api(): ApiClient;
}

export function createContext(deps: CliDeps, lang: Lang, msg: Messages, json: boolean): CliContext {
  const dir = configDir(deps.env, deps.homeDir);
  let client: ApiClient | undefined;
  return {
    ...deps,
    lang,
    msg,
    json,
    configDir: dir,
    api() {
      if (!client) {
        const login = resolveLogin(deps.env, readLogin(configFile(dir), msg), msg);
        client = new ApiClient(login.url, login.api_key, msg);
      }
      return client;
    },
  };
}
