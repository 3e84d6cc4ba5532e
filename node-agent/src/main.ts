#!/usr/bin/env node
// The agent's command line: read the settings, start serving, stop cleanly on SIGTERM/SIGINT.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { AGENT_PROTOCOL_VERSION } from '@gpucloud/proto';
import { startAgent } from './agent.js';
import { type AgentConfig, ConfigError, configFromCli, USAGE } from './config.js';
import { errorMessage } from './errors.js';
import { joinMain } from './fleet/join.js';
import { AGENT_BUILD, AGENT_VERSION } from './version.js';

export { startAgent };

function describe(config: AgentConfig, publishedOn: { address: string; reason: string }): string {
  const gpus = config.simulateGpus
    ? `${config.simulateGpus.count}x${config.simulateGpus.model} (simulated)`
    : `nvidia-smi, toolkit >= ${config.minToolkitVersion}, ${config.gpuStartConcurrency} GPU starts at a time`;
  return [
    `tls ${config.tls ? (config.tls.watch ? 'platform (mutual)' : 'on') : 'off'}`,
    `docker ${config.dockerHost ?? 'unix:///var/run/docker.sock'}`,
    `gpus ${gpus}`,
    `ports ${config.portRange.start}-${config.portRange.end} on ${publishedOn.address} (${publishedOn.reason})`,
    `volumes ${config.volumeRoot}`,
  ].join(', ');
}

async function main(): Promise<void> {
  // Started by `npm start` (scripts/lib/supervisor.mjs, exitWithParent): stop with it, even when
  // it is killed with SIGKILL (the IPC channel closes). Never set under systemd.
  if (process.env.GPUCLOUD_EXIT_WITH_PARENT === '1' && process.channel) {
    process.channel.unref();
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  }
  const argv = process.argv.slice(2);
  if (argv[0] === 'join') {
    process.exit(await joinMain(argv.slice(1), process.env));
  }
  if (argv.includes('--version')) {
    process.stdout.write(
      `gpucloud-agent ${AGENT_VERSION} build ${AGENT_BUILD} protocol ${AGENT_PROTOCOL_VERSION}\n`,
    );
    return;
  }
  let config: AgentConfig | 'help';
  try {
    config = configFromCli({ argv, env: process.env });
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : errorMessage(err));
    process.exit(2);
  }
  if (config === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const agent = await startAgent(config);
  console.log(
    `gpucloud node agent ${AGENT_VERSION} (${AGENT_BUILD}) listening on ${config.listen.replace(/:\d+$/, `:${agent.port}`)} (${describe(config, agent.publishedOn)})`,
  );
  const shutdown = (signal: string) => {
    console.log(`${signal} received, shutting down`);
    agent.close(10_000).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`shutdown failed: ${errorMessage(err)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(realpathSync(invokedPath)).href) {
  main().catch((err: unknown) => {
    console.error(`the agent could not start: ${errorMessage(err)}`);
    process.exit(1);
  });
}
