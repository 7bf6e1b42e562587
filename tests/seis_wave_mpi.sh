#!/usr/bin/env bash
# MPI end-to-end tests of seis-wave: every decomposition shape of 1, 2, 4 and 8 ranks over x, y and z writes a
# seismogram byte-identical to the one-process build's (seis-wave-serial), for every strategy, radii 4 and 8 (parts
# thinner than 2R included) and both host transports (direct through a shared-memory window, MPI messages), under
# a free surface, with a density that varies, and in a tilted anisotropic medium; a 2x2 run killed part way and restarted from its per-rank checkpoints is identical
# too; a rank that fails (its checkpoint missing) or stalls (SIGSTOP) ends every rank with a message, never a hang.
# usage: seis_wave_mpi.sh SEIS_WAVE SEIS_WAVE_SERIAL WORKDIR
. "$(dirname "$0")/mpi_test.sh"
small=(--grid 40x36x34 --spacing 20 --model layered --duration 0.3 --f0 12 --ndamp 6 --quiet --benchmark
       --source 390,350,330 --receivers 20,340,200:760,360,460:24)
passed=0

same() {  # same NAME RANKS DECOMPOSITION ARGS...: the run's seismogram equals the reference's
  local name=$1 ranks=$2 decomposition=$3; shift 3
  "${launch[@]}" -np "$ranks" "$mpi" "$@" --decomposition "$decomposition" --output "$work/$name" > "$work/$name.log" 2>&1 ||
    { echo "FAIL: $name exited $?: $(tail -5 "$work/$name.log")" >&2; exit 1; }
  cmp "$work/$name/seismogram.sgy" "$work/reference-$reference/seismogram.sgy" ||
    { echo "FAIL: $name ($ranks ranks, $decomposition) differs from the one-process run" >&2; exit 1; }
  passed=$((passed + 1))
}

ranks_of() { echo $(( ${1//x/*} )); }  # 2x2x1 -> 4
for strategy in seven two unified; do
  reference=$strategy
  "$serial" "${small[@]}" --strategy $strategy --output "$work/reference-$reference" > "$work/reference-$reference.log"
  # PYxPZ (x whole) and PXxPYxPZ: x splits fall on 32 points, so 52 (the model's 40 and the layer) split 32 + 20.
  shapes=(1x1 2x1 1x2 2x2 2x1x1 2x2x2)
  [ $strategy != seven ] || shapes+=(4x1 1x4 8x1 1x8 2x4 4x2 2x1x2)
  for shape in "${shapes[@]}"; do  # the default transport: direct (an MPI shared-memory window) on one node
    same "$strategy-$shape" "$(ranks_of "$shape")" "$shape" "${small[@]}" --strategy $strategy
  done
  for shape in 2x1 2x2x1; do  # MPI messages
    same "$strategy-$shape-mpi" "$(ranks_of "$shape")" "$shape" "${small[@]}" --strategy $strategy --halo-transport mpi
  done
done
# A free surface: the top parts mirror their own columns (a second source just below it).
reference=free
"$serial" "${small[@]}" --top free --source 390,350,20 --output "$work/reference-$reference" > "$work/reference-$reference.log"
for shape in 1x2 2x2 1x4 2x1x2; do
  same "free-$shape" "$(ranks_of "$shape")" "$shape" "${small[@]}" --top free --source 390,350,20
done
reference=r8
"$serial" "${small[@]}" --radius 8 --output "$work/reference-r8" > "$work/reference-r8.log"
# 1x4: parts of 11 or 12 planes along z at R = 8 (the model's 34 and the layer), face layers and no core.
for shape in 2x2 1x4 2x1x1 2x2x1; do
  same "r8-$shape" "$(ranks_of "$shape")" $shape "${small[@]}" --radius 8
  same "r8-$shape-mpi" "$(ranks_of "$shape")" $shape "${small[@]}" --radius 8 --halo-transport mpi
done
# A density that varies (Gardner's, of the layered model) under a free surface: halos 2R - 1 deep, each part's density
# read R beyond it, dt the smallest of the parts' bounds; 1x4: parts of 10 planes along z (>= 7).
reference=density
density=("${small[@]}" --density gardner --top free --source 390,350,20)
"$serial" "${density[@]}" --output "$work/reference-density" > "$work/reference-density.log"
for shape in 2x2 1x4 2x1x2; do
  same "density-$shape" "$(ranks_of "$shape")" $shape "${density[@]}"
done
same "density-2x2-mpi" 4 2x2 "${density[@]}" --halo-transport mpi
# A tilted TTI medium, under a free surface and with its layer: two exchanges a step (p and r, then their rotated
# derivatives), the axis read R beyond each part; a source zone across the cuts.
for top in free absorbing; do
  reference=tti-$top
  tti=("${small[@]}" --epsilon 0.2 --delta 0.1 --tilt 30 --azimuth 20 --source-zone 120 --top $top --source 390,350,60)
  "$serial" "${tti[@]}" --output "$work/reference-$reference" > "$work/reference-$reference.log"
  for shape in 2x2 1x4 2x1x2; do
    same "tti-$top-$shape" "$(ranks_of "$shape")" $shape "${tti[@]}"
  done
  same "tti-$top-2x2-mpi" 4 2x2 "${tti[@]}" --halo-transport mpi
done
echo "bitwise: $passed runs of 1 to 8 ranks identical to the one-process seismogram"

# The final wavefield's pictures, their planes gathered from parts split along x, y and z, are the one-process run's.
pictured=()
for a in "${small[@]}"; do [ "$a" = --benchmark ] || pictured+=("$a"); done
"$serial" "${pictured[@]}" --output "$work/pictures-1" > "$work/pictures-1.log"
for shape in 2x2x1 2x1x2; do
  "${launch[@]}" -np 4 "$mpi" "${pictured[@]}" --decomposition $shape --output "$work/pictures-$shape" \
    > "$work/pictures-$shape.log" 2>&1 || { echo "FAIL: pictures-$shape: $(tail -5 "$work/pictures-$shape.log")" >&2; exit 1; }
  for f in wavefield-final-xz.png wavefield-final-xy.png; do
    cmp "$work/pictures-1/$f" "$work/pictures-$shape/$f" ||
      { echo "FAIL: $f of a $shape run differs from the one-process run's" >&2; exit 1; }
  done
done
echo "pictures: the final wavefield's sections of 2x2x1 and 2x1x2 runs are the one-process run's"

# Each rank reads only its part of a model file: raw float32 by rows, SEG-Y by traces (python3-segyio writes it);
# a 1x2x2 split reads a quarter of the samples on each rank, the whole file once in all, and the seismogram is the
# one-process run's.
/usr/bin/python3 - "$work/model.f32" "$work/model.sgy" <<'PY'
import sys
import numpy as np
import segyio
nx, ny, nz = 40, 36, 34
v = np.random.default_rng(7).uniform(1500, 3000, size=(nz, ny, nx)).astype(np.float32)
v.tofile(sys.argv[1])
spec = segyio.spec()
spec.format, spec.samples, spec.tracecount = 5, list(range(nz)), nx * ny
with segyio.create(sys.argv[2], spec) as f:
    for t, trace in enumerate(v.reshape(nz, ny * nx).T):  # trace j nx + i holds (i, j, 0..nz-1)
        f.trace[t] = np.ascontiguousarray(trace)
PY
for format in f32 sgy; do
  reference=model-$format
  model=("${small[@]/#layered/$work/model.$format}")  # --model FILE instead of the built-in model
  "$serial" "${model[@]}" --output "$work/reference-$reference" > "$work/$reference.log"
  same "model-$format-1x2x2" 4 1x2x2 "${model[@]}"
  python3 - "$work/model-$format-1x2x2/run.json" $((40 * 36 * 34 * 4)) <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))["decomposition"]
total, largest, samples = d["model_bytes_read_total"], d["model_bytes_read_max_rank"], int(sys.argv[2])
sys.exit(0 if total == samples and largest * 4 == samples else f"read {total} bytes, {largest} on one rank")
PY
    { echo "FAIL: the ranks of model-$format-1x2x2 did not read a quarter of the model each" >&2; exit 1; }
done
echo "model: 4 ranks read a quarter of the raw and SEG-Y models each, seismograms identical"

grep -q '"halo_transport": "mpi-shared-memory"' "$work/seven-2x2/run.json"
grep -q '"halo_transport": "mpi"' "$work/seven-2x1-mpi/run.json"
grep -q '"parts_x_by_y_by_z": "1x2x4"' "$work/seven-2x4/run.json"
grep -q '"parts_x_by_y_by_z": "2x2x2"' "$work/seven-2x2x2/run.json"

# No --decomposition: the split with the least halo surface for the grid (y of a grid longer in y; z of a cube).
for grid in "32x64x32 1x2x1" "32x32x64 1x1x2" "32 1x1x2"; do
  set -- $grid
  "${launch[@]}" -np 2 "$mpi" --grid "$1" --spacing 20 --ndamp 4 --duration 0.05 --quiet --benchmark \
    --output "$work/default-$1" > "$work/default-$1.log" 2>&1 || { echo "FAIL: default $1" >&2; exit 1; }
  grep -q "\"parts_x_by_y_by_z\": \"$2\"" "$work/default-$1/run.json" ||
    { echo "FAIL: the default decomposition of $1 over 2 ranks is not $2: $(grep parts_x "$work/default-$1/run.json")" >&2; exit 1; }
done

# Restart: SIGTERM to mpirun (it ends every rank) once all four ranks hold two checkpoints, then --restart.
long=(--grid 64x60x50 --spacing 20 --model layered --duration 4.0 --f0 12 --ndamp 8 --quiet --decomposition 2x2
      --receivers 160,600,200:1100,600,200:48)
"$serial" "${long[@]/2x2/1x1}" --output "$work/whole" > "$work/whole.log"
"${launch[@]}" -np 4 "$mpi" "${long[@]}" --output "$work/killed" --checkpoint-every 30 > "$work/killed.log" 2>&1 &
pid=$!
for _ in $(seq 1200); do
  [ "$(ls "$work"/killed/checkpoint.rank000?.bin.previous 2>/dev/null | wc -l)" -eq 4 ] && break
  sleep 0.05
done
kill -TERM "$pid" 2>/dev/null || { echo "FAIL: the run ended before it could be killed" >&2; exit 1; }
wait "$pid" 2>/dev/null || true
[ ! -e "$work/killed/seismogram.sgy" ] || { echo "FAIL: the killed run wrote a seismogram" >&2; exit 1; }
cp -r "$work/killed" "$work/cut-short"
restart() {  # restart NAME: --restart in $work/NAME, which must end with the one-process run's seismogram
  local log=$work/$1-restart.log
  "${launch[@]}" -np 4 "$mpi" "${long[@]}" --output "$work/$1" --checkpoint-every 30 --restart > "$log" 2>&1 ||
    { echo "FAIL: --restart in $1 exited $?: $(grep -h seis-wave "$log" | tail -3)" >&2; ls -l "$work/$1" >&2; exit 1; }
  cmp "$work/whole/seismogram.sgy" "$work/$1/seismogram.sgy" >&2 ||
    { echo "FAIL: --restart in $1 differs from the one-process run" >&2; exit 1; }
}
restart killed
echo "restart: 4 ranks killed and restarted, identical ($(grep -o "at step [0-9]*" "$work/killed-restart.log"))"
# A round cut short: the newest checkpoint of a rank that reached the last round M removed, as if it had been
# stopped before renaming it; every rank holds M - 30 (the killed run's ranks are at most one round apart). A rank
# killed between write_checkpoint's two renames holds its newest as .bin.tmp (--restart completes the rename). A
# leader killed while writing round M + 30 holds it in .tmp too, whole or short: removed with M, or its .tmp would
# stand as the newest beside M - 30, and no step is common (--restart ignores a short .tmp, a unit test checks it).
step_of() { od -An -t d8 -j 8 -N 8 "$1" | tr -d ' '; }  # the header: 8 bytes of magic, then the step
last=0 leader=
for previous in "$work"/cut-short/checkpoint.rank000?.bin.previous; do
  file=${previous%.previous}
  [ -e "$file" ] || file=$file.tmp
  step=$(step_of "$file")
  [ "$step" -le "$last" ] || { last=$step leader=$file; }
done
rm -f "$leader" "${leader%.tmp}.tmp"
restart cut-short
grep -q "at step $((last - 30))\$" "$work/cut-short-restart.log" ||
  { echo "FAIL: a round cut short at step $last restarted $(grep -o 'at step [0-9]*' "$work/cut-short-restart.log")" >&2; exit 1; }
echo "restart: a round cut short at step $last restarted from the previous round (step $((last - 30))), identical"

expect_failure() {  # expect_failure TEXT RANKS ARGS...: non-zero exit within 120 s, TEXT in the output
  local text=$1 ranks=$2; shift 2
  set +e; timeout 120 "${launch[@]}" -np "$ranks" "$mpi" "$@" > "$work/failure.log" 2>&1; local rc=$?; set -e
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q -- "$text" "$work/failure.log" ||
    { echo "FAIL: '$*' exited $rc: $(tail -5 "$work/failure.log")" >&2; exit 1; }
}
# A finished run's ranks all hold its last two rounds: rank 1 keeping only the older and rank 2 only the newer
# have none in common.
rm "$work/cut-short/checkpoint.rank0001.bin" "$work/cut-short/checkpoint.rank0002.bin.previous"
expect_failure "have no step in common" 4 "${long[@]}" --output "$work/cut-short" --restart
rm "$work/cut-short/checkpoint.rank0001.bin.previous"
expect_failure "rank 1: --restart: no usable checkpoint at $work/cut-short/checkpoint.rank0001.bin" 4 \
  "${long[@]}" --output "$work/cut-short" --restart
expect_failure "belongs to another run" 4 "${long[@]/2x2/4x1}" --output "$work/killed" --restart
expect_failure "has 6 parts, the run has 4 MPI ranks" 4 "${long[@]/2x2/3x2}" --output "$work/x"
expect_failure "planes (the stencil radius R) that a halo exchange needs" 8 "${small[@]}" --radius 8 --decomposition 8x1 --output "$work/x"
expect_failure "fewer than 3 parts (at most 2 parts along x)" 3 "${small[@]}" --decomposition 3x1x1 --output "$work/x"
expect_failure "halo transport 'nvlink' is not one of" 2 "${small[@]}" --halo-transport nvlink --output "$work/x"
echo "failures: checkpoints missing or of no common step, another decomposition's and bad decompositions end every rank"

# A stalled rank: the others give up after --mpi-timeout and end the run, whether it stalls in the time loop (a
# halo wait) or before MPI's start-up (rank 1 stops itself before it starts seis-wave: rank 0 waits in MPI_Init,
# which only the watchdog bounds).
stall() {  # NAME SECONDS-BEFORE-STOPPING EXPECTED-MESSAGE [RANK-1-LAUNCHER...]
  local name=$1 delay=$2 expected=$3; shift 3
  local args=(--grid 64x60x50 --ndamp 8 --duration 30 --quiet --decomposition 2x1 --mpi-timeout 3
              --output "$work/$name")
  "${launch[@]}" -np 1 "$mpi" "${args[@]}" : -np 1 "$@" "$mpi" "${args[@]}" > "$work/$name.log" 2>&1 &
  local pid=$!
  if [ "$delay" != 0 ]; then sleep "$delay"; kill -STOP "$(pgrep -P "$pid" | tail -1)"; fi
  for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    pkill -KILL -P "$pid"; kill -KILL "$pid"; echo "FAIL: a rank stalled ($name) hung the run for 60 s" >&2; exit 1
  fi
  set +e; wait "$pid"; local rc=$?; set -e
  [ $rc -ne 0 ] && grep -q "$expected" "$work/$name.log" ||
    { echo "FAIL: run with a rank stalled ($name) exited $rc: $(tail -5 "$work/$name.log")" >&2; exit 1; }
  echo "stall ($name): the waiting rank gave up after 3 s and ended the run (exit $rc): $(grep -m1 "$expected" "$work/$name.log")"
}
stall in-loop 3 "halo exchange of step [0-9]* not complete after 3 s"
stall at-start 0 "rank 0: waited 3 s in MPI_Init_thread" sh -c 'kill -STOP $$; exec "$@"' stopped
echo "1 passed, 0 failed"
