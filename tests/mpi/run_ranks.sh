#!/usr/bin/env bash
# Runs a test binary on N MPI ranks of this machine (one OpenMP thread each): mpirun as the MPI shell tests launch it.
# usage: run_ranks.sh N BINARY [ARGS...]
set -euo pipefail
ranks=$1; shift
launch=(mpirun --oversubscribe --bind-to none -np "$ranks" -x OMP_NUM_THREADS=1 -x OMP_PROC_BIND=false)
[ "$(id -u)" -ne 0 ] || launch+=(--allow-run-as-root)
exec "${launch[@]}" "$@"
