export { configSchema, loadConfig, ConfigError, type Config } from './config.js';
export { createLogger, type Logger } from './logger.js';
export { createPool, inTransaction, withClient, type Pool, type PoolClient } from './database.js';
export { uploadWorkerHeartbeatKey, HEARTBEAT_INTERVAL_MS, HEARTBEAT_TTL_SECONDS } from './heartbeat.js';
export { applySchema, withSchemaLock } from './ddl.js';
export { runMigrations, type Migration, type MigrationTarget } from './migrations.js';
export {
  isConnectionError,
  isInsufficientPrivilegeError,
  isInvalidDataError,
  isUndefinedTableError,
} from './database-errors.js';
export {
  checkOutboundUrl,
  classifyAddress,
  guardedLookup,
  hostOf,
  OutboundAddressRefused,
  refusalOf,
  resolveOutbound,
  type AddressClass,
  type OutboundPolicy,
} from './outbound-address.js';
export { SecretBox, SecretBoxError, SECRET_KEY_BYTES } from './secret-box.js';
export { openWebhookSecret, webhookSecretBox, webhookSecretContext } from './webhook-secret-key.js';
export { nameHash } from './name-hash.js';
export { BoundedMap } from './bounded-map.js';
export { announceIdentityChange, IDENTITY_CHANGED_CHANNEL } from './identity-signal.js';
export {
  Counter,
  createMetricsRegistry,
  Gauge,
  Histogram,
  METRIC_PREFIX,
  observePools,
  startMetricsServer,
  type MetricsServer,
  Registry,
  type MetricsServerOptions,
} from './metrics/index.js';
export {
  context,
  contextOfTraceParent,
  currentTraceParent,
  formatTraceParent,
  inSpan,
  markFailed,
  parseTraceParent,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  startTracing,
  trace,
  traceLogFields,
  tracerOf,
  tracingSettingsOf,
  type Attributes,
  type Context,
  type InSpanOptions,
  type Link,
  type Span,
  type SpanProcessor,
  type Tracer,
  type Tracing,
  type TracingOptions,
  type TracingSettings,
} from './tracing/index.js';
