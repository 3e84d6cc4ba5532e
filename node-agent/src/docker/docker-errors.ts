// Turns what docker-modem throws into AgentErrors with messages an operator understands.
import { AgentError, errorMessage } from '../errors.js';

interface DockerErrorShape {
  statusCode?: number;
  code?: string;
  name?: string;
  json?: unknown;
  reason?: string;
}

function shape(err: unknown): DockerErrorShape {
  return typeof err === 'object' && err !== null ? (err as DockerErrorShape) : {};
}

export function dockerStatus(err: unknown): number | undefined {
  const status = shape(err).statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** Docker's own message ({"message": "..."} body) when there is one. */
export function dockerMessage(err: unknown): string {
  const json = shape(err).json;
  if (typeof json === 'object' && json !== null && 'message' in json && typeof json.message === 'string') {
    return json.message;
  }
  if (typeof json === 'string' && json.trim()) return json.trim();
  return errorMessage(err);
}

const CONNECTION_CODES = new Set([
  'ENOENT',
  'ECONNREFUSED',
  'EACCES',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'ETIMEDOUT',
]);

export function isConnectionError(err: unknown): boolean {
  const code = shape(err).code;
  return typeof code === 'string' && CONNECTION_CODES.has(code);
}

export function engineUnavailable(dockerHost: string, err: unknown): AgentError {
  return new AgentError(
    'UNAVAILABLE',
    `节点的 Docker 服务不可用 (Docker engine at ${dockerHost} is unreachable: ${errorMessage(err)})`,
    { cause: err },
  );
}

/**
 * Maps a failed Docker call. `what` names the operation for the message
 * ("start container gpucloud-abc"). `timedOut` tells a deadline from other aborts.
 */
export function mapDockerError(
  err: unknown,
  what: string,
  dockerHost: string,
  timedOut: boolean,
): AgentError {
  if (err instanceof AgentError) return err;
  if (timedOut) {
    return new AgentError('DEADLINE_EXCEEDED', `Docker did not answer in time: ${what}`, { cause: err });
  }
  if (isConnectionError(err)) return engineUnavailable(dockerHost, err);
  const status = dockerStatus(err);
  const message = `${what}: ${dockerMessage(err)}`;
  switch (status) {
    case 400:
      return new AgentError('INVALID_ARGUMENT', message, { cause: err });
    case 404:
      return new AgentError('NOT_FOUND', message, { cause: err });
    case 409:
      return new AgentError('FAILED_PRECONDITION', message, { cause: err });
    case undefined:
      if (shape(err).name === 'AbortError')
        return new AgentError('CANCELLED', `${what}: cancelled`, { cause: err });
      return new AgentError('INTERNAL', message, { cause: err });
    default:
      return new AgentError('INTERNAL', message, { cause: err });
  }
}
