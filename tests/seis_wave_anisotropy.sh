#!/usr/bin/env bash
# End-to-end test of seis-wave's anisotropic media: Thomsen's epsilon from a model file and delta, tilt and azimuth as
# numbers (degrees) reach the TTI step as meant, the source zone takes the S wave away, and what it cannot run is
# refused, naming the value.
# usage: seis_wave_anisotropy.sh SEIS_WAVE WORKDIR
set -euo pipefail
exe=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
# A VTI medium (epsilon = delta = 0.2, v 2000 m/s; elliptical: where epsilon > delta the pseudo-acoustic S mode, slow
# and strong near the source, would take the traces' peaks): a wave crossing the symmetry axis travels at v sqrt(1 +
# 2 epsilon) = 2366 m/s, one along it at v. A shot recorded 300 and 500 m away along x: with the axis vertical (tilt 0)
# the wave crosses it, tilted 90 degrees towards x it travels along it, turned 90 degrees more in azimuth (towards y)
# it crosses it again. The speed is 200 m over the delay between the traces' positive peaks, held to 5%: enough to
# tell the two speeds (18% apart) and so the parameters' wiring, degrees and files; the traces' shapes differ (the
# near field, 2.7 and 4.6 wavelengths out) by 3% of the delay, and the library measures the speeds to 0.5%
# (tstAnisotropy.hpp).
/usr/bin/python3 -c "
import numpy as np
np.full(81 * 9 * 61, 0.2, dtype=np.float32).tofile('$work/epsilon.bin')"
shot=(--grid 81x9x61 --spacing 10 --model homogeneous:2000 --epsilon "$work/epsilon.bin" --f0 18 --duration 0.32
      --ndamp 16 --source 100,40,300 --quiet)
base=("${shot[@]}" --receivers 400,40,300:600,40,300:2)
common=("${base[@]}" --delta 0.2)
"$exe" "${common[@]}" --output "$work/vti" > /dev/null
"$exe" "${common[@]}" --tilt 90 --output "$work/along" > /dev/null
"$exe" "${common[@]}" --tilt 90 --azimuth 90 --output "$work/across" > /dev/null
/usr/bin/python3 - "$work" <<'PY' || { echo "FAIL: the anisotropic speeds" >&2; exit 1; }
import sys
import numpy as np
import segyio
work = sys.argv[1]
fast, slow = 2000 * np.sqrt(1.4), 2000.0  # epsilon 0.2
for run, want in [("vti", fast), ("along", slow), ("across", fast)]:
    with segyio.open(f"{work}/{run}/seismogram.sgy", ignore_geometry=True) as f:
        near, far, dt = f.trace[0], f.trace[1], segyio.tools.dt(f) * 1e-6
    speed = 200 / ((np.argmax(far) - np.argmax(near)) * dt)
    print(f"{run}: {speed:.0f} m/s, the medium's {want:.0f}")
    assert abs(speed / want - 1) < 0.05, (run, speed, want)
PY

# The source zone: epsilon 0.2 (the file), delta 0, two receivers 42 and 85 m from the source at 45 degrees to the
# axis, where the S wave's diamond, slow, comes after the P wave. After the P wave has passed them (its tail by
# 0.15 s), the traces with the default zone must hold under a tenth of what they hold with --source-zone 0 (rms).
near=(--delta 0 --receivers 130,40,330:160,40,360:2)
"$exe" "${shot[@]}" "${near[@]}" --source-zone 0 --output "$work/unzoned" > /dev/null
"$exe" "${shot[@]}" "${near[@]}" --output "$work/zoned" > /dev/null
/usr/bin/python3 - "$work" <<'PY' || { echo "FAIL: the source zone" >&2; exit 1; }
import sys
import numpy as np
import segyio
left = {}
for run in ["unzoned", "zoned"]:
    with segyio.open(f"{sys.argv[1]}/{run}/seismogram.sgy", ignore_geometry=True) as f:
        late = int(0.15 / (segyio.tools.dt(f) * 1e-6))
        left[run] = np.sqrt(np.mean(segyio.tools.collect(f.trace[:])[:, late:] ** 2))
print(f"source zone: after the P wave {left['zoned']:.3g} with it, {left['unzoned']:.3g} without")
assert left["zoned"] < 0.1 * left["unzoned"], left
PY

# A free surface: zero pressure on it (a receiver there records nothing at all) and the wave below it.
"$exe" "${shot[@]}" --delta 0.2 --top free --receivers 400,40,0:400,40,100:2 --output "$work/free" > /dev/null
/usr/bin/python3 - "$work" <<'PY' || { echo "FAIL: the free surface" >&2; exit 1; }
import sys
import numpy as np
import segyio
with segyio.open(f"{sys.argv[1]}/free/seismogram.sgy", ignore_geometry=True) as f:
    surface, below = f.trace[0], f.trace[1]
print(f"free surface: max |p| {np.abs(surface).max():.3g} on it, {np.abs(below).max():.3g} 100 m below")
assert np.all(surface == 0) and np.abs(below).max() > 0
PY
# Born modelling in a tilted medium (the S mode about, the source's zone automatic): the data's change for a velocity
# bump of 2% at most in a ball 150 m below the receivers' depth, against half the difference of two runs with the bump
# added and taken away. Their difference errs from Born's by the third-order term, (4%)^2 / 6 of q's change, and the
# float32 rounding of two runs over their difference (~1e-4): 1% allowed (the library holds Born to it over random
# media). The ball stays off the model's faces, beyond which the model is extended into the layer and Born's change is
# not; one point of every model at the bump's top speed, far from the paths, gives the three runs one absorbing layer
# (its damping follows the model's largest velocity).
/usr/bin/python3 -c "
import numpy as np
z, y, x = np.meshgrid(np.arange(61), np.arange(9), np.arange(81), indexing='ij')
r = np.sqrt((x * 10 - 400.0) ** 2 + (y * 10 - 40.0) ** 2 + (z * 10 - 450.0) ** 2)
dv = np.where(r < 30, 40 * np.cos(np.pi * r / 60) ** 2, 0).astype(np.float32)
v = np.full(dv.shape, 2000, dtype=np.float32)
v[-1, 0, 0] = 2040
dv.tofile('$work/dv.bin')
v.tofile('$work/background.bin')
(v + dv).astype(np.float32).tofile('$work/plus.bin')
(v - dv).astype(np.float32).tofile('$work/minus.bin')"
tilted=("${base[@]/homogeneous:2000/$work/background.bin}" --delta 0.1 --tilt 30)
"$exe" "${tilted[@]/background.bin/plus.bin}" --output "$work/plus" > /dev/null
"$exe" "${tilted[@]/background.bin/minus.bin}" --output "$work/minus" > /dev/null
"$exe" "${tilted[@]}" --born "$work/dv.bin" --output "$work/born" > /dev/null
/usr/bin/python3 - "$work" <<'PY' || { echo "FAIL: Born modelling in a tilted medium" >&2; exit 1; }
import sys
import numpy as np
import segyio
data = {}
for run in ["plus", "minus", "born"]:
    with segyio.open(f"{sys.argv[1]}/{run}/seismogram.sgy", ignore_geometry=True) as f:
        data[run] = segyio.tools.collect(f.trace[:]).astype(np.float64)
difference = (data["plus"] - data["minus"]) / 2
error = np.linalg.norm(data["born"] - difference) / np.linalg.norm(difference)
print(f"Born in a tilted medium: {error:.2e} of the central difference")
assert np.abs(difference).max() > 0 and error < 0.01, error
PY
expect_refusal() {  # expect_refusal TEXT ARGS...: exit code 2 and TEXT in the message
  local text=$1; shift
  set +e; "$exe" "$@" > "$work/refusal.log" 2>&1; local rc=$?; set -e
  [ $rc -eq 2 ] && grep -q -- "$text" "$work/refusal.log" ||
    { echo "FAIL: '$*' exited $rc: $(cat "$work/refusal.log")" >&2; exit 1; }
}
expect_refusal "has epsilon 0.2 < delta 0.3" "${base[@]}" --delta 0.3 --output "$work/x"
expect_refusal "inversion runs in isotropic media only" "${common[@]}" \
  --invert "$work/vti/seismogram.sgy" --vmin 1500 --vmax 3000 --output "$work/x"
expect_refusal "source-zone -5 m must be >= 0" "${common[@]}" --source-zone -5 --output "$work/x"
expect_refusal "the zone of an anisotropic medium" --grid 20 --source-zone 30 --output "$work/x"
expect_refusal "constant density" "${common[@]/homogeneous:2000/layered}" --density gardner --output "$work/x"
expect_refusal "epsilon model $work/missing.bin" "${common[@]/$work\/epsilon.bin/$work/missing.bin}" --output "$work/x"
echo "anisotropy: speeds as the medium's, the source zone, the free surface, Born modelling, 6 refusals"
