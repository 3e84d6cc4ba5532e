import { StringDecoder } from 'node:string_decoder';
import * as grpc from '@grpc/grpc-js';
import { AgentCallError, type AgentClient } from '../../agents/agent-client.js';

/** The most text one answer carries; the newest part is kept. */
const MAX_LOG_CHARS = 1024 * 1024;

/**
 * The last `tail` lines of a container's log (stdout and stderr as Docker interleaved them),
 * read from the agent's log stream without following. The stream is cancelled at the deadline.
 */
export function readRecentLogs(
  agent: AgentClient,
  containerId: string,
  tail: number,
  timeoutMs = 15_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const call = agent.streamLogs({ containerId, follow: false, tail });
    const decoders = { out: new StringDecoder('utf8'), err: new StringDecoder('utf8') };
    let text = '';
    const timer = setTimeout(() => {
      reject(new AgentCallError(grpc.status.DEADLINE_EXCEEDED, '读取日志超时', 'StreamLogs'));
      call.cancel();
    }, timeoutMs);
    call.on('data', (chunk: { stream: string; data: Buffer }) => {
      const decoder = chunk.stream === 'STDERR' ? decoders.err : decoders.out;
      text += decoder.write(chunk.data);
      if (text.length > 2 * MAX_LOG_CHARS) text = text.slice(-MAX_LOG_CHARS);
    });
    call.on('error', (err: grpc.ServiceError) => {
      clearTimeout(timer);
      reject(new AgentCallError(err.code, err.details, 'StreamLogs'));
    });
    call.on('end', () => {
      clearTimeout(timer);
      text += decoders.out.end() + decoders.err.end();
      resolve(text.length > MAX_LOG_CHARS ? text.slice(-MAX_LOG_CHARS) : text);
    });
  });
}
