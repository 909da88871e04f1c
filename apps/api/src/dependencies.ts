import type { EventStore } from '@portal/domain';
import type { Config, Logger, Pool, Registry, SecretBox } from '@portal/platform';
import type { ObjectStore, UploadQueue } from '@portal/uploads';
import type { ProjectionWaiter } from './projection/projection-waiter.js';
import type { ReadinessCheck } from './health/readiness.js';
import type { AuthServices } from './auth/auth-services.js';
import type { ChangeFeedHub } from './events/change-feed-hub.js';

/** Everything the routes need, built once in `main.ts` and passed down; tests build their own. */
export interface ApiDependencies {
  readonly config: Config;
  readonly logger: Logger;
  readonly pool: Pool;
  readonly eventStore: EventStore;
  readonly projection: ProjectionWaiter;
  readonly objectStore: ObjectStore;
  /** Where completions go for the upload worker. */
  readonly uploadQueue: Pick<UploadQueue, 'enqueueCompletion'>;
  readonly readinessChecks: readonly ReadinessCheck[];
  /** JWT issuer, sign-in rate limiter, the dummy password hash. */
  readonly auth: AuthServices;
  /** The process's one SSE change feed (`GET /api/v1/events`); main.ts starts and closes it. */
  readonly changeFeed: ChangeFeedHub;
  /** Seals webhook signing secrets at rest (`WEBHOOK_SECRET_KEY`); the worker opens them. */
  readonly webhookSecrets: SecretBox;
  /** Where the API's request metrics go; none when left out (tests that do not look at them). */
  readonly metrics?: Registry;
  readonly now: () => Date;
  readonly newId: () => string;
}
