# Sourced by the MPI shell tests (usage: TEST.sh SEIS_WAVE SEIS_WAVE_SERIAL WORKDIR): `mpi`, `serial` and `work` from
# the arguments, a fresh WORKDIR, one OpenMP thread a rank, `launch` (mpirun oversubscribed, unbound, root allowed)
# and `fail MESSAGE`.
set -euo pipefail
mpi=$1 serial=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
export OMP_NUM_THREADS=1
launch=(mpirun --oversubscribe --bind-to none)
[ "$(id -u)" -ne 0 ] || launch+=(--allow-run-as-root)
fail() { echo "FAIL: $*" >&2; exit 1; }
