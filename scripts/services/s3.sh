#!/usr/bin/env bash
# Ensures a local S3 endpoint with the project's bucket: Ceph's RADOS Gateway (Debian, Ceph 16.2), which
# checks SigV4 signatures on presigned URLs and implements ListParts/AbortMultipartUpload like AWS.
# Usage: scripts/services/s3.sh <start|test>        Does nothing when S3_ENDPOINT is set (your own S3).
#
# Decision: the two modes are two independent clusters on their own ports, so `npm test` can run while
# `npm start` serves, and tests can never touch development data.
#   mode   state (under PORTAL_DATA_DIR: /var/lib/portal-catalog-service as root, else <repo>/.data)
#                                                               monitor ports   S3_ENDPOINT
#   start  ceph/       bluestore on a sparse file: persistent     3300, 6789      http://127.0.0.1:7480
#   test   ceph-test/  memstore, RAM only: throwaway              3301, 6790      http://127.0.0.1:7481
# OSDs take free ports from 6800 up. Credentials: S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY (defaults
# portal-dev-access / portal-dev-secret, as in libs/platform/src/config.ts), bucket S3_BUCKET
# (default portal-assets) with a CORS rule exposing ETag for presigned browser uploads.
#
# Restarts: a `start` cluster whose daemons are gone (reboot, s3-stop.sh) gets them started again on
# its data. A `test` cluster with any daemon gone is wiped and made anew: memstore's objects died with
# the OSD process, and a fresh cluster costs no more than a restart.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$SERVICES_DIR/s3-lib.sh"

mode=${1:-}
select_s3_mode "$mode"
[[ -z ${S3_ENDPOINT:-} ]] || exit 0
serialise "s3-$mode" "$@"

bucket=${S3_BUCKET:-portal-assets}
access_key=${S3_ACCESS_KEY_ID:-portal-dev-access}
secret_key=${S3_SECRET_ACCESS_KEY:-portal-dev-secret}
# Versioned: a change to the bucket settings (s3-bucket.ts) re-applies them on machines set up before it.
bucket_done=$cluster_dir/bucket-$bucket.v2.done

# Anonymous HEAD on a private bucket answers 403, on a missing one 404: one round trip proves the
# gateway, the OSD behind it and the bucket, without starting Node or the ceph CLI (~0.5 s each).
bucket_answers() { [[ $(http_head_status "$gateway_port" "/$bucket") =~ ^(200|403)$ ]]; }
gateway_answers() { [[ -n $(http_head_status "$gateway_port" /) ]]; }

if [[ -e $bucket_done ]] && bucket_answers; then
  exit 0
fi

install_packages ceph-mon ceph-osd radosgw

# The ceph CLI waits forever for a monitor it cannot reach (as it does on an unbracketed `mon host`),
# so every call is bounded. No stdin: with none it would read commands from it.
ceph_cli() { ceph -c "$ceph_conf" --connect-timeout 15 "$@" </dev/null; }

write_ceph_conf() {
  local fsid=$1 objectstore_settings
  if [[ $mode == test ]]; then
    objectstore_settings="osd objectstore = memstore
memstore device bytes = 4294967296"
  else
    # The block file sits outside the OSD data dir; sparse, so 10 GiB costs only what is written (and
    # mounting a bigger one takes longer). The block device's I/O thread checks for shutdown every
    # `bdev aio poll ms`, and every start opens and closes it seven times: 250 ms each by default.
    objectstore_settings="osd objectstore = bluestore
bluestore block path = $cluster_dir/bluestore.block
bluestore block create = true
bluestore block size = 10737418240
bdev aio poll ms = 20
osd memory target = 1073741824"
  fi
  # `$name` is expanded by Ceph, not by bash.
  cat >"$ceph_conf" <<EOF
# Written by scripts/services/s3.sh ($mode mode). One monitor, one OSD, one gateway on 127.0.0.1.
[global]
fsid = $fsid
mon host = [v2:127.0.0.1:$mon_v2_port,v1:127.0.0.1:$mon_v1_port]
public addr = 127.0.0.1
cluster addr = 127.0.0.1
# No keys to manage on a loopback-only dev cluster. Without keys there is no "secure" messenger mode,
# which monitors and their clients try first (radosgw then loops on error -13), hence crc.
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
ms mon service mode = crc
ms mon cluster mode = crc
# A single OSD: one copy, few placement groups, and no autoscaler (there is no mgr).
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
mon warn on insecure global id reclaim allowed = false
# Commits every 0.1 s instead of 1 s: the first start goes from ~9 s to ~1 s.
paxos propose interval = 0.1
run dir = $run_dir
pid file = $run_dir/\$name.pid
admin socket = $run_dir/\$name.asok
crash dir = $cluster_dir/crash
log file = $cluster_dir/log/\$name.log
mon cluster log file = $cluster_dir/log/cluster.log

[mon]
mon data = $cluster_dir/mon

[osd]
osd data = $cluster_dir/osd
$objectstore_settings

[client]
# The ceph CLI and radosgw-admin are short-lived; their sockets would only collide.
admin socket =

[client.rgw.a]
admin socket = $run_dir/\$name.asok
rgw frontends = beast endpoint=127.0.0.1:$gateway_port
rgw data = $cluster_dir/rgw
rgw init timeout = 60
EOF
}

start_mon() { mon_alive || quietly ceph-mon -c "$ceph_conf" -i a; }
start_osd() { osd_alive || quietly ceph-osd -c "$ceph_conf" -i 0; }
# radosgw daemonizes within ~0.1 s here; whether it serves is decided by the HTTP wait further down.
start_gateway() { gateway_alive || quietly timeout 90 radosgw -c "$ceph_conf" -n client.rgw.a; }

bootstrap() {
  rm -rf "$cluster_dir"
  mkdir -p "$cluster_dir"/{mon,osd,rgw,run,log,crash}
  local fsid osd_uuid osd_id
  fsid=$(</proc/sys/kernel/random/uuid)
  write_ceph_conf "$fsid"
  quietly monmaptool --create --fsid "$fsid" \
    --addv a "[v2:127.0.0.1:$mon_v2_port,v1:127.0.0.1:$mon_v1_port]" "$cluster_dir/monmap"
  quietly ceph-mon -c "$ceph_conf" -i a --mkfs --monmap "$cluster_dir/monmap"
  start_mon
  osd_uuid=$(</proc/sys/kernel/random/uuid)
  osd_id=$(ceph_cli osd new "$osd_uuid" 2>"$cluster_dir/log/osd-new.err") ||
    die "ceph osd new failed: $(cat "$cluster_dir/log/osd-new.err")"
  [[ $osd_id == 0 ]] || die "expected osd.0 in a new cluster, got: $osd_id"
  quietly ceph-osd -c "$ceph_conf" -i 0 --mkfs --osd-uuid "$osd_uuid"
  start_osd
  start_gateway
  quietly radosgw-admin -c "$ceph_conf" user create --uid=portal-dev --display-name="Portal development" \
    --access-key="$access_key" --secret-key="$secret_key"
  # Written last: a bootstrap cut short is redone from scratch on the next run.
  touch "$cluster_dir/bootstrapped"
}

if [[ ! -e $cluster_dir/bootstrapped ]]; then
  stop_cluster
  bootstrap
elif [[ $mode == test ]] && ! { mon_alive && osd_alive && gateway_alive; }; then
  stop_cluster
  bootstrap
else
  start_mon
  if ! osd_alive; then
    # After an unclean stop (reboot, kill) the monitor still lists osd.0 as up at its old address; a
    # gateway started now sends there and waits ~15 s before it asks for a newer map. Marked down, the
    # new OSD's boot is the next map every client waits for.
    quietly ceph_cli osd down 0
    start_osd
  fi
  start_gateway
fi

wait_until 60 gateway_answers ||
  die "the gateway does not answer on 127.0.0.1:$gateway_port (logs: $cluster_dir/log)"
# After a restart the bucket is usually there already; Node costs a second, one HEAD does not.
if [[ -e $bucket_done ]] && bucket_answers; then
  exit 0
fi

[[ -d $REPO_ROOT/node_modules/tsx ]] || die "node_modules is missing: run npm ci first"
# `node --import tsx` from the repo root (where `tsx` resolves) is one process; the tsx CLI is two.
(cd "$REPO_ROOT" && quietly env S3_ENDPOINT="http://127.0.0.1:$gateway_port" S3_ACCESS_KEY_ID="$access_key" \
  S3_SECRET_ACCESS_KEY="$secret_key" S3_BUCKET="$bucket" node --import tsx "$SERVICES_DIR/s3-bucket.ts")
touch "$bucket_done"
