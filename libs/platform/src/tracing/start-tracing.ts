import { context, diag, DiagLogLevel, propagation, trace, type DiagLogger } from '@opentelemetry/api';
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import type { Logger } from '../logger.js';
import { tracingSettingsOf } from './tracing-settings.js';

type SdkModule = typeof import('@opentelemetry/sdk-node');
export type SpanProcessor = NonNullable<NodeSDKConfiguration['spanProcessors']>[number];

export interface TracingOptions {
  /** `service.name` when neither `OTEL_SERVICE_NAME` nor `OTEL_RESOURCE_ATTRIBUTES` names one. */
  readonly serviceName: string;
  readonly logger: Logger;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Where spans go instead of the exporters the environment names (tests: an in-memory exporter). Given,
   * tracing is on whatever the environment says.
   */
  readonly spanProcessors?: readonly SpanProcessor[];
  /** How the SDK is loaded; tests count the calls to see that it never is while tracing is off. */
  readonly loadSdk?: () => Promise<SdkModule>;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Sends the spans still buffered and unregisters the SDK; call it before the process exits. */
  shutdown(): Promise<void>;
}

const TRACING_OFF: Tracing = { enabled: false, shutdown: () => Promise.resolve() };

/**
 * Starts the OpenTelemetry Node SDK for this process when the environment asks for an exporter
 * (`tracingSettingsOf`); otherwise does nothing at all: the SDK is not even loaded, the API's tracers stay
 * no-ops, and no context manager runs. Spans are made by hand at the places that matter
 * (docs/operations.md, "Traces"), not by instrumentation libraries patching modules, so nothing has to
 * load before the application's own imports.
 *
 * Only traces: metrics stay with prom-client, and logs with pino (which gains the trace id), so the SDK
 * gets no metric readers and no log processors whatever `OTEL_METRICS_EXPORTER`/`OTEL_LOGS_EXPORTER` say.
 */
export async function startTracing(options: TracingOptions): Promise<Tracing> {
  const { logger, env = process.env } = options;
  const settings = tracingSettingsOf(env);
  if (!settings.enabled && !options.spanProcessors) return TRACING_OFF;
  const sdkModule = await (options.loadSdk ?? (() => import('@opentelemetry/sdk-node')))();
  const { NodeSDK, resources } = sdkModule;
  // The SDK reports its own trouble (an unreachable collector) through `diag`: into our log, as warnings.
  diag.setLogger(diagnosticsTo(logger), DiagLogLevel.WARN);
  const sdk = new NodeSDK({
    // The default name goes under what the environment detectors find, so OTEL_SERVICE_NAME wins.
    resource: resources
      .defaultResource()
      .merge(resources.resourceFromAttributes({ 'service.name': options.serviceName })),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
    ...(options.spanProcessors ? { spanProcessors: [...options.spanProcessors] } : {}),
  });
  sdk.start();
  logger.info({ exporters: options.spanProcessors ? ['in-process'] : settings.exporters }, 'tracing on');
  return {
    enabled: true,
    shutdown: async () => {
      try {
        await sdk.shutdown();
      } catch (error) {
        logger.warn({ err: error }, 'tracing shutdown: some spans may not have been sent');
      } finally {
        // Back to the API's no-ops: vitest runs the next test file in the same process, and the API keeps
        // its globals on `globalThis`.
        trace.disable();
        context.disable();
        propagation.disable();
        diag.disable();
      }
    },
  };
}

function diagnosticsTo(logger: Logger): DiagLogger {
  const write =
    (level: 'error' | 'warn' | 'info' | 'debug') =>
    (message: string, ...args: unknown[]): void => {
      logger[level]({ otel: args.length > 0 ? args.map(String) : undefined }, `opentelemetry: ${message}`);
    };
  return {
    error: write('error'),
    warn: write('warn'),
    info: write('info'),
    debug: write('debug'),
    verbose: write('debug'),
  };
}
