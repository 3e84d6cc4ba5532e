import * as grpc from '@grpc/grpc-js';
import { AgentCallError } from '../../agents/agent-client.js';
import { AppError } from '../../framework/errors.js';

/** Turns a failed agent call into what the user sees; `action` names what failed (创建容器失败). */
export function agentError(err: unknown, action: string): AppError {
  if (!(err instanceof AgentCallError))
    return err instanceof AppError ? err : new AppError(500, 'INTERNAL', action);
  switch (err.code) {
    case grpc.status.UNAVAILABLE:
    case grpc.status.DEADLINE_EXCEEDED:
      return new AppError(503, 'NODE_UNREACHABLE', `${action}：无法连接节点，请稍后重试`);
    case grpc.status.UNAUTHENTICATED:
      return new AppError(502, 'NODE_TOKEN_REJECTED', `${action}：节点拒绝了控制面的令牌`);
    case grpc.status.NOT_FOUND:
      return new AppError(404, 'NOT_FOUND_ON_NODE', `${action}：${err.details || '节点上不存在该资源'}`);
    case grpc.status.INVALID_ARGUMENT:
      return new AppError(400, 'REJECTED_BY_NODE', `${action}：${err.details}`);
    case grpc.status.FAILED_PRECONDITION:
    case grpc.status.ALREADY_EXISTS:
      return new AppError(409, 'REJECTED_BY_NODE', `${action}：${err.details}`);
    default:
      return new AppError(502, 'NODE_ERROR', `${action}：${err.details || '节点返回错误'}`);
  }
}
