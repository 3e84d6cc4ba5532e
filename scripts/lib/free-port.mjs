// A TCP port on 127.0.0.1 that nothing listens on right now (the kernel's pick): for a server a
// test or a bench starts on a port it must know in advance (a process restarted on the same port).
import net from 'node:net';

/** Resolves with a port that was free a moment ago. */
export function freeLoopbackPort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });
}
