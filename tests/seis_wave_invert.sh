#!/usr/bin/env bash
# Inversion tests of seis-wave (--invert): a sphere 8% faster than 2000 m/s seen in transmission by a two-shot survey
# made by seis-wave, inverted from the homogeneous start: every iterate's outputs written and the misfit falling; an
# inversion stopped after one iterate and continued with --restart, and one in two bands killed mid-run and
# continued, each ending bit for bit where the uninterrupted run ends; data of a stronger, later source inverted with
# each shot's source estimated; the velocity inverted in a density held, and with the density; bad input refused
# before any modelling, naming the value.
# usage: seis_wave_invert.sh SEIS_WAVE WORKDIR
set -euo pipefail
exe=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
export OMP_NUM_THREADS=2
export PYTHONPATH=$(cd "$(dirname "$0")" && pwd)${PYTHONPATH:+:$PYTHONPATH}
fail() { echo "FAIL: $*" >&2; exit 1; }

. "$(dirname "$0")/invert_survey.sh"
invert_survey "$work" 50,50,20 240,240,20
"$exe" "${common[@]}" --model "$work/true.f32" --output "$work/data" > "$work/data.log" ||
  fail "the data: $(tail -3 "$work/data.log")"
bounds=(--invert "$work/data" --vmin 1800 --vmax 2400)
invert=("${common[@]}" --model homogeneous:2000 "${bounds[@]}")

"$exe" "${invert[@]}" --iterations 3 --output "$work/whole" > "$work/whole.log" ||
  fail "the inversion: $(tail -3 "$work/whole.log")"
for i in 0001 0002 0003; do
  for f in model.sgy gradient.sgy model-xz.png model-xy.png change-xz.png change-xy.png; do
    [ -s "$work/whole/iteration-$i/$f" ] || fail "no iteration-$i/$f"
  done
done
grep -q "iteration 3/3: misfit" "$work/whole.log" || fail "no progress line: $(cat "$work/whole.log")"
# The misfit falls at every iterate (5.6 x over three measured); the model is within its bounds and has moved
# towards the sphere there.
/usr/bin/python3 - "$work/whole" "$work/true.f32" <<'PY' || fail "$work/whole"
import json, sys
import numpy as np
import segyio
report = json.load(open(sys.argv[1] + "/inversion.json"))
assert report["state"] == "done" and report["stop"] == "iterations", report
misfits = [report["start_misfit"]] + [i["misfit"] for i in report["iterations"]]
assert [i["iteration"] for i in report["iterations"]] == [1, 2, 3], report["iterations"]
for i in report["iterations"]:
    phases = i["phase_seconds"]
    assert phases["modelling"] > 0 and phases["gradient"] > 0 and phases["reduction"] >= 0, i
    assert phases["model"] > 0 and phases["optimiser"] > 0, i
    assert sum(phases.values()) <= i["seconds"] and i["step"] > 0, i
assert all(b < a for a, b in zip(misfits, misfits[1:])), misfits
assert misfits[-1] < misfits[0] / 3, misfits
with segyio.open(sys.argv[1] + "/iteration-0003/model.sgy", ignore_geometry=True) as f:
    v = segyio.tools.collect(f.trace[:]).reshape(30, 30, 24).transpose(2, 0, 1)  # traces x fastest, samples z
true = np.fromfile(sys.argv[2], np.float32).reshape(24, 30, 30)
assert v.min() >= 1800 and v.max() <= 2400, (v.min(), v.max())
sphere = true > 2000
before, after = np.abs(2000 - true[sphere]).sum(), np.abs(v[sphere] - true[sphere]).sum()
assert after < 0.9 * before, (before, after)
PY

# Stopped after one iterate, continued to three: bit for bit the whole run's last model, and the same history.
"$exe" "${invert[@]}" --iterations 1 --output "$work/parts" > "$work/part1.log" || fail "part 1: $(tail -3 "$work/part1.log")"
"$exe" "${invert[@]}" --iterations 3 --output "$work/parts" --restart > "$work/part2.log" ||
  fail "part 2: $(tail -3 "$work/part2.log")"
cmp "$work/whole/iteration-0003/model.sgy" "$work/parts/iteration-0003/model.sgy" ||
  fail "the restarted inversion's model differs from the whole run's"
same_history() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p + "/inversion.json")) for p in sys.argv[1:3])
assert [i["misfit"] for i in a["iterations"]] == [i["misfit"] for i in b["iterations"]], (a, b)
PY
}
same_history "$work/whole" "$work/parts" || fail "the restarted inversion's misfits differ"

# In two bands (low-passed below 8 Hz, then 16), two iterates each, the second band starting from the first's end,
# the gradient smoothed, from a run file (its keys in any order).
cat > "$work/banded.toml" <<TOML
invert = "$work/data"
bands = [8.0, 16.0]
gradient-smoothing = 15.0
iterations = 2
vmin = 1800
vmax = 2400
model = "homogeneous:2000"
TOML
banded=("${common[@]}" --config "$work/banded.toml")
"$exe" "${banded[@]}" --output "$work/banded" > "$work/banded.log" || fail "in bands: $(tail -3 "$work/banded.log")"
grep -q "iteration 4/4 (band 2, below 16 Hz): misfit" "$work/banded.log" || fail "no band in: $(cat "$work/banded.log")"
/usr/bin/python3 - "$work/banded" <<'PY' || fail "$work/banded/inversion.json"
import json, sys
report = json.load(open(sys.argv[1] + "/inversion.json"))
assert report["bands"] == [8, 16] and report["state"] == "done", report
its = report["iterations"]
assert [(i["iteration"], i["band"], i["band_iteration"]) for i in its] == [(1, 0, 1), (2, 0, 2), (3, 1, 1), (4, 1, 2)], its
assert [i["corner_hz"] for i in its] == [8, 8, 16, 16], its
assert its[1]["misfit"] < its[0]["misfit"] and its[3]["misfit"] < its[2]["misfit"], its
PY
# Killed in the first band (once its first state is written) and in the second (once the state after its first
# iterate, the third, is written), each continued: the same end.
for stop in 1 3; do
  out=$work/killed-$stop last=$work/killed-$stop/iteration-000$stop/change-xy.png
  "$exe" "${banded[@]}" --output "$out" > "$out.log" 2>&1 &
  pid=$!
  for _ in $(seq 1200); do
    [ -s "$last" ] && [ "$out/inversion-state.bin" -nt "$last" ] && break
    sleep 0.1
  done
  kill -9 "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
  [ -s "$out/inversion-state.bin" ] || fail "no state written before the kill: $(tail -3 "$out.log")"
  "$exe" "${banded[@]}" --output "$out" --restart > "$out-restart.log" ||
    fail "after the kill: $(tail -3 "$out-restart.log")"
  cmp "$work/banded/iteration-0004/model.sgy" "$out/iteration-0004/model.sgy" ||
    fail "the inversion killed after iterate $stop and continued differs from the whole run's"
  same_history "$work/banded" "$out" || fail "the inversion killed after iterate $stop: its misfits differ"
done

# The observed gathers as a source 1.5 x as strong and 2 ms late would record them (the data so filtered): from the
# same start, each shot's source estimated (a filter reaching 4 ms each way, 9 taps) takes the wavelet's change up.
# The estimate minimises J over the filter and g = 1.5 delta(t - 2 ms) is one, so the start's misfit is at most J
# at g: 1.5^2 x the unscaled data's start misfit plus g's damping term (10^-3 of the data's energy / 2 x 1.5^2);
# without the estimate the start's misfit is many times that.
mkdir -p "$work/late"
cp "$work"/data/shot-*.sgy "$work/late/"
/usr/bin/python3 - "$work/late" <<'PY'
import glob, sys
import numpy as np
import segyio
for path in glob.glob(sys.argv[1] + "/shot-*.sgy"):
    with segyio.open(path, "r+", ignore_geometry=True) as f:
        for i in range(f.tracecount):
            t = np.asarray(f.trace[i], dtype=np.float32)
            f.trace[i] = np.concatenate([np.zeros(2, np.float32), 1.5 * t[:-2]]).astype(np.float32)
PY
late=("${common[@]}" --model homogeneous:2000 --invert "$work/late" --vmin 1800 --vmax 2400)
"$exe" "${late[@]}" --iterations 2 --source-estimate 0.004 --output "$work/estimated" > "$work/estimated.log" ||
  fail "with the source estimated: $(tail -3 "$work/estimated.log")"
"$exe" "${late[@]}" --iterations 1 --output "$work/unestimated" > /dev/null ||
  fail "the late data without the estimate"
/usr/bin/python3 - "$work" <<'PY' || fail "the source estimate"
import glob, json, sys
import numpy as np
import segyio
work = sys.argv[1]
estimated = json.load(open(work + "/estimated/inversion.json"))
plain = json.load(open(work + "/unestimated/inversion.json"))["start_misfit"]
unscaled = json.load(open(work + "/whole/inversion.json"))["start_misfit"]
energy = 0.0
for path in glob.glob(work + "/late/shot-*.sgy"):
    with segyio.open(path, ignore_geometry=True) as f:
        energy += 0.001 * float((segyio.tools.collect(f.trace[:]).astype(np.float64) ** 2).sum())
bound = 1.5**2 * unscaled + 1e-3 * energy / 2 * 1.5**2
start = estimated["start_misfit"]
misfits = [start] + [i["misfit"] for i in estimated["iterations"]]
assert start <= bound * (1 + 1e-5), (start, bound)
assert start < plain / 4, (start, plain)
assert all(b < a for a, b in zip(misfits, misfits[1:])), misfits
filters = estimated["iterations"][-1]["source_filters"]
assert len(filters) == 2 and all(len(f) == 9 for f in filters), filters
print(f"source estimate: the start's misfit {start:.3e} (bound {bound:.3e}; without the estimate {plain:.3e}), "
      f"falling to {misfits[-1]:.3e} in two iterates")
PY

# In a density that varies (1800 kg/m^3 above 2400 from 120 m down, the data's too), held: the velocity inverted in
# the density form; its misfits fall, and its start's is not the constant density's.
/usr/bin/python3 -c "
import numpy as np
z = np.arange(24)[:, None, None] * np.ones((1, 30, 30))
np.where(z < 12, 1800.0, 2400.0).astype(np.float32).tofile('$work/rho.f32')"
"$exe" "${common[@]}" --model "$work/true.f32" --density "$work/rho.f32" --output "$work/dense-data" > /dev/null ||
  fail "the density's data"
"$exe" "${common[@]}" --model homogeneous:2000 --density "$work/rho.f32" --invert "$work/dense-data" --vmin 1800 \
  --vmax 2400 --iterations 2 --output "$work/dense" > "$work/dense.log" || fail "in a density: $(tail -3 "$work/dense.log")"
"$exe" "${common[@]}" --model homogeneous:2000 --invert "$work/dense-data" --vmin 1800 --vmax 2400 --iterations 1 \
  --output "$work/dense-constant" > /dev/null || fail "the density's data at constant density"
/usr/bin/python3 - "$work" <<'PY' || fail "the inversion in a density"
import json, sys
work = sys.argv[1]
dense = json.load(open(work + "/dense/inversion.json"))
constant = json.load(open(work + "/dense-constant/inversion.json"))["start_misfit"]
misfits = [dense["start_misfit"]] + [i["misfit"] for i in dense["iterations"]]
assert all(b < a for a, b in zip(misfits, misfits[1:])), misfits
assert misfits[0] != constant, (misfits[0], constant)
print(f"in a density: misfit {misfits[0]:.3e} -> {misfits[-1]:.3e} (the start at constant density: {constant:.3e})")
PY

# The density inverted too, from 2000 kg/m^3 everywhere between 1700 and 2600, on the same data: the misfit falls,
# each iterate writes the density's model, gradient and pictures, both parameters stay within their bounds and the
# density's error falls (0.2% in two iterates: the data see it little). seis_wave_invert_mpi.sh restarts it.
/usr/bin/python3 -c "import numpy as np; np.full((24, 30, 30), 2000.0, np.float32).tofile('$work/rho0.f32')"
both=("${common[@]}" --model homogeneous:2000 --density "$work/rho0.f32" --invert "$work/dense-data" --vmin 1800
      --vmax 2400 --density-min 1700 --density-max 2600)
"$exe" "${both[@]}" --iterations 2 --output "$work/both" > "$work/both.log" || fail "both: $(tail -3 "$work/both.log")"
for f in density.sgy density-gradient.sgy density-xz.png density-xy.png density-change-xz.png density-change-xy.png; do
  [ -s "$work/both/iteration-0002/$f" ] || fail "no iteration-0002/$f"
done
grep -q "density within 1700-2600 kg/m^3" "$work/both.log" || fail "no density bounds: $(head -2 "$work/both.log")"
/usr/bin/python3 - "$work" <<'PY' || fail "the density inverted"
import json, sys
import numpy as np
from segy_traces import volume
work = sys.argv[1]
report = json.load(open(work + "/both/inversion.json"))
misfits = [report["start_misfit"]] + [i["misfit"] for i in report["iterations"]]
assert all(b < a for a, b in zip(misfits, misfits[1:])), misfits
assert report["density_bounds"] == [1700, 2600], report["density_bounds"]
rho = volume(work + "/both/iteration-0002/density.sgy", (24, 30, 30))
v = volume(work + "/both/iteration-0002/model.sgy", (24, 30, 30))
true = np.fromfile(work + "/rho.f32", np.float32).reshape(24, 30, 30)
assert 1700 <= rho.min() and rho.max() <= 2600 and 1800 <= v.min() and v.max() <= 2400, (rho.min(), rho.max())
before, after = np.abs(2000 - true).sum(), np.abs(rho - true).sum()
assert after < before, (before, after)
print(f"density inverted: misfit {misfits[0]:.3e} -> {misfits[-1]:.3e}, the density's error {before:.4g} -> {after:.4g}")
PY

# Refusals, each before any modelling.
refused() {  # refused MESSAGE ARGS...: exit 2, MESSAGE in stderr
  local message=$1
  shift
  set +e
  "$exe" "$@" > "$work/refused.log" 2>&1
  local code=$?
  set -e
  [ "$code" -eq 2 ] || fail "exit $code (not 2) for $*: $(tail -2 "$work/refused.log")"
  grep -qF -- "$message" "$work/refused.log" || fail "'$message' not in: $(cat "$work/refused.log")"
}
refused "--invert needs the velocity's bounds: --vmin 0 and --vmax 2400" "${common[@]}" --invert "$work/data" \
  --vmax 2400 --output "$work/r1"
refused "starting velocity 1700 m/s at point 0 lies outside the bounds 1800 to 2400" "${common[@]}" \
  --model homogeneous:1700 "${bounds[@]}" --output "$work/r2"
refused "misfit 'l1': the choices are l2" "${invert[@]}" --misfit l1 --output "$work/r3"
refused "the bands' corner frequencies must rise" "${invert[@]}" --bands 16,8 --output "$work/r5"
refused "--gradient-smoothing -5 m must be finite and >= 0" "${invert[@]}" --gradient-smoothing -5 --output "$work/r7"
refused "--source-estimate fits the l2 misfit's wavelet; --misfit normalised" "${invert[@]}" --misfit normalised \
  --source-estimate 0.004 --output "$work/r8"
refused "corner frequency 400 Hz: it must be positive and 1.5 x it below the data's Nyquist frequency 500 Hz" \
  "${invert[@]}" --bands 400 --output "$work/r6"
refused "--density-min 1700 and --density-max 2600 kg/m^3 invert the density: they need --invert, a starting --density" \
  "${invert[@]}" --density-min 1700 --density-max 2600 --output "$work/r9"
refused "the starting density 2000 kg/m^3 at point 0 lies outside the bounds 2100 to 2600" "${both[@]/1700/2100}" \
  --output "$work/r10"
refused "they differ in density_bounds" "${both[@]/2600/2700}" --restart --output "$work/both"
refused "holds an earlier run's outputs (inversion-state.bin, inversion.json" "${invert[@]}" --output "$work/whole"
refused "they differ in vmax" "${invert[@]/2400/2500}" --restart --output "$work/whole"
refused "$work/r4/inversion-state.bin cannot be read: no inversion to continue there" "${invert[@]}" --restart --output "$work/r4"
echo "seis_wave_invert: all passed"
