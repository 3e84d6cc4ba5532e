import { loadConfig } from './config.js';
import { consoleLogger, startControlPlane } from './platform.js';

const config = loadConfig();
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
