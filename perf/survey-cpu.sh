#!/usr/bin/env bash
# Issue 36's CPU target: 8 small shots on 2 MPI ranks (one core each) against the serial sum of the same 8 shots run
# one by one as single runs (one core), and against the same survey on one rank, on this machine. Prints each
# figure and the ratios wall / (sum / 2).
# usage: perf/survey-cpu.sh SEIS_WAVE(MPI build) WORKDIR [seis-wave arguments for every shot]
set -euo pipefail
mpi=$1 work=$2; shift 2
rm -rf "$work" && mkdir -p "$work"
export OMP_NUM_THREADS=1
launch=(mpirun --oversubscribe --bind-to core)
[ "$(id -u)" -ne 0 ] || launch+=(--allow-run-as-root)
args=(--grid 96x96x64 --model layered --ndamp 10 --duration 0.8 --quiet "$@")
{
  echo 'receivers = "200,960,240:1700,960,240:64"'
  for s in 1 2 3 4 5 6 7 8; do printf '[[shot]]\nsource = "%d,960,240"\n' $((200 + 180 * s)); done
} > "$work/survey.toml"
now() { date +%s.%N; }
start=$(now)
for s in 1 2 3 4 5 6 7 8; do
  "${launch[@]}" -np 1 "$mpi" "${args[@]}" --benchmark --shot "$s" --source "$((200 + 180 * s)),960,240" \
    --receivers 200,960,240:1700,960,240:64 --output "$work/single-$s" > "$work/single-$s.log"
done
serial=$(awk "BEGIN{print $(now) - $start}")
start=$(now)
"${launch[@]}" -np 1 "$mpi" "${args[@]}" --survey "$work/survey.toml" --output "$work/survey-1" > "$work/survey-1.log"
one=$(awk "BEGIN{print $(now) - $start}")
start=$(now)
"${launch[@]}" -np 2 "$mpi" "${args[@]}" --survey "$work/survey.toml" --output "$work/survey" > "$work/survey.log"
wall=$(awk "BEGIN{print $(now) - $start}")
for s in 1 2 3 4 5 6 7 8; do cmp "$work/single-$s/seismogram.sgy" "$work/survey/shot-0000$s.sgy"; done
echo "8 single runs one after the other (1 core each, mpirun and start-up included): $serial s"
echo "survey on 2 ranks (1 core each, mpirun and start-up included): $wall s"
echo "the survey on 1 rank (its set-up paid once): $one s"
awk "BEGIN{printf \"wall / (serial sum / 2) = %.3f (target <= 1.1); against the 1-rank survey: %.3f\n\", $wall / ($serial / 2), $wall / ($one / 2)}"
echo "every gather identical to its single run"
