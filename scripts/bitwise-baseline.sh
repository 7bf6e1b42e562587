#!/usr/bin/env bash
# Bits that a refactoring must not change: a few seis-wave runs (a forward shot with its wavefield, every strategy
# of it, one under a free surface, one in a variable density under it, a survey, its migration by correlation and by
# the exact adjoint in an isotropic and in a tilted medium, Born modelling), their outputs' SHA-256 listed one per line. `record` writes the list to
# perf/results/bitwise-baseline/COMMIT.txt; `check FILE` runs them again and compares with FILE, naming each output
# that changed. Small grids: about a minute on 2 cores.
# usage: scripts/bitwise-baseline.sh SEIS_WAVE record|check [FILE]
set -euo pipefail
exe=$(realpath "$1") mode=$2 against=${3:+$(realpath "$3")}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/bitwise-baseline.XXXX)
trap 'rm -rf "$work"' EXIT
export SEIS_TUNING_CACHE="$work/tuning.json"
cd "$work"
common=(--grid 56x48x40 --spacing 20 --ndamp 6 --model layered --duration 0.5 --quiet)
run() { local name=$1; shift; "$exe" "${common[@]}" "$@" --output "$work/$name" > "$work/$name.log" 2>&1; }

run forward --source 560,480,120 --receivers 140,480,140:960,480,140:24
run forward-free-surface --top free --source 560,480,20 --receivers 0,480,10:1100,480,10:24
run forward-density --density gardner --top free --source 560,480,20 --receivers 0,480,10:1100,480,10:24
for strategy in two unified seven; do
  run "benchmark-$strategy" --source 560,480,120 --receivers 140,480,140:960,480,140:24 \
    --strategy "$strategy" --benchmark
done
cat > survey.toml <<'TOML'
receivers = "300,300,140:800,600,140:6x5"
[[shot]]
source = "450,400,160"
[[shot]]
source = "650,500,160"
f0 = 6.0
TOML
run survey --survey survey.toml --receivers 300,300,140:800,600,140:6x5
for condition in correlation adjoint; do
  run "migration-$condition" --survey survey.toml --receivers 300,300,140:800,600,140:6x5 --migrate survey \
    --imaging-condition "$condition" --smooth 60
done
# The same survey's migration in a tilted anisotropic medium: each shot moves the source zones on both sides.
for condition in correlation adjoint; do
  run "tti-migration-$condition" --survey survey.toml --receivers 300,300,140:800,600,140:6x5 --migrate survey \
    --imaging-condition "$condition" --epsilon 0.25 --delta 0.1 --tilt 30 --azimuth 20
done
# A perturbation of 50 m/s in a box, as a raw float32 model file.
/usr/bin/python3 - <<'PY'
import numpy as np
dv = np.zeros((40, 48, 56), dtype=np.float32)
dv[18:24, 20:28, 24:32] = 50.0
dv.tofile("perturbation.f32")
PY
run born --source 560,480,120 --receivers 300,300,140:800,600,140:6x5 --born perturbation.f32

list=$work/list.txt
for name in forward forward-free-surface forward-density benchmark-two benchmark-unified benchmark-seven survey \
            migration-correlation migration-adjoint tti-migration-correlation tti-migration-adjoint born; do
  find "$name" -type f \( -name '*.sgy' -o -name '*.f32' -o -name '*.bin' \) | sort | while read -r f; do
    echo "$(sha256sum < "$f" | cut -c1-64)  $f"
  done
done > "$list"
case "$mode" in
  record)
    commit=$(git -C "$root" rev-parse --short HEAD)
    mkdir -p "$root/perf/results/bitwise-baseline"
    cp "$list" "$root/perf/results/bitwise-baseline/$commit.txt"
    echo "$(wc -l < "$list") outputs recorded in perf/results/bitwise-baseline/$commit.txt" ;;
  check)
    if diff <(sort -k2 "$against") <(sort -k2 "$list") > "$work/diff.txt"; then
      echo "bitwise: all $(wc -l < "$list") outputs as in $3"
    else
      echo "CHANGED against $3:"; cat "$work/diff.txt"; exit 1
    fi ;;
  *) echo "usage: $0 SEIS_WAVE record|check [FILE]" >&2; exit 2 ;;
esac
