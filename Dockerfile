# syntax=docker/dockerfile:1
#
# One image for every process of the service. The apps run from their TypeScript sources through tsx
# (no build step), so the command picks the app:
#   default                                       the API (HTTP on $PORT)
#   node --max-semi-space-size=64 --import tsx apps/projector/src/main.ts   the projector (leader or standby)
#   node --import tsx apps/upload-worker/src/main.ts
#   node --import tsx scripts/migrate.ts          apply the schemas (one-off)
#   node --max-semi-space-size=64 --import tsx apps/projector/src/rebuild.ts   rebuild the read models
#   node --max-semi-space-size=64 --import tsx scripts/admin/main.ts status   the operator console
# (--max-semi-space-size: the young generation a rebuild needs, apps/projector/src/node-flags.ts;
# docs/admin-cli.md has the console)
# `node --import tsx` keeps one process per app (the tsx CLI would add a parent process between the
# signal and the app), so SIGTERM reaches the app's own graceful shutdown.

ARG NODE_IMAGE=node:20-bookworm-slim

# Only the package manifests, so the install layers below are reused until a dependency changes.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json -delete \
 && find . -depth -type d -empty -delete

# Everything, dev dependencies included: the source of tsx and its esbuild for the runtime tree.
FROM ${NODE_IMAGE} AS deps-all
WORKDIR /app
COPY --from=manifests /src/ ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

# Production dependencies only (no TypeScript, ESLint, vitest, testcontainers), plus tsx, which runs
# the sources but is a devDependency. tsx needs only esbuild and esbuild's platform binary; no
# production package brings its own esbuild, so copying these three folders over changes nothing else.
FROM ${NODE_IMAGE} AS deps-runtime
WORKDIR /app
COPY --from=manifests /src/ ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund
COPY --from=deps-all /app/node_modules/tsx ./node_modules/tsx
COPY --from=deps-all /app/node_modules/esbuild ./node_modules/esbuild
COPY --from=deps-all /app/node_modules/@esbuild ./node_modules/@esbuild

# The web explorer's static build (apps/web/dist), which the API serves at /app/.
FROM deps-all AS web
COPY tsconfig.base.json ./
COPY libs/contracts ./libs/contracts
COPY apps/web ./apps/web
RUN npm run build -w @portal/web

FROM ${NODE_IMAGE} AS runtime
# tini as PID 1 forwards SIGTERM to the app and reaps zombies, with or without `docker run --init`.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# Owned by root and not writable by the app user: the process cannot change the code it runs.
# The whole install tree first (root and any workspace-level node_modules), then the sources over it.
COPY --from=deps-runtime /app/ ./
COPY tsconfig.base.json tsconfig.json ./
COPY libs ./libs
COPY apps ./apps
COPY --from=web /app/apps/web/dist ./apps/web/dist
COPY scripts ./scripts
USER node
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--import", "tsx", "apps/api/src/main.ts"]
