// Errors → gRPC status. Only here does the agent know about status codes.
import * as grpc from '@grpc/grpc-js';
import { AgentError, type AgentErrorCode, errorMessage } from '../errors.js';

const STATUS: Record<AgentErrorCode, grpc.status> = {
  NOT_FOUND: grpc.status.NOT_FOUND,
  ALREADY_EXISTS: grpc.status.ALREADY_EXISTS,
  FAILED_PRECONDITION: grpc.status.FAILED_PRECONDITION,
  INVALID_ARGUMENT: grpc.status.INVALID_ARGUMENT,
  UNAVAILABLE: grpc.status.UNAVAILABLE,
  DEADLINE_EXCEEDED: grpc.status.DEADLINE_EXCEEDED,
  UNAUTHENTICATED: grpc.status.UNAUTHENTICATED,
  CANCELLED: grpc.status.CANCELLED,
  INTERNAL: grpc.status.INTERNAL,
};

export function toServiceError(err: unknown): Partial<grpc.StatusObject> {
  if (err instanceof AgentError) return { code: STATUS[err.code], details: err.message };
  return { code: grpc.status.INTERNAL, details: errorMessage(err) };
}

export function isInternal(err: unknown): boolean {
  return !(err instanceof AgentError) || err.code === 'INTERNAL';
}
