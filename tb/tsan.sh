#!/usr/bin/env bash
# ThreadSanitizer over simulation.threads: builds the program with -fsanitize=thread in
# build-tsan/ (the program only, about 8 minutes on 2 cores the first time) and runs configs that
# use every threaded path (dimension order and adaptive routing, several 64-router blocks and
# lanes with none, two injection channels, packets through their own router, Poisson batches
# delivered locally, a trace with idle gaps, a saturated run stopped early, the staged pipeline
# with its credit wheels and ejections, and its switch knobs) on 2, 3 and 4 threads. Exit 0 when
# ThreadSanitizer reports nothing. Not part of CI (time); run it after a change to the threaded
# code (docs/design.md, "Threads").
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWITCHYARD_TSAN=ON \
  -DSWITCHYARD_TESTS=OFF -DSWITCHYARD_COSIM=OFF > /dev/null
cmake --build build-tsan -j"$(nproc)" --target switchyard > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cfg() { printf '%s\n' "$2" > "$work/$1.yaml"; }
cfg dor "topology: {type: torus, dims: [16, 16]}
router: {buffering: input_vc, vcs: 2, vc_depth: 4}
traffic: {rate: 0.3, packet_flits: 8}
simulation: {warmup: 100, measure: 300}"
cfg adaptive "topology: {type: torus, dims: [8, 8, 4]}
router: {buffering: input_vc, switching: virtual_cut_through, vcs: 3, vc_depth: 4}
routing: {algorithm: minimal_adaptive, selection: random}
traffic: {rate: 0.3, packet_flits: 4}
simulation: {warmup: 100, measure: 300}"
cfg channels "topology: {type: mesh, dims: [10, 10, 6]}
router: {buffering: input_vc, vcs: 2, vc_depth: 2}
network_interface: {injection_channels: 2}
traffic: {rate: 0.2, packet_flits: 1, pattern: uniform, self: through_router}
simulation: {warmup: 100, measure: 200}"
cfg local "topology: {type: torus, dims: [16, 8]}
router: {buffering: input_vc, vcs: 2, vc_depth: 4}
traffic: {process: poisson, rate: 0.15, packet_flits: 2, self: deliver_locally}
simulation: {warmup: 100, measure: 300}"
cfg trace "topology: {type: torus, dims: [12, 12]}
router: {buffering: input_vc, vcs: 2, vc_depth: 2}
traffic:
  type: trace
  messages:
    - {time: 3, src: 0, dst: 143, flits: 4}
    - {time: 3, src: 70, dst: 70, flits: 6}
    - {time: 900, src: 64, dst: 63, flits: 3}"
cfg saturated "topology: {type: torus, dims: [8, 8, 4]}
router: {buffering: input_vc, vcs: 2, vc_depth: 4}
traffic: {rate: 0.9, packet_flits: 8}
simulation: {warmup: 100, measure: 1000, max_backlog_packets: 4000}"
cfg staged "topology: {type: torus, dims: [16, 12]}
router: {buffering: input_vc, vcs: 2, vc_depth: 4,
  pipeline: {rc: 0, va: 1, sa: 1, st: 1, lt: 0, credit_delay: 3, ejection_ports: 2}}
traffic: {rate: 0.15, packet_flits: 5}
simulation: {warmup: 100, measure: 300}"
cfg staged_knobs "topology: {type: mesh, dims: [16, 12]}
router: {buffering: input_vc, vcs: 3, vc_depth: 4, input_speedup: 2, output_speedup: 2,
  hold_switch_for_packet: true, pipeline: {rc: 1, va: 1, sa: 1, st: 1, lt: 1}}
routing: {algorithm: minimal_adaptive}
traffic: {rate: 0.4, packet_flits: 4}
simulation: {warmup: 100, measure: 300, max_backlog_packets: 3000}"
bad=0
for c in dor adaptive channels local trace saturated staged staged_knobs; do
  for k in 2 3 4; do
    log="$work/$c-$k.log"
    TSAN_OPTIONS="halt_on_error=0" ./build-tsan/switchyard run "$work/$c.yaml" \
      --set simulation.threads=$k --out "$work/out-$c-$k" > "$log" 2>&1 || true
    if grep -q "ThreadSanitizer" "$log"; then
      echo "tsan: $c on $k threads: ThreadSanitizer reported (first lines below)"
      grep -m1 -A12 "WARNING: ThreadSanitizer" "$log" || true
      bad=1
    else
      echo "tsan: $c on $k threads: clean"
    fi
  done
done
exit $bad
