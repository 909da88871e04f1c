import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, with its service and scope. */
export interface ReceivedSpan {
  readonly service: string;
  readonly scope: string;
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly links: readonly { readonly traceId: string; readonly spanId: string }[];
}

interface KeyValue {
  readonly key: string;
  readonly value: Record<string, unknown>;
}

interface ExportRequest {
  readonly resourceSpans?: readonly {
    readonly resource?: { readonly attributes?: readonly KeyValue[] };
    readonly scopeSpans?: readonly {
      readonly scope?: { readonly name?: string };
      readonly spans?: readonly {
        readonly traceId: string;
        readonly spanId: string;
        readonly parentSpanId?: string;
        readonly name: string;
        readonly attributes?: readonly KeyValue[];
        readonly links?: readonly { readonly traceId: string; readonly spanId: string }[];
      }[];
    }[];
  }[];
}

/** An OTLP `AnyValue` as a plain value: the one field it sets (`intValue` comes as a string in JSON). */
function plain(value: Record<string, unknown>): unknown {
  if ('intValue' in value) return Number(value.intValue);
  const [first] = Object.values(value);
  return first;
}

function attributesOf(list: readonly KeyValue[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));
}

/**
 * A collector for tests: an HTTP server on a free loopback port that takes OTLP/HTTP JSON trace exports
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`, `POST /v1/traces`) and keeps every span.
 */
export async function startOtlpReceiver(): Promise<{
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  close(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            spans.push({
              service,
              scope: scopeSpans.scope?.name ?? '',
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              attributes: attributesOf(span.attributes),
              links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
