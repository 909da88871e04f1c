# shellcheck shell=bash
# What s3.sh and s3-stop.sh share: where each mode's Ceph cluster lives and how to find its daemons.
# Sourced after lib.sh, never run on its own.

# Sets the variables of one mode, for the scripts that source this file. The two modes are separate
# clusters on separate ports (see s3.sh).
# shellcheck disable=SC2034
select_s3_mode() {
  case $1 in
    start)
      cluster_dir=$DATA_DIR/ceph
      mon_v2_port=3300
      mon_v1_port=6789
      gateway_port=7480
      ;;
    test)
      cluster_dir=$DATA_DIR/ceph-test
      mon_v2_port=3301
      mon_v1_port=6790
      gateway_port=7481
      ;;
    *) die "usage: $(basename "$0") <start|test>" ;;
  esac
  ceph_conf=$cluster_dir/ceph.conf
  run_dir=$cluster_dir/run
}

# One monitor (mon.a), one OSD (osd.0), one gateway (client.rgw.a); `pid file` in ceph.conf puts
# each pid at run/<name>.pid, and /proc/<pid>/stat names the binary.
daemon_pidfile() { printf '%s/%s.pid' "$run_dir" "$1"; }
mon_alive() { pidfile_alive "$(daemon_pidfile mon.a)" ceph-mon; }
osd_alive() { pidfile_alive "$(daemon_pidfile osd.0)" ceph-osd; }
gateway_alive() { pidfile_alive "$(daemon_pidfile client.rgw.a)" radosgw; }

stopped() { ! process_running "$1" "$2"; }

# Stops one daemon: TERM, a bounded wait, then KILL. Only a pid running that binary is signalled.
stop_daemon() {
  local name=$1 command=$2 pidfile pid
  pidfile=$(daemon_pidfile "$name")
  pidfile_alive "$pidfile" "$command" || return 0
  read -r pid <"$pidfile"
  kill -TERM "$pid" 2>/dev/null || return 0
  if ! wait_until 10 stopped "$pid" "$command"; then
    kill -KILL "$pid" 2>/dev/null || true
    wait_until 5 stopped "$pid" "$command" || die "cannot stop $name (pid $pid)"
  fi
  rm -f "$pidfile"
}

# The gateway first, so no client sees a half-stopped cluster, then the OSD, then the monitor.
stop_cluster() {
  stop_daemon client.rgw.a radosgw
  stop_daemon osd.0 ceph-osd
  stop_daemon mon.a ceph-mon
}
