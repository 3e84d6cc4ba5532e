import * as grpc from '@grpc/grpc-js';
import { AppError } from '../framework/errors.js';
import { AgentCallError } from './agent-client.js';

/**
 * Turns a failed agent call into what the user sees. The detail says what went wrong on the
 * node; the console puts the failed action in front (启动容器失败：…). `action` is the detail
 * when nothing more specific is known.
 */
export function agentError(err: unknown, action: string): AppError {
  if (!(err instanceof AgentCallError))
    return err instanceof AppError ? err : new AppError(500, 'INTERNAL', action);
  const said = err.details.trim();
  switch (err.code) {
    case grpc.status.UNAVAILABLE:
    case grpc.status.DEADLINE_EXCEEDED:
      return new AppError(503, 'NODE_UNREACHABLE', '无法连接节点，请稍后重试');
    case grpc.status.UNAUTHENTICATED:
      return new AppError(502, 'NODE_TOKEN_REJECTED', '节点拒绝了控制面的令牌');
    case grpc.status.NOT_FOUND:
      return new AppError(404, 'NOT_FOUND_ON_NODE', said || '节点上不存在该资源');
    case grpc.status.INVALID_ARGUMENT:
      return new AppError(400, 'REJECTED_BY_NODE', said || action);
    case grpc.status.FAILED_PRECONDITION:
    case grpc.status.ALREADY_EXISTS:
      return new AppError(409, 'REJECTED_BY_NODE', said || action);
    default:
      return new AppError(502, 'NODE_ERROR', said || action);
  }
}
