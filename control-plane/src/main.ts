import { type Config, loadConfig } from './config.js';
import { consoleLogger, startControlPlane } from './platform.js';

// Started by `npm start` (scripts/lib/supervisor.mjs, exitWithParent): stop with it, even when it
// is killed with SIGKILL (the IPC channel closes). Never set under systemd.
if (process.env.GPUCLOUD_EXIT_WITH_PARENT === '1' && process.channel) {
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  // A refused setting (a sandbox on a public deployment, a bad TRUST_PROXY): its words, no stack.
  console.error(`配置错误 / configuration error: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
// The signals are heard from the start: a stop asked while the platform is still starting (the
// API answers before the registry and the jobs are up) waits for the start, then closes it all,
// rather than ending the process with the registry it spawned left running.
const starting = startControlPlane(config, consoleLogger);
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    starting
      .then((running) => running.close())
      .then(() => process.exit(0))
      .catch((err) => {
        consoleLogger('shutdown failed', err);
        process.exit(1);
      });
  });
}
const running = await starting;
consoleLogger(`listening on ${config.host}:${running.port}`);
if (running.generatedAdminPassword) {
  consoleLogger(`admin account created: ${config.adminUsername} / ${running.generatedAdminPassword}`);
}
