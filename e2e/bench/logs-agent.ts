/**
 * The node agent of the logs bench, in a process of its own so that its CPU time (from
 * /proc/<pid>/stat) is the agent's alone. Started by logs.ts with the agent's options as JSON in
 * argv[2]; prints one JSON line `{"address": …}` when it listens, and closes on SIGTERM or when
 * its stdin closes (the bench went away).
 */
import { type AgentOptions, startAgent } from '@gpucloud/node-agent';

async function main() {
  const options = JSON.parse(process.argv[2] ?? '{}') as AgentOptions;
  const agent = await startAgent(options, { log: (line) => process.stderr.write(`[agent] ${line}\n`) });
  process.stdout.write(`${JSON.stringify({ address: agent.address, nodeName: agent.config.nodeName })}\n`);
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    agent.close(1000).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', close);
  process.stdin.on('end', close);
  process.stdin.on('close', close);
  process.stdin.resume();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
