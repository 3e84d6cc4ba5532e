// Plumbing of the dockerode client: where the engine is, deadlines, stream helpers.
// Types only from dockerode; the runtime import stays in dockerode-container-client.ts.
import { Writable } from 'node:stream';
import type Docker from 'dockerode';
import { mapDockerError } from './docker-errors.js';

export function dockerConnection(dockerHost: string | undefined): {
  options: Docker.DockerOptions;
  label: string;
} {
  const host = dockerHost?.trim() || 'unix:///var/run/docker.sock';
  if (host.startsWith('unix://'))
    return { options: { socketPath: host.slice('unix://'.length) }, label: host };
  if (host.startsWith('/')) return { options: { socketPath: host }, label: `unix://${host}` };
  const url = new URL(host.replace(/^tcp:\/\//, 'http://'));
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return {
    options: { host: url.hostname, port: url.port || (protocol === 'https' ? 2376 : 2375), protocol },
    label: host,
  };
}

export function collector(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
}

/** Settles when a stream has ended or closed; rejects on its error unless `closing()` says we closed it. */
export function streamDone(stream: NodeJS.ReadableStream, closing: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.on('end', () => resolve());
    stream.on('close', () => resolve());
    stream.on('error', (err: unknown) => (closing() ? resolve() : reject(err)));
  });
}

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** Runs `fn` with a signal that aborts after `timeoutMs`; failures become AgentErrors. */
export async function withDeadline<T>(
  what: string,
  engine: string,
  timeoutMs: number,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    return await Promise.race([
      fn(controller.signal),
      // Some dockerode calls take no signal at all; the race still ends the wait.
      new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      ),
    ]);
  } catch (err) {
    throw mapDockerError(err, what, engine, timedOut);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens a stream under a deadline; the returned controller aborts it later. */
export async function openWithDeadline(
  what: string,
  engine: string,
  timeoutMs: number,
  open: (signal: AbortSignal) => Promise<NodeJS.ReadableStream>,
): Promise<{ stream: NodeJS.ReadableStream; controller: AbortController }> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    return { stream: await open(controller.signal), controller };
  } catch (err) {
    throw mapDockerError(err, what, engine, timedOut);
  } finally {
    clearTimeout(timer);
  }
}
