import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * Servers a unit test starts on a free loopback port, each closed after its test. For the HTTP layer
 * alone (body parsing, the parser's own errors): no database, no other service.
 */
export function useInProcessServers(): { start(server: Server): Promise<string> } {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return {
    async start(server) {
      servers.push(server);
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const { port } = server.address() as AddressInfo;
      return `http://127.0.0.1:${port}`;
    },
  };
}
