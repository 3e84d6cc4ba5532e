import * as grpc from '@grpc/grpc-js';
import { AppError, internalError } from '../framework/errors.js';
import { AgentCallError } from './agent-client.js';

/**
 * A call whose outcome the control plane does not know: the node may have done all of it, some
 * or none (no answer in time, the connection lost, the call cancelled). Only the node's later
 * report says; an answer (a refusal, NOT_FOUND) means it did nothing or rolled back.
 */
export function outcomeUnknown(err: unknown): boolean {
  return (
    err instanceof AgentCallError &&
    (err.code === grpc.status.DEADLINE_EXCEEDED ||
      err.code === grpc.status.UNAVAILABLE ||
      err.code === grpc.status.CANCELLED ||
      err.code === grpc.status.UNKNOWN)
  );
}

/**
 * Turns a failed agent call into what the user sees. The detail says what went wrong on the
 * node; the console puts the failed action in front (启动容器失败：…). `action` is the detail
 * when nothing more specific is known.
 */
export function agentError(err: unknown, action: string): AppError {
  if (err instanceof AppError) return err;
  // Not the node's answer (a database error, a bug): a 500 that keeps its cause for the log.
  if (!(err instanceof AgentCallError)) return internalError(err);
  const said = err.details.trim();
  const cause = { cause: err };
  switch (err.code) {
    case grpc.status.UNAVAILABLE:
    case grpc.status.DEADLINE_EXCEEDED:
      return new AppError(503, 'NODE_UNREACHABLE', '无法连接节点，请稍后重试', cause);
    case grpc.status.UNAUTHENTICATED:
      return new AppError(502, 'NODE_TOKEN_REJECTED', '节点拒绝了控制面的令牌', cause);
    case grpc.status.NOT_FOUND:
      return new AppError(404, 'NOT_FOUND_ON_NODE', said || '节点上不存在该资源', cause);
    case grpc.status.INVALID_ARGUMENT:
      return new AppError(400, 'REJECTED_BY_NODE', said || action, cause);
    case grpc.status.FAILED_PRECONDITION:
    case grpc.status.ALREADY_EXISTS:
      return new AppError(409, 'REJECTED_BY_NODE', said || action, cause);
    default:
      return new AppError(502, 'NODE_ERROR', said || action, cause);
  }
}
