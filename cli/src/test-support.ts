// Stand-ins for the process (streams, programs, signals) and a small HTTP server playing the API,
// for the unit tests. Not part of the bundle (main.ts does not import it).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { run } from './cli.js';
import type { CliDeps, ProgramRun } from './context.js';

export class Capture {
  text = '';
  constructor(readonly isTTY = false) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

export interface Invocation {
  code: number;
  stdout: string;
  stderr: string;
  programs: ProgramRun[];
  /** setRawMode calls on a terminal stdin, in order. */
  rawModes: boolean[];
}

export interface FakeProcess {
  env: Record<string, string | undefined>;
  homeDir: string;
  /** Exit statuses the fake programs give, in order (0 when none is left). */
  programExits?: number[];
  /** Lines on standard input. */
  stdin?: string;
  /** Standard input is a terminal (raw mode is recorded in `rawModes`). */
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
}

/** Runs the CLI in this process with stand-ins; what it wrote and ran comes back. */
export async function invoke(argv: string[], p: FakeProcess): Promise<Invocation> {
  const stdout = new Capture(p.stdoutIsTTY);
  const stderr = new Capture();
  const programs: ProgramRun[] = [];
  const exits = [...(p.programExits ?? [])];
  const stdin = Readable.from(p.stdin === undefined ? [] : [p.stdin]) as CliDeps['stdin'];
  const rawModes: boolean[] = [];
  if (p.stdinIsTTY) {
    stdin.isTTY = true;
    stdin.setRawMode = (mode: boolean) => rawModes.push(mode);
  }
  const deps: CliDeps = {
    env: p.env,
    homeDir: p.homeDir,
    sshDir: `${p.homeDir}/.ssh`,
    stdin,
    stdout,
    stderr,
    runProgram: async (r) => {
      programs.push(r);
      return exits.shift() ?? 0;
    },
    onInterrupt: () => () => {},
  };
  const code = await run(argv, deps);
  return { code, stdout: stdout.text, stderr: stderr.text, programs, rawModes };
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

type Handler = (req: RecordedRequest) => { status?: number; body: unknown } | undefined;

/** An HTTP server answering `METHOD /path` from a table (404 `{detail, code}` otherwise). */
export async function fakeApi(routes: Record<string, Handler | { status?: number; body: unknown }>) {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://x');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: raw ? JSON.parse(raw) : undefined,
    };
    requests.push(recorded);
    const route = routes[`${recorded.method} ${recorded.path}`];
    const answer = typeof route === 'function' ? route(recorded) : route;
    const { status, body } = answer ?? { status: 404, body: { detail: '接口不存在', code: 'NOT_FOUND' } };
    res.writeHead(status ?? 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
