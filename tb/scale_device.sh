#!/usr/bin/env bash
# Thread scaling on another machine (issue 35; docs/design.md, "Scaling, measured").
#   tb/scale_device.sh prepare [BASE_BINARY]   # here: devrun/ (ignored) gets build/switchyard,
#                                              # its shared libraries and loader, the configs
#   bash devrun/scale.sh                       # there (the device's run tool carries devrun/):
#                                              # the bench --threads table, the 65,536-router
#                                              # torus, and BASE_BINARY on the same configs
#   bash devrun/long64k.sh                     # there: 150,000 cycles of the 65,536-router
#                                              # torus on 16 threads (about 5 minutes)
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
echo "devrun/ ready ($(du -sh devrun | cut -f1))"
