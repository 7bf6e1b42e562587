#!/usr/bin/env bash
# End-to-end test of the seis-wave executable: a run killed part way (kill -9 after its first checkpoint) and
# restarted writes a seismogram byte-identical to an uninterrupted run's; python3-segyio reads it with the sample
# interval and receiver coordinates in the headers; bad input exits 2 with a message naming the value.
# usage: seis_wave_cli.sh SEIS_WAVE WORKDIR
set -euo pipefail
exe=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
# The tuners' cache of this test only: a user's cached winners must not change what is tested.
export SEIS_TUNING_CACHE="$work/tuning.json"
common=(--grid 64x60x50 --spacing 20 --model layered --duration 1.0 --f0 12 --ndamp 8 --quiet
        --receivers 160,600,200:1100,600,200:48)

"$exe" "${common[@]}" --output "$work/whole" > "$work/whole.log"

"$exe" "${common[@]}" --output "$work/killed" --checkpoint-every 40 > "$work/killed.log" &
pid=$!
for _ in $(seq 600); do
  [ -e "$work/killed/checkpoint.bin" ] && break
  sleep 0.05
done
kill -9 "$pid" 2>/dev/null || { echo "FAIL: the run ended before it could be killed" >&2; exit 1; }
wait "$pid" 2>/dev/null || true
[ ! -e "$work/killed/seismogram.sgy" ] || { echo "FAIL: the killed run wrote a seismogram" >&2; exit 1; }
"$exe" "${common[@]}" --output "$work/killed" --checkpoint-every 40 --restart > "$work/restart.log"
grep -q "restarted from .* at step" "$work/restart.log"
cmp "$work/whole/seismogram.sgy" "$work/killed/seismogram.sgy"
echo "restart: seismogram identical ($(grep -o 'at step [0-9]*' "$work/restart.log"))"

for f in shot-gather.png wavefield-final-xz.png wavefield-final-xy.png wavefield-final.f32 wavefield-final.f32.json run.json; do
  [ -s "$work/whole/$f" ] || { echo "FAIL: $f missing" >&2; exit 1; }
done

/usr/bin/python3 - "$work/whole/seismogram.sgy" "$work/whole/run.json" <<'PY'
import json, sys
import numpy as np
import segyio
with segyio.open(sys.argv[1], ignore_geometry=True) as f:
    run = json.load(open(sys.argv[2]))
    dt_us = run["parameters"]["dt_s"] * 1e6
    assert f.tracecount == 48, f.tracecount
    assert abs(segyio.tools.dt(f) - round(dt_us)) < 1, (segyio.tools.dt(f), dt_us)
    assert len(f.samples) == run["parameters"]["steps"]
    h = f.header[47]
    assert h[segyio.TraceField.GroupX] == 110000 and h[segyio.TraceField.SourceGroupScalar] == -100, h
    assert np.isfinite(f.trace.raw[:]).all() and np.abs(f.trace.raw[:]).max() > 0
# No --strategy: the backend's default (two on GPUs, unified on hosts).
gpu = run["provenance"]["backend"] in ("Cuda", "HIP")
assert run["parameters"]["strategy"] == ("two" if gpu else "unified"), run["parameters"]["strategy"]
print("python3-segyio: 48 traces, dt and coordinates as written; default strategy", run["parameters"]["strategy"])
PY

expect_refusal() {  # expect_refusal TEXT ARGS...: exit code 2 and TEXT in the message
  local text=$1; shift
  set +e; "$exe" "$@" > "$work/refusal.log" 2>&1; local rc=$?; set -e
  [ $rc -eq 2 ] && grep -q -- "$text" "$work/refusal.log" ||
    { echo "FAIL: '$*' exited $rc: $(cat "$work/refusal.log")" >&2; exit 1; }
}
expect_refusal "above the stability bound" --grid 32 --ndamp 5 --dt 0.01 --output "$work/x"
expect_refusal "velocity model $work/missing.bin" --grid 32 --ndamp 5 --model "$work/missing.bin" --output "$work/x"
head -c 1000 /dev/zero > "$work/short.bin"
expect_refusal "1000 bytes" --grid 32 --ndamp 5 --model "$work/short.bin" --output "$work/x"
expect_refusal "must be finite and > 0" --grid 32 --ndamp 5 --model homogeneous:0 --output "$work/x"
expect_refusal "source 0 at (5000, 10, 10)" --grid 32 --ndamp 5 --source 5000,10,10 --output "$work/x"
printf 'grid = "32"\nndamp = 5\nduration = 0.1\nfoo = 3\n' > "$work/bad.toml"
expect_refusal "line 4: unknown key 'foo'" --config "$work/bad.toml" --output "$work/x"
# 1250^3: 25 GiB of fields, more than the 24 GiB machine has (and just inside 32-bit offsets)
expect_refusal "MiB are available" --grid 1250 --model homogeneous:2000 --output "$work/x"
echo "refusals: 7 of 7"
# --tune times candidates, runs the winner and caches it; the next run without --tile/--nw uses it, --no-tuned not;
# both write the seismogram of the untuned run (a tile changes no point's arithmetic).
tuned=(--grid 40x36x30 --spacing 20 --duration 0.2 --ndamp 6 --quiet --receivers 100,300,100:600,300,100:8)
"$exe" "${tuned[@]}" --output "$work/plain" --no-tuned > /dev/null
"$exe" "${tuned[@]}" --output "$work/tune" --tune > "$work/tune.log"
grep -q "tuned the step: .* candidates" "$work/tune.log" || { echo "FAIL: no tuning line" >&2; exit 1; }
"$exe" "${tuned[@]}" --output "$work/cached" > /dev/null
for run in tune:tuned cached:cached plain:; do
  state=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['performance']['tuning'])" "$work/${run%%:*}/run.json")
  [ "$state" = "${run#*:}" ] || { echo "FAIL: ${run%%:*} run.json tuning '$state', expected '${run#*:}'" >&2; exit 1; }
  cmp "$work/plain/seismogram.sgy" "$work/${run%%:*}/seismogram.sgy"
done
python3 -c "import json,sys; assert len(json.load(open(sys.argv[1]))) == 1" "$SEIS_TUNING_CACHE"
echo "tuning: tuned, cached and untuned runs agree bitwise"
# A survey in one process (every build; the MPI cases are tests/seis_wave_survey.sh): each shot's gather is its single
# run's; a file naming an unknown key is refused with its line before any shot runs.
printf 'receivers = "100,300,100:600,300,100:8"\n[[shot]]\nsource = "200,300,100"\n[[shot]]\nsource = "500,300,120"\nf0 = 9\n' \
  > "$work/survey.toml"
"$exe" --grid 40x36x30 --spacing 20 --duration 0.2 --ndamp 6 --quiet --no-tuned --survey "$work/survey.toml" --output "$work/survey" > "$work/survey.log"
"$exe" "${tuned[@]}" --no-tuned --benchmark --shot 2 --source 500,300,120 --f0 9 --output "$work/shot2" > /dev/null
cmp "$work/survey/shot-00002.sgy" "$work/shot2/seismogram.sgy"
printf '[[shot]]\nsource = "200,300,100"\nsorce = "1,1,1"\n' > "$work/bad-survey.toml"
set +e
"$exe" "${tuned[@]}" --survey "$work/bad-survey.toml" --output "$work/bad-survey" > "$work/bad-survey.log" 2>&1
code=$?
set -e
[ $code -eq 2 ] && grep -q "bad-survey.toml line 3: unknown key 'sorce'" "$work/bad-survey.log" ||
  { echo "FAIL: bad survey: exit $code: $(cat "$work/bad-survey.log")" >&2; exit 1; }
[ ! -e "$work/bad-survey" ] || { echo "FAIL: a refused survey wrote $work/bad-survey" >&2; exit 1; }
echo "survey: shot 2 identical to its single run; a bad survey file refused with its line"
echo "1 passed, 0 failed"
