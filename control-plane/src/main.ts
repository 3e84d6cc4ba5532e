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
const running = await startControlPlane(config, consoleLogger);
consoleLogger(`listening on ${config.host}:${running.port}`);
if (running.generatedAdminPassword) {
  consoleLogger(`admin account created: ${config.adminUsername} / ${running.generatedAdminPassword}`);
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    running
      .close()
      .then(() => process.exit(0))
      .catch((err) => {
        consoleLogger('shutdown failed', err);
        process.exit(1);
      });
  });
}
