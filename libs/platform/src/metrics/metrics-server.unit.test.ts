import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { startMetricsServer } from './metrics-server.js';
import { createMetricsRegistry } from './registry.js';

const logger = createLogger({ name: 'test', level: 'silent' });

describe('the metrics listener', () => {
  it('serves the registry at /metrics in the text format, and nothing else', async () => {
    const registry = createMetricsRegistry();
    const server = await startMetricsServer({ registry, host: '127.0.0.1', port: 0, logger });
    expect(server).not.toBeNull();
    const base = `http://127.0.0.1:${server?.port ?? 0}`;
    try {
      const scraped = await fetch(`${base}/metrics`);
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(await scraped.text()).toContain('# TYPE process_cpu_user_seconds_total counter');
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      await server?.close();
    }
  });

  it('gives up without failing the process when its port is taken', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const address = squatter.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const server = await startMetricsServer({
        registry: createMetricsRegistry(),
        host: '127.0.0.1',
        port,
        logger,
      });
      expect(server).toBeNull();
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
