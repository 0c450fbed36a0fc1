#!/usr/bin/env bash
# A sweep through a real single-node Slurm cluster on this machine, compared with the local sweep.
#
#   bash tests/slurm/slurm_cluster.sh SWITCHYARD_BIN CONFIG
#
# As root on Debian 12: installs slurm-wlm and munge if they are missing (this opt-in test only;
# tb/deps.sh does not), then, in a private temporary directory, starts its own munged (own key and
# socket), slurmctld and slurmd (own slurm.conf, unused ports, one node = this host, no cgroups),
# emits a small grid with `switchyard sweep --emit-slurm`, submits the array with sbatch from
# another directory, waits for it, runs `switchyard collect`, and compares sweep.csv and every
# point's results.json (all but its wall_seconds line) with a local `switchyard sweep` of the same
# grid, byte for byte.
# The daemons are stopped and the directory removed on every exit (success, failure, timeout,
# SIGINT/SIGTERM); every wait has a time limit. Nothing outside the directory is touched: the
# system's munged and slurm.conf, if any, are left alone. SY_SLURM_KEEP=1 keeps the directory.
# Exit 0 when equal, 1 on any failure, 77 (reported as skipped by CTest) without root.
set -uo pipefail

bin=${1:?usage: slurm_cluster.sh SWITCHYARD_BIN CONFIG}
config=${2:?usage: slurm_cluster.sh SWITCHYARD_BIN CONFIG}
bin=$(realpath "$bin")
config=$(realpath "$config")
t0=$(date +%s%N)

say() {
  local ms=$((($(date +%s%N) - t0) / 1000000))
  printf 'slurm-test [%4d.%03ds] %s\n' $((ms / 1000)) $((ms % 1000)) "$*"
}
fail() {
  say "FAIL: $*"
  exit 1
}

# --- packages ---------------------------------------------------------------------------------
export PATH=$PATH:/usr/sbin:/sbin
missing=0
for c in slurmctld slurmd sbatch squeue sinfo scontrol scancel munged munge unmunge ss; do
  command -v "$c" >/dev/null || missing=1
done
if [ "$missing" = 1 ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "slurm-test: SKIPPED: needs slurm-wlm, munge and ss (iproute2), or root and apt-get"
    exit 77
  fi
  say "installing slurm-wlm and munge (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  timeout 300 apt-get update -qq || fail "apt-get update"
  timeout 600 apt-get install -y -qq --no-install-recommends slurm-wlm munge iproute2 >/dev/null ||
    fail "apt-get install slurm-wlm munge"
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "slurm-test: SKIPPED: the private slurmctld/slurmd run as root (SlurmUser=root)"
  exit 77
fi
say "$(slurmctld -V), $(munged -V 2>&1 | head -1)"

# --- private directory and cleanup ------------------------------------------------------------
dir=$(mktemp -d /tmp/sy-slurm-cluster.XXXXXX) || fail "mktemp"
chmod 711 "$dir" # munged wants its socket's directory searchable by all
munged_pid="" ctld_pid="" slurmd_pid="" job=""
export SLURM_CONF=$dir/slurm.conf

# A process of ours that has not ended (a zombie awaiting `wait` has ended).
alive() { [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
# Waits up to $1 seconds for pid $2 to end; 0 if it did.
wait_pid() {
  local i
  for ((i = 0; i < $1 * 10; ++i)); do
    alive "$2" || return 0
    sleep 0.1
  done
  return 1
}
stop_pid() { # pid, seconds: TERM, then KILL after the grace time; reaps our own child
  [ -n "$1" ] || return 0
  alive "$1" || { wait "$1" 2>/dev/null; return 0; }
  kill -TERM "$1" 2>/dev/null
  wait_pid "$2" "$1" || { kill -KILL "$1" 2>/dev/null; wait_pid 5 "$1"; }
  wait "$1" 2>/dev/null
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ -n "$job" ] && [ -n "$ctld_pid" ]; then
    timeout 10 scancel "$job" 2>/dev/null
    for ((i = 0; i < 100; ++i)); do
      [ -z "$(timeout 5 squeue -h -j "$job" 2>/dev/null)" ] && break
      sleep 0.1
    done
  fi
  if [ -n "$ctld_pid" ] && alive "$ctld_pid"; then
    timeout 10 scontrol shutdown >/dev/null 2>&1 # stops slurmctld and slurmd gracefully
  fi
  if [ -n "$slurmd_pid" ]; then wait_pid 10 "$slurmd_pid"; fi
  if [ -n "$ctld_pid" ]; then wait_pid 10 "$ctld_pid"; fi
  stop_pid "$slurmd_pid" 5
  stop_pid "$ctld_pid" 5
  stop_pid "$munged_pid" 5
  if [ "$rc" -ne 0 ]; then
    for f in "$dir"/*.log "$dir"/work/grid/slurm-*.out; do
      [ -s "$f" ] && { echo "--- $f (last lines)"; tail -n 15 "$f"; }
    done
  fi
  if [ "${SY_SLURM_KEEP:-0}" = 1 ]; then say "kept $dir"; else rm -rf "$dir"; fi
  say "daemons stopped, exit $rc"
  exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 1' INT TERM

# Two free TCP ports side by side, away from Slurm's 6817/6818 and from other runs of this test.
port_free() { ! ss -Htan 2>/dev/null | awk '{print $4}' | grep -qE "[:.]$1\$"; }
port=""
for ((i = 0; i < 50; ++i)); do
  p=$((20000 + RANDOM % 20000))
  if port_free "$p" && port_free $((p + 1)); then
    port=$p
    break
  fi
done
[ -n "$port" ] || fail "no free port pair"

# --- munge: own key, own socket ---------------------------------------------------------------
if command -v mungekey >/dev/null; then
  mungekey --create --keyfile="$dir/munge.key" || fail "mungekey"
else
  dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none || fail "munge key"
fi
chmod 400 "$dir/munge.key"
sock=$dir/munge.sock
munged -F --force --socket="$sock" --key-file="$dir/munge.key" --log-file="$dir/munged.log" \
  --pid-file="$dir/munged.pid" --seed-file="$dir/munged.seed" >>"$dir/munged.log" 2>&1 &
munged_pid=$!
ok=0
for ((i = 0; i < 100; ++i)); do
  if munge -S "$sock" -n 2>/dev/null | unmunge -S "$sock" >/dev/null 2>&1; then
    ok=1
    break
  fi
  alive "$munged_pid" || break
  sleep 0.1
done
[ "$ok" = 1 ] || fail "munged did not answer on $sock within 10 s"
say "munged up (pid $munged_pid)"

# --- slurm.conf: one node, this host --------------------------------------------------------
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$dir/state" "$dir/spool" "$dir/work"
cat >"$SLURM_CONF" <<EOF
ClusterName=sytest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=sy Nodes=$host Default=YES MaxTime=10 State=UP
EOF

slurmctld -D -i >>"$dir/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -N "$host" >>"$dir/slurmd.out" 2>&1 &
slurmd_pid=$!
state=""
for ((i = 0; i < 300; ++i)); do
  alive "$ctld_pid" || fail "slurmctld exited"
  alive "$slurmd_pid" || fail "slurmd exited"
  state=$(timeout 5 sinfo -h -n "$host" -o %t 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 0.1
done
[ "$state" = idle ] || fail "node $host not idle within 30 s (state '$state')"
say "slurmctld (pid $ctld_pid, port $port) and slurmd (pid $slurmd_pid) up, node $host idle, $cpus CPUs"

# --- the grid: 2 parameters x 2 values x 2 seeds on a 4x4 torus ----------------------------------
grid=(--set 'topology.dims=[4,4]' --set simulation.warmup=500 --set simulation.measure=3000
  --param traffic.rate --values 0.1,0.8 --param router.vcs --values 2,4 --seeds 2)
cd "$dir/work" || fail "cd"
"$bin" sweep "$config" "${grid[@]}" --out grid --emit-slurm grid.sh || fail "sweep --emit-slurm"
runs=$(wc -l <grid.sh.jobs)
# sbatch from another directory: the script must find its jobs file and outputs by itself.
cd "$dir" || fail "cd"
job=$(timeout 30 sbatch --parsable work/grid.sh) || fail "sbatch"
job=${job%%;*}
say "submitted array job $job ($runs tasks)"
done_ok=0
for ((i = 0; i < 1200; ++i)); do # 120 s
  if [ -z "$(timeout 5 squeue -h -j "$job" 2>/dev/null)" ]; then
    done_ok=1
    break
  fi
  sleep 0.1
done
[ "$done_ok" = 1 ] || fail "array job $job not finished within 120 s"
say "array job $job finished"
# Every task ran under Slurm (its own log) and exited 0 (the controller keeps the records).
codes=$(timeout 10 scontrol -o show job "$job" | grep -o ' ExitCode=[0-9:]*' | sort | uniq -c | xargs)
tasks=$(timeout 10 scontrol -o show job "$job" | grep -c 'JobState=COMPLETED')
[ "$tasks" = "$runs" ] || fail "$tasks of $runs tasks COMPLETED; exit codes (count, code): $codes"
logs=$(find work/grid -name "slurm-${job}_*.out" | wc -l)
[ "$logs" = "$runs" ] || fail "$logs Slurm task logs for $runs tasks"
say "$tasks tasks COMPLETED, exit codes (count, code): $codes"

cd "$dir/work" || fail "cd"
"$bin" collect grid || fail "switchyard collect"
"$bin" sweep "$config" "${grid[@]}" --jobs "$cpus" --out local >/dev/null || fail "local sweep"
say "local sweep done"
# The grid holds a saturated point ("stable": false, its runs exit 3): a result, not a failed task.
# (The column named "stable": the grid's parameters, and the seeds, come before it.)
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "stable") c = i; next }
         c && $c == "false" { found = 1 } END { exit !found }' grid/sweep.csv ||
  fail "no unstable point in the grid"
cmp grid/sweep.csv local/sweep.csv || fail "sweep.csv differs from the local sweep"
n=0
while IFS=$'\t' read -r d _; do
  [ "$d" = dir ] && continue
  # All but the one line that measures this machine's wall time (wall_seconds).
  cmp <(grep -v '"wall_seconds"' "grid/$d/results.json") \
    <(grep -v '"wall_seconds"' "local/$d/results.json") || fail "$d/results.json differs"
  n=$((n + 1))
done <grid/manifest.tsv
[ "$n" = "$runs" ] || fail "$n results compared for $runs runs"
say "sweep.csv ($(($(wc -l <grid/sweep.csv) - 1)) points) and $n results.json equal the local sweep's"
