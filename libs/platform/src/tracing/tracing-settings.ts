import { ConfigError } from '../config.js';

/** The span exporters the OpenTelemetry Node SDK builds from `OTEL_TRACES_EXPORTER`. */
const KNOWN_EXPORTERS = new Set(['otlp', 'console', 'zipkin', 'none']);
const KNOWN_OTLP_PROTOCOLS = new Set(['grpc', 'http/protobuf', 'http/json']);

export interface TracingSettings {
  /** Whether to start the SDK at all. */
  readonly enabled: boolean;
  /** The exporters it will build (for the start-up log line); empty when off. */
  readonly exporters: readonly string[];
}

/**
 * Whether tracing is on, from the standard variables the SDK itself reads. Off unless an exporter is
 * asked for: `OTEL_TRACES_EXPORTER` other than `none`, or an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), which means `otlp`. The specification's default exporter is
 * `otlp`, but a service that sends spans to `localhost:4318` whenever nobody configured anything would
 * pay for tracing that goes nowhere. `OTEL_SDK_DISABLED=true` turns it off whatever else is set.
 *
 * Every other `OTEL_*` variable (endpoint, headers, protocol, sampler, propagators, resource attributes,
 * batch sizes) is the SDK's to read. A name the SDK would only warn about here stops start-up instead,
 * like every other bad setting of this service.
 */
export function tracingSettingsOf(env: NodeJS.ProcessEnv = process.env): TracingSettings {
  const off: TracingSettings = { enabled: false, exporters: [] };
  const named = listOf(env.OTEL_TRACES_EXPORTER);
  const unknown = named.filter((name) => !KNOWN_EXPORTERS.has(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `invalid configuration: OTEL_TRACES_EXPORTER: unknown exporter ${unknown.join(', ')} ` +
        `(one or more of otlp, console, zipkin, or none)`,
    );
  }
  if (named.includes('none') && named.length > 1) {
    throw new ConfigError('invalid configuration: OTEL_TRACES_EXPORTER: none stands alone (no exporter)');
  }
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL'] as const) {
    const protocol = env[name]?.trim();
    if (protocol && !KNOWN_OTLP_PROTOCOLS.has(protocol)) {
      throw new ConfigError(`invalid configuration: ${name}: ${protocol} (grpc, http/protobuf or http/json)`);
    }
  }
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return off;
  if (named.includes('none')) return off;
  if (named.length > 0) return { enabled: true, exporters: named };
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return endpoint?.trim() ? { enabled: true, exporters: ['otlp'] } : off;
}

/** A comma-separated list as the SDK reads it: trimmed, blanks dropped, one of each. */
function listOf(value: string | undefined): string[] {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  return [...new Set(names)];
}
