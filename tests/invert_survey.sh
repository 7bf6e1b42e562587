# Sourced by the inversion tests of seis-wave: a sphere 8% faster than 2000 m/s (radius 50 m, 115 m deep in a
# 30 x 30 x 24 grid of 10 m) and a survey seen in transmission, its shots at the positions given, 49 receivers
# near the bottom, f0 15 Hz: WORK/true.f32 and WORK/survey.toml, and `common`, the flags of every run on it
# (one dt for the data and the inversion, stable for vmax 2400 m/s, recorded at it: no resampling between them).
# usage: invert_survey WORK SOURCE...
invert_survey() {
  local work=$1
  shift
  /usr/bin/python3 - "$work/true.f32" <<'PY'
import sys
import numpy as np
z, y, x = np.meshgrid(np.arange(24) * 10.0, np.arange(30) * 10.0, np.arange(30) * 10.0, indexing="ij")
inside = (x - 145) ** 2 + (y - 145) ** 2 + (z - 115) ** 2 <= 50.0 ** 2
np.where(inside, 2160.0, 2000.0).astype(np.float32).tofile(sys.argv[1])
PY
  printf 'receivers = "25,25,210:265,265,210:7x7"\nf0 = 15.0\n' > "$work/survey.toml"
  for source in "$@"; do printf '[[shot]]\nsource = "%s"\n' "$source" >> "$work/survey.toml"; done
  common=(--grid 30x30x24 --spacing 10 --ndamp 6 --radius 4 --duration 0.26 --dt 0.001 --trace-dt 0.001 --quiet
          --survey "$work/survey.toml")
}
