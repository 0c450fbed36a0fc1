#!/usr/bin/env bash
# Thread scaling on another machine (issue 35; docs/design.md, "Scaling, measured").
#   tb/scale_device.sh prepare [BASE_BINARY]   # here: devrun/ (ignored) gets build/switchyard,
#                                              # its shared libraries and loader, the configs
#   bash devrun/scale.sh                       # there (the device's run tool carries devrun/):
#                                              # the bench --threads table, the 65,536-router
#                                              # torus, and BASE_BINARY on the same configs
#   bash devrun/long64k.sh                     # there: 150,000 cycles of the 65,536-router
#                                              # torus on 16 threads (about 5 minutes)
#   bash devrun/ranks.sh                       # there, when build/switchyard links MPI: the
#                                              # ranks table (tb/bench_ranks.sh) with Debian's
#                                              # Open MPI carried in devrun/mpi (no install)
# The program runs through the carried loader, so the other machine's libraries do not matter.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = prepare ] || { echo "usage: $0 prepare [BASE_BINARY]" >&2; exit 2; }
rm -rf devrun
mkdir -p devrun/lib devrun/cfg
cp build/switchyard devrun/switchyard
[ -n "${2:-}" ] && cp "$2" devrun/switchyard.base
for l in $(ldd build/switchyard | awk '/=>/{print $3} /ld-linux/{print $1}'); do cp -L "$l" devrun/lib/; done
for d in "16, 16, 16:500:2000:16c" "32, 32, 32:300:1000:32c" "16, 16, 16, 16:1000:19000:64k"; do
  IFS=: read -r dims w m name <<< "$d"
  printf 'topology: {type: torus, dims: [%s]}\nrouter: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\ntraffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}\nsimulation: {warmup: %s, measure: %s, seed: 1, threads: 16}\n' \
    "$dims" "$w" "$m" > "devrun/cfg/${name}_t16.yaml"
done
cat > devrun/scale.sh <<'RUN'
#!/bin/bash
set -u
cd "$(dirname "$0")"
L=$PWD/lib
sy() { "$L/ld-linux-x86-64.so.2" --library-path "$L" "$@"; }
out=${OUT:-/tmp/scale-out}
mkdir -p "$out"
exec > >(tee "$out/scale.txt") 2>&1
date; nproc; lscpu | grep -E "Model name|Socket|Core|Thread|NUMA node\(s\)|L3"
echo "== bench --threads 1,2,4,8,16 --repeat 3"
sy ./switchyard bench --threads 1,2,4,8,16 --repeat 3
if [ -x ./switchyard.base ]; then
  echo "== BASE_BINARY: bench --threads 16 --repeat 3"
  sy ./switchyard.base bench --threads 16 --repeat 3
fi
echo "== 16x16x16x16 (65,536 routers)"
sy ./switchyard bench --threads 1,16 --only 16x16x16x16
echo "== 16x16x16x16 on 16 threads, 20,000 cycles (the 1,000,000-cycle projection; peak memory)"
( "$L/ld-linux-x86-64.so.2" --library-path "$L" ./switchyard run cfg/64k_t16.yaml \
    --out "$out/n_64k" > "$out/64k.txt" 2>&1 &
  pid=$!; peak=0
  while kill -0 $pid 2>/dev/null; do
    r=$(awk '/VmHWM/{print $2}' /proc/$pid/status 2>/dev/null); [ -n "$r" ] && peak=$r; sleep 1
  done
  echo "peak resident ${peak} kB (VmHWM, sampled each second)" )
grep -E "stable|latency" "$out/64k.txt" | head -3
grep -o '"wall_seconds": [0-9.]*\|"cycles": [0-9]*' "$out/n_64k/results.json" | head -3
rm -rf "$out/n_64k"
for c in 16c_t16 32c_t16; do
  SWITCHYARD_LANE_PROFILE=1 sy ./switchyard run cfg/$c.yaml --out "$out/n_$c" 2>&1 | grep "parallel parts"
  echo "new $c: $(grep -o '"wall_seconds": [0-9.]*' "$out/n_$c/results.json")"
  if [ -x ./switchyard.base ]; then
    sy ./switchyard.base run cfg/$c.yaml --out "$out/b_$c" > /dev/null 2>&1
    echo "base $c: $(grep -o '"wall_seconds": [0-9.]*' "$out/b_$c/results.json")"
    cmp <(grep -v wall_seconds "$out/n_$c/results.json") \
        <(grep -v wall_seconds "$out/b_$c/results.json") && echo "  results.json identical"
  fi
  rm -rf "$out/n_$c" "$out/b_$c"
done
date
RUN
cat > devrun/long64k.sh <<'RUN'
#!/bin/bash
# 16x16x16x16 torus on 16 threads, 150,000 cycles: cycles/s over a longer stretch, peak memory.
cd "$(dirname "$0")"
L=$PWD/lib
out=${OUT:-/tmp/long-out}
mkdir -p "$out"
sed 's/measure: 19000/measure: 149000/' cfg/64k_t16.yaml > cfg/64k_long.yaml
"$L/ld-linux-x86-64.so.2" --library-path "$L" ./switchyard run cfg/64k_long.yaml --out "$out/r" \
  > "$out/run.txt" 2>&1 &
pid=$!; peak=0; s=0
while kill -0 $pid 2>/dev/null; do
  r=$(awk '/VmHWM/{print $2}' /proc/$pid/status 2>/dev/null); [ -n "$r" ] && peak=$r
  s=$((s+1)); [ $((s % 60)) -eq 0 ] && echo "t=${s}s VmHWM ${peak} kB"
  sleep 1
done
echo "peak resident ${peak} kB"
grep -E "stable|latency|cycles" "$out/run.txt" | head -8
grep -o '"wall_seconds": [0-9.]*\|"cycles": [0-9]*' "$out/r/results.json" | head -3
rm -rf "$out/r"
RUN
chmod +x devrun/scale.sh devrun/long64k.sh
if ldd build/switchyard | grep libmpi > /dev/null; then  # (not -q: with pipefail, ldd's SIGPIPE fails it)
  # Open MPI's files from this machine's packages, kept under devrun/mpi (nothing is installed
  # there): mpirun and the ranks run through the carried loader, the components are found
  # through OMPI_MCA_/PMIX_MCA_mca_base_component_path.
  mkdir -p devrun/mpi
  for p in libopenmpi3 openmpi-bin libpmix2; do
    dpkg -L "$p" | grep -Ev '^/usr/share/(doc|man)|/include/' | while read -r f; do
      if [ -f "$f" ] || [ -L "$f" ]; then mkdir -p "devrun/mpi${f%/*}" && cp -a "$f" "devrun/mpi$f"; fi
    done
  done
  mkdir -p devrun/mpi/usr/share
  cp -a /usr/share/openmpi /usr/share/pmix devrun/mpi/usr/share/ 2>/dev/null || true
  cp -L /usr/bin/time devrun/time.bin
  for f in /usr/bin/orterun /usr/bin/time $(find devrun/mpi -name '*.so*' -type f); do
    ldd "$f" 2>/dev/null | awk '/=>/{print $3}'
  done | sort -u | while read -r l; do [ -e "devrun/lib/$(basename "$l")" ] || cp -L "$l" devrun/lib/; done
  cat > devrun/ranks.sh <<'RUN'
#!/bin/bash
# The ranks table on this machine: tb/bench_ranks.sh with the carried Open MPI.
#   bash devrun/ranks.sh [RANKS (1,2,4,8,16)] [REPEAT (3)] [SIZES (16x16x16)]
# (SY_BIN=switchyard.base: the BASE_BINARY given to prepare, on the same configs.)
set -u
D=$(cd "$(dirname "$0")" && pwd)
L=$D/lib
M=$D/mpi/usr/lib/x86_64-linux-gnu
cat > "$D/sy" <<W
#!/bin/bash
exec "$L/ld-linux-x86-64.so.2" --library-path "$L:$M:$M/openmpi/lib" "$D/${SY_BIN:-switchyard}" "\$@"
W
cat > "$D/mpirun" <<W
#!/bin/bash
exec "$L/ld-linux-x86-64.so.2" --library-path "$L:$M:$M/openmpi/lib" "$D/mpi/usr/bin/orterun" "\$@"
W
cat > "$D/time" <<W
#!/bin/bash
exec "$L/ld-linux-x86-64.so.2" --library-path "$L" "$D/time.bin" "\$@"
W
chmod +x "$D/sy" "$D/mpirun" "$D/time"
export OMPI_MCA_mca_base_component_path=$M/openmpi/lib/openmpi3
export PMIX_MCA_mca_base_component_path=$M/pmix2/lib/pmix
export OPAL_PKGDATADIR=$D/mpi/usr/share/openmpi PMIX_PKGDATADIR=$D/mpi/usr/share/pmix
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_osc=^ucx,pt2pt OMPI_MCA_mtl=^ofi
export OMPI_MCA_btl_base_warn_component_unused=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
export SWITCHYARD=$D/sy MPIRUN=$D/mpirun TIME_CMD=$D/time
cd "$D/.."
bash tb/bench_ranks.sh "${1:-1,2,4,8,16}" "${2:-3}" "${3:-16x16x16}"
RUN
  cat > devrun/ranks_table.sh <<'RUN'
#!/bin/bash
# The ranks measurement (docs/design.md, "Network ranks"), in parts:
#   bash devrun/ranks_table.sh [table] [hybrid] [ab]   (default: table; output $OUT/ranks-PART.txt)
# table: ranks, ranks x threads and threads alone on the same machine (about 2.5 min on 16
# cores); hybrid: ranks x threads with mpirun --bind-to none (about 1.2 min); ab: BASE_BINARY
# against this one on the same configs, and where a rank's time goes (SWITCHYARD_LANE_PROFILE).
set -u
D=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/ranks-out}
mkdir -p "$out"
L=$D/lib
sy() { "$L/ld-linux-x86-64.so.2" --library-path "$L" "$D/switchyard" "$@"; }
r() { echo "== $*"; timeout 400 env "$@"; }
table() {
  r bash "$D/ranks.sh" 1,2 1 8x8x8
  r bash "$D/ranks.sh" 1,2,4,8,16 3 16x16x16
  r THREADS=2 bash "$D/ranks.sh" 1,2,4,8 3 16x16x16
  r THREADS=4 bash "$D/ranks.sh" 1,2,4 3 16x16x16
  r THREADS=8 bash "$D/ranks.sh" 1,2 3 16x16x16
  echo "== threads alone: bench --threads 1,2,4,8,16 --repeat 3 --only 16x16x16"
  sy bench --threads 1,2,4,8,16 --repeat 3 --only 16x16x16
  r bash "$D/ranks.sh" 1,2,4,8,16 1 32x32x32
  r THREADS=4 bash "$D/ranks.sh" 4 1 32x32x32
  r THREADS=8 bash "$D/ranks.sh" 2 1 32x32x32
  echo "== threads alone: bench --threads 16 --only 32x32x32"
  sy bench --threads 16 --only 32x32x32
  r bash "$D/ranks.sh" 16 1 16x16x16x16
  r THREADS=4 bash "$D/ranks.sh" 4 1 16x16x16x16
  echo "== threads alone: bench --threads 16 --only 16x16x16x16"
  sy bench --threads 16 --only 16x16x16x16
}
hybrid() {  # (Open MPI binds each rank to one core when -np is 2 or less)
  local b="MPIRUN_ARGS=--bind-to none"
  r "$b" THREADS=8 bash "$D/ranks.sh" 1,2 3 16x16x16
  r "$b" THREADS=4 bash "$D/ranks.sh" 2,4 3 16x16x16
  r "$b" THREADS=2 bash "$D/ranks.sh" 2,8 3 16x16x16
  r "$b" bash "$D/ranks.sh" 2,16 3 16x16x16
  r "$b" THREADS=8 bash "$D/ranks.sh" 2 1 32x32x32
  r "$b" THREADS=4 bash "$D/ranks.sh" 4 1 32x32x32
  r "$b" THREADS=2 bash "$D/ranks.sh" 8 1 32x32x32
  r "$b" bash "$D/ranks.sh" 16 1 32x32x32
  r "$b" THREADS=8 bash "$D/ranks.sh" 2 1 16x16x16x16
  r "$b" THREADS=4 bash "$D/ranks.sh" 4 1 16x16x16x16
  r "$b" bash "$D/ranks.sh" 16 1 16x16x16x16
}
ab() {
  [ -x "$D/switchyard.base" ] || { echo "no BASE_BINARY (prepare BASE_BINARY)"; return; }
  for bin in switchyard.base switchyard switchyard.base switchyard; do
    r SY_BIN=$bin bash "$D/ranks.sh" 4,8,16 3 16x16x16
  done
  for bin in switchyard.base switchyard; do
    r SY_BIN=$bin bash "$D/ranks.sh" 16 1 32x32x32,16x16x16x16
  done
  echo "== where a rank's time goes: 16 ranks, 16x16x16 (SWITCHYARD_LANE_PROFILE=1)"
  printf 'topology: {type: torus, dims: [16, 16, 16]}\nrouter: {buffering: input_vc, switching: wormhole, vcs: 2, vc_depth: 4}\ntraffic: {process: bernoulli, rate: 0.1, packet_flits: 8, pattern: uniform}\nsimulation: {warmup: 500, measure: 2000, seed: 1}\n' > "$D/cfg/16c_t1.yaml"
  (export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
   export OMPI_MCA_mca_base_component_path=$D/mpi/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
   export PMIX_MCA_mca_base_component_path=$D/mpi/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
   SWITCHYARD_LANE_PROFILE=1 timeout 120 "$D/mpirun" -x SWITCHYARD_LANE_PROFILE -np 16 "$D/sy" run \
     "$D/cfg/16c_t1.yaml" --out /tmp/prof --quiet 2>&1 | grep "rank" | sort -t' ' -k3 -n)
  echo "== the threads' warning: 2 ranks x 8 threads, Open MPI's default binding"
  (export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
   export OMPI_MCA_mca_base_component_path=$D/mpi/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
   export PMIX_MCA_mca_base_component_path=$D/mpi/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
   timeout 120 "$D/mpirun" -np 2 "$D/sy" run "$D/cfg/16c_t16.yaml" --set simulation.threads=8 \
     --out /tmp/warn --quiet 2>&1 | grep -i "warning" | head -3)
}
for part in "${@:-table}"; do
  echo "== part $part: $(date)"
  "$part" 2>&1 | tee "$out/ranks-$part.txt"
done
date
RUN
  chmod +x devrun/ranks.sh devrun/ranks_table.sh
fi
echo "devrun/ ready ($(du -sh devrun | cut -f1))"
