#!/usr/bin/env bash
# Many seeds of one dynamic-PMNB point at once, on a machine with many cores (issue 36: d = 10,
# algorithm III at 0.8 of the theorem's stability limit, where one 30,000-cycle window holds only
# about 38 periods). Every number is the cycle model's; the theorem's T is printed beside it.
#   tb/pmnb_seeds_device.sh prepare      # here: devrun/ (ignored) gets build/switchyard, its
#                                        # shared libraries and loader, the config, run.sh
#   bash devrun/run.sh                   # there (the device's run tool carries devrun/): SEEDS
#                                        # runs in parallel, each results.json into $OUT/seed-K
#   tb/pmnb_seeds_device.sh summary DIR  # here: mean over seeds with a t-interval, and pooled
#                                        # (DIR holds seeds.tgz, unpacked there, or seed-K/)
# Knobs (environment, at prepare): D=10 RHO=0.503941 (0.8 of the limit for d = 10, t_p = 1)
# WARMUP=25000 MEASURE=55000 SEEDS=16.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
prepare)
  rm -rf devrun
  mkdir -p devrun/lib
  cp build/switchyard devrun/switchyard
  for l in $(ldd build/switchyard | awk '/=>/{print $3} /ld-linux/{print $1}'); do cp -L "$l" devrun/lib/; done
  cp configs/papers/pmnb/dynamic_iii_6.yaml devrun/dynamic.yaml
  cat > devrun/run.sh <<RUN
#!/bin/bash
set -u
cd "\$(dirname "\$0")"
L=\$PWD/lib
out=\${OUT:-/tmp/pmnb-seeds}
mkdir -p "\$out"
nproc; lscpu | grep -E "Model name" || true
one() {
  "\$L/ld-linux-x86-64.so.2" --library-path "\$L" ./switchyard run dynamic.yaml --quiet \\
    --out "\$out/seed-\$1" --set topology.dim=${D:-10} --set traffic.packet_flits=${D:-10} \\
    --set traffic.broadcast.scheme=pmnb_iii --set traffic.load.rho=${RHO:-0.503941} \\
    --set simulation.warmup=${WARMUP:-25000} --set simulation.measure=${MEASURE:-55000} \\
    --set simulation.drain_limit=400000 --set simulation.seed=\$1 > "\$out/seed-\$1.log" 2>&1
  echo "seed \$1 rc \$? \$(date +%T)"
}
export -f one; export L out
date +%T
seq 1 ${SEEDS:-16} | xargs -P ${SEEDS:-16} -I{} bash -c 'one {}'
date +%T
# The run tool brings back a few files only: one archive of every seed's results.json.
(cd "\$out" && tar czf seeds.tgz seed-* && rm -rf seed-*)
ls -l "\$out"
RUN
  echo "devrun/ ready: $(du -sh devrun | cut -f1)" ;;
summary)
  [ -f "$2/seeds.tgz" ] && { mkdir -p "$2/x" && tar xzf "$2/seeds.tgz" -C "$2/x" && set -- "$1" "$2/x"; }
  /usr/bin/python3 - "$2" <<'PY'
import glob, json, math, sys
rows = []
for f in sorted(glob.glob(sys.argv[1] + "/seed-*/results.json")):
    r = json.load(open(f))
    p, t = r["pmnb"], r["pmnb"]["theorem"]
    rows.append((p["delay_to_period_end_slots"], p["periods"], t["T"], r["stable"], p["a_measured"]))
n = len(rows)
m = sum(x[0] for x in rows) / n
sd = math.sqrt(sum((x[0] - m) ** 2 for x in rows) / (n - 1)) if n > 1 else float("nan")
tq = {2: 12.71, 4: 3.18, 8: 2.36, 12: 2.20, 16: 2.13, 32: 2.04}.get(n, 2.0)
pooled = sum(x[0] * x[1] for x in rows) / sum(x[1] for x in rows)
print(f"seeds {n}, periods {sum(x[1] for x in rows)}, stable {sum(1 for x in rows if x[3])}")
print(f"model T over seeds: {m:.1f} +- {tq * sd / math.sqrt(n):.1f} (95%, t over seed means); "
      f"period-weighted {pooled:.1f}")
print(f"theorem T (with each run's measured a): {sum(x[2] for x in rows) / n:.1f} "
      f"(min {min(x[2] for x in rows):.1f}, max {max(x[2] for x in rows):.1f})")
for x in rows:
    print(f"  T {x[0]:.1f} periods {x[1]} theorem {x[2]:.1f} a {x[4]:.4f} stable {x[3]}")
PY
  ;;
*) echo "usage: $0 prepare | summary DIR" >&2; exit 2 ;;
esac
