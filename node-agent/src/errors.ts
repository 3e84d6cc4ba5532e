/**
 * Domain errors of the agent. The rpc layer maps `code` to a gRPC status; everything below
 * it throws AgentError with a message an operator (or the console, via the control plane)
 * can show as is.
 */
export type AgentErrorCode =
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'FAILED_PRECONDITION'
  | 'INVALID_ARGUMENT'
  | 'UNAVAILABLE'
  | 'DEADLINE_EXCEEDED'
  | 'UNAUTHENTICATED'
  | 'CANCELLED'
  | 'INTERNAL';

export class AgentError extends Error {
  readonly code: AgentErrorCode;

  constructor(code: AgentErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentError';
    this.code = code;
  }
}

export const notFound = (message: string) => new AgentError('NOT_FOUND', message);
export const invalidArgument = (message: string) => new AgentError('INVALID_ARGUMENT', message);
export const failedPrecondition = (message: string, cause?: unknown) =>
  new AgentError('FAILED_PRECONDITION', message, { cause });

/** The message of anything thrown, for logs and error texts. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
