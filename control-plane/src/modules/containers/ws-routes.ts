import { StringDecoder } from 'node:string_decoder';
import * as grpc from '@grpc/grpc-js';
import Router from '@koa/router';
import type { Context } from 'koa';
import type WebSocket from 'ws';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { Authenticator } from '../../framework/auth.js';
import { AppError } from '../../framework/errors.js';
import type { ContainersService } from './service.js';

type WsContext = Context & { websocket: WebSocket };

// Close codes in the private range: the console shows the reason.
const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_NOT_FOUND = 4404;
const CLOSE_UPSTREAM = 4502;

/**
 * WebSocket routes (koa-websocket has its own middleware stack, so auth is done here):
 * `/api/containers/ws/{id}/logs?token=…` streams the container's log as text frames.
 */
export function containerWsRoutes(deps: {
  auth: Authenticator;
  containers: ContainersService;
  agents: AgentPool;
}) {
  const router = new Router();

  router.get('/api/containers/ws/:id/logs', async (ctx) => {
    const ws = (ctx as unknown as WsContext).websocket;
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : undefined;
    const user = token ? await deps.auth.authenticate(token) : undefined;
    if (!user) {
      ws.close(CLOSE_UNAUTHORIZED, 'unauthorized');
      return;
    }
    let target: Awaited<ReturnType<ContainersService['streamTarget']>>;
    try {
      target = await deps.containers.streamTarget(user, String(ctx.params.id));
    } catch (err) {
      ws.close(err instanceof AppError && err.status === 404 ? CLOSE_NOT_FOUND : CLOSE_UPSTREAM, 'not found');
      return;
    }
    const tail = Math.min(Math.max(Number(ctx.query.tail ?? 200) || 200, 1), 5000);
    const call = deps.agents
      .get(target.node)
      .streamLogs({ containerId: target.container.id, follow: true, tail });
    const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')];
    call.on('data', (chunk: { stream: string; data: Buffer }) => {
      const decoder = decoders[chunk.stream === 'STDERR' ? 1 : 0] as StringDecoder;
      const text = decoder.write(chunk.data);
      if (text && ws.readyState === ws.OPEN) ws.send(text);
    });
    call.on('error', (err: grpc.ServiceError) => {
      if (err.code === grpc.status.CANCELLED) return;
      if (ws.readyState === ws.OPEN) {
        ws.send(`\r\n[日志流已断开：${err.details || err.message}]\r\n`);
        ws.close(CLOSE_UPSTREAM, 'upstream error');
      }
    });
    call.on('end', () => {
      if (ws.readyState === ws.OPEN) ws.close(1000, 'end of log');
    });
    ws.on('close', () => call.cancel());
    ws.on('error', () => call.cancel());
  });

  return router;
}
