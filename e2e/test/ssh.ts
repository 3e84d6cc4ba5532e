import { Client } from 'ssh2';

/** Runs `command` over SSH with a password, retrying the connection while sshd comes up. */
export async function sshExec(opts: {
  host: string;
  port: number;
  password: string;
  command: string;
  timeoutMs?: number;
}): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return await once(opts);
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`ssh to ${opts.host}:${opts.port} failed: ${String(lastError)}`);
}

function once(opts: { host: string; port: number; password: string; command: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const conn = new Client();
    conn
      .on('ready', () => {
        conn.exec(opts.command, (err, stream) => {
          if (err) {
            conn.end();
            reject(err);
            return;
          }
          let out = '';
          stream.on('data', (d: Buffer) => {
            out += d.toString();
          });
          stream.stderr.on('data', (d: Buffer) => {
            out += d.toString();
          });
          stream.on('close', () => {
            conn.end();
            resolve(out);
          });
        });
      })
      .on('error', reject)
      .connect({
        host: opts.host,
        port: opts.port,
        username: 'root',
        password: opts.password,
        readyTimeout: 10_000,
        hostVerifier: () => true,
      });
  });
}
