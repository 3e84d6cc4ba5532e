/**
 * What the benches that start a platform share: the platform's log kept quiet (printed when a
 * bench breaks) and a small client of the HTTP API (the vitest-bound test harness cannot be
 * imported outside vitest).
 */

/** The platform's last log lines, kept quiet and printed when a bench breaks. */
export class PlatformLog {
  readonly lines: string[] = [];

  constructor(private readonly keep = 200) {}

  /** Keeps a line (drops the oldest past `keep`). */
  readonly add = (line: string): void => {
    this.lines.push(line);
    if (this.lines.length > this.keep) this.lines.shift();
  };

  /** The control plane's logger signature: a message and an optional error. */
  readonly controlPlane = (message: string, err?: unknown): void =>
    this.add(err === undefined ? message : `${message}: ${String(err)}`);
}

export const setupLog = (line: string) => console.error(`[setup] ${line}`);

export class Api {
  token: string | undefined;

  constructor(readonly baseUrl: string) {}

  async call<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
    const res = await fetch(this.baseUrl + apiPath, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${apiPath}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
