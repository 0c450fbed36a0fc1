"""One run of the dynamic-PMNB config on the cycle model, for the heavy-load scripts
(tb/pmnb_heavy_load.sh, tb/pmnb_long_windows.sh): ideal mode (configs/papers/pmnb/dynamic_iii_6.yaml:
output-queued store-and-forward all-port nodes, theorem periods, t_p = 1), d, algorithm, load and
window set on the command line, warm-up a tenth of the window. Returns its results.json."""
import json
import subprocess

CFG = "configs/papers/pmnb/dynamic_iii_6.yaml"


def run(sy, out, d, alg, rho, L, measure, seed=None):
    args = [sy, "run", CFG, "--quiet", "--out", out, "--set", f"topology.dim={d}",
            "--set", f"traffic.packet_flits={L}", "--set", f"traffic.broadcast.scheme={alg}",
            "--set", f"traffic.load.rho={rho:.6f}", "--set", f"simulation.measure={measure}",
            "--set", f"simulation.warmup={measure // 10}",
            "--set", f"simulation.drain_limit={4 * measure}"]
    if seed is not None:
        args += ["--set", f"simulation.seed={seed}"]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in (0, 3):  # 3: flagged unstable, a result here
        raise SystemExit(" ".join(args) + "\n" + p.stderr)
    with open(f"{out}/results.json") as f:
        return json.load(f)


def limit17(sy, out, d, alg):
    """The theorem's stability limit in load.rho units, read from a short run of the model (the
    theorem's rho is lambda N X, the config's lambda (N - 1) / d)."""
    t = run(sy, out, d, alg, 0.01, d, 200)["pmnb"]["theorem"]
    return t["stability_limit_rho"] * t["rho_17"] / t["rho"]
