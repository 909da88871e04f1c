# shellcheck shell=bash
# Exports what the apps need to reach the services `up.sh <mode>` made, keeping anything already set.
# Source it AFTER up.sh: up.sh reads a set DATABASE_URL / REDIS_URL / S3_ENDPOINT as "the caller's own
# service, start nothing for it".        Usage: source scripts/services/env.sh <start|test>
case ${1:-} in
  start)
    export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/portal}
    export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
    export S3_ENDPOINT=${S3_ENDPOINT:-http://127.0.0.1:7480}
    ;;
  test)
    export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/portal_test}
    # Redis has one server for both modes; database 1 keeps a running `npm start` worker off test queues.
    export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/1}
    export S3_ENDPOINT=${S3_ENDPOINT:-http://127.0.0.1:7481}
    ;;
  *)
    echo "usage: source scripts/services/env.sh <start|test>" >&2
    return 1
    ;;
esac
export S3_REGION=${S3_REGION:-us-east-1}
export S3_ACCESS_KEY_ID=${S3_ACCESS_KEY_ID:-portal-dev-access}
export S3_SECRET_ACCESS_KEY=${S3_SECRET_ACCESS_KEY:-portal-dev-secret}
export S3_BUCKET=${S3_BUCKET:-portal-assets}
export S3_FORCE_PATH_STYLE=${S3_FORCE_PATH_STYLE:-true}
