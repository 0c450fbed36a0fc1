#!/bin/bash
# switchyard run --emit-slurm: the batch script asks Slurm for the ranks, and run by hand (as a
# job's shell would, outside Slurm: mpirun starts the ranks here) it writes the results of the
# one-process run.   emit_slurm_check.sh SWITCHYARD CONFIG
set -eu
sw=$1 cfg=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$sw" run "$cfg" --emit-slurm job.sh --ranks 3 --nodes 1 --out across --set traffic.rate=0.05
grep -qx '#SBATCH --ntasks=3' job.sh
grep -qx '#SBATCH --nodes=1' job.sh
grep -q '^mpirun -np 3 .* run .* --quiet --accept-unstable --out .across.$' job.sh
! grep -q 'cpus-per-task\|PE=' job.sh
# Threads in each rank: T CPUs a task, T cores a rank.
"$sw" run "$cfg" --emit-slurm job4.sh --ranks 2 --out across4 --set simulation.threads=4
grep -qx '#SBATCH --cpus-per-task=4' job4.sh
grep -q '^mpirun -np 2 --map-by slot:PE=4 .* run ' job4.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
bash job.sh
"$sw" run "$cfg" --out one --quiet --set traffic.rate=0.05
diff <(grep -v '"wall_seconds"' one/results.json) <(grep -v '"wall_seconds"' across/results.json)
echo "the emitted job's results are the one-process run's"
