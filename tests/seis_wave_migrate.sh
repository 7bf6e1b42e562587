#!/usr/bin/env bash
# Migration tests of seis-wave (MPI build, --oversubscribe): a survey's gathers, made by seis-wave, migrated on one
# rank and on two (each shot imaged once, the stacks summing to the same image); one shot by flags equal, bit for
# bit, to a one-shot survey; a shot whose gather cannot be read recorded while the others are imaged, and the
# restart imaging it alone; a migration killed mid-survey and restarted, its stacked shots not run again; bad
# input refused before any propagation, naming the value.
# usage: seis_wave_migrate.sh SEIS_WAVE SEIS_WAVE_SERIAL WORKDIR
. "$(dirname "$0")/mpi_test.sh"

# Two layers, 2000 over 2400 m/s below 255 m; four shots at 100 m depth, lines of receivers along x and along y.
/usr/bin/python3 - "$work/model.f32" <<'PY'
import sys
import numpy as np
v = np.full((40, 40, 40), 2000, np.float32)
v[26:] = 2400
v.tofile(sys.argv[1])
PY
cat > "$work/survey.toml" <<'TOML'
receivers = "80,200,100:320,200,100:25"
f0 = 15.0
[[shot]]
source = "150,200,100"
[[shot]]
source = "250,200,100"
[[shot]]
source = "200,150,100"
receivers = "200,80,100:200,320,100:25"
[[shot]]
source = "200,250,100"
receivers = "200,80,100:200,320,100:25"
TOML
common=(--grid 40 --spacing 10 --ndamp 8 --model "$work/model.f32" --duration 0.36 --quiet)
"$serial" "${common[@]}" --survey "$work/survey.toml" --output "$work/data" > "$work/data.log"
migrate=("${common[@]}" --survey "$work/survey.toml" --migrate "$work/data" --smooth 40 --mute-velocity 2000)

stacked() {  # stacked DIR: prints the shots its stacks hold, sorted
  /usr/bin/python3 - "$1" <<'PY'
import glob, struct, sys
shots = []
for path in sorted(glob.glob(sys.argv[1] + "/stack-*.bin")):
    data = open(path, "rb").read()
    assert data[:8] == b"SEISSTK3", path
    count = struct.unpack_from("<i", data, 20)[0]
    shots += struct.unpack_from("<%di" % count, data, 36)
assert len(shots) == len(set(shots)), shots
print(" ".join(str(s) for s in sorted(shots)))
PY
}
# Re-associating the sum of 4 float32 shot images moves each point by a few 2^-24 of the terms; 1e-5 of the largest
# |value| allows a hundred times that, while a shot missing or counted twice moves the image by its own size.
close_images() {  # close_images A B
  /usr/bin/python3 - "$1" "$2" <<'PY' || fail "$1 and $2 differ"
import sys
import numpy as np
import segyio
def image(path):
    with segyio.open(path, ignore_geometry=True) as f:
        return segyio.tools.collect(f.trace[:]).astype(np.float64)
a, b = image(sys.argv[1]), image(sys.argv[2])
scale = np.abs(a).max()
assert scale > 0, "an empty image"
assert np.abs(a - b).max() <= 1e-5 * scale, (np.abs(a - b).max(), scale)
PY
}
status_of() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['status'])" "$1"; }

"$serial" "${migrate[@]}" --output "$work/one" > "$work/one.log" || fail "one rank: $(tail -3 "$work/one.log")"
[ "$(stacked "$work/one")" = "1 2 3 4" ] || fail "one rank's stack holds $(stacked "$work/one")"
for f in image.sgy illumination.sgy image-xz.png image-xy.png illumination-xz.png migration.json; do
  [ -s "$work/one/$f" ] || fail "one rank: no $f"
done
/usr/bin/python3 - "$work/one/migration.json" <<'PY' || fail "$work/one/migration.json"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["status"]["done"] == 4, m["status"]
assert all(s["forward_seconds"] > 0 and s["backward_seconds"] > 0 and s["gpts_per_s"] > 0 for s in m["shot"])
assert all(s["compulsory_bytes_per_point"] >= 32 for s in m["shot"])  # two simulations, 16 B a point and step at least
assert m["migration"]["imaging_interval"] >= 1 and m["migration"]["device_bytes"] > 0, m["migration"]
PY
"${launch[@]}" -np 2 "$mpi" "${migrate[@]}" --output "$work/two" > "$work/two.log" 2>&1 ||
  fail "two ranks: $(tail -3 "$work/two.log")"
[ "$(stacked "$work/two")" = "1 2 3 4" ] || fail "two ranks' stacks hold $(stacked "$work/two")"
[ "$(ls "$work"/two/stack-*.bin | wc -l)" = 2 ] || fail "two ranks wrote $(ls "$work"/two/stack-*.bin | wc -l) stacks"
close_images "$work/one/image.sgy" "$work/two/image.sgy"
echo "survey: 4 shots imaged on one rank and on two (each once), the images equal within 1e-5"

# One shot by flags is the one-shot survey of the same shot, bit for bit.
printf 'f0 = 15.0\n[[shot]]\nsource = "150,200,100"\nreceivers = "80,200,100:320,200,100:25"\n' > "$work/first.toml"
"$serial" "${common[@]}" --survey "$work/first.toml" --migrate "$work/data" --output "$work/first" > /dev/null
"$serial" "${common[@]}" --migrate "$work/data/shot-00001.sgy" --f0 15 --source 150,200,100 \
  --receivers 80,200,100:320,200,100:25 --output "$work/flags" > /dev/null
cmp "$work/first/image.sgy" "$work/flags/image.sgy" || fail "a shot by flags differs from its one-shot survey"
echo "single shot: by flags, bit for bit the one-shot survey's image"

# A gather that cannot be read (a directory holds its name): shot 3 failed, the rest imaged, exit 1; the restart
# images shot 3 alone.
mkdir -p "$work/broken" && cp "$work"/data/shot-0000[124].sgy "$work/broken/" && mkdir "$work/broken/shot-00003.sgy"
broken=("${common[@]}" --survey "$work/survey.toml" --migrate "$work/broken" --smooth 40 --mute-velocity 2000)
set +e
"$serial" "${broken[@]}" --output "$work/failing" > "$work/failing.log" 2>&1
code=$?
set -e
[ $code -eq 1 ] || fail "a migration with a failing shot exited $code, not 1"
[ "$(status_of "$work/failing/shot-00003.json")" = failed ] || fail "shot 3 not recorded as failed"
[ "$(stacked "$work/failing")" = "1 2 4" ] || fail "the stack holds $(stacked "$work/failing")"
rmdir "$work/broken/shot-00003.sgy" && cp "$work/data/shot-00003.sgy" "$work/broken/"
"$serial" "${broken[@]}" --output "$work/failing" --restart > "$work/failing-restart.log" 2>&1 ||
  fail "restart after the failure: $(tail -3 "$work/failing-restart.log")"
grep -q "1 to image, 3 stacked already" "$work/failing-restart.log" || fail "the restart imaged stacked shots again"
[ "$(stacked "$work/failing")" = "1 2 3 4" ] || fail "after the restart the stacks hold $(stacked "$work/failing")"
close_images "$work/one/image.sgy" "$work/failing/image.sgy"
echo "failure: shot 3's unreadable gather recorded, the others imaged, exit 1; the restart imaged shot 3 alone"

# Killed once a stack is written (a stack after every shot); the restart runs only what no stack holds.
"$serial" "${migrate[@]}" --stack-every 0 --output "$work/killed" > "$work/killed.log" 2>&1 &
pid=$!
for _ in $(seq 600); do
  ! ls "$work"/killed/stack-*.bin > /dev/null 2>&1 || break
  sleep 0.05
done
kill -9 $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
before=$(stacked "$work/killed")
[ -n "$before" ] && [ "$before" != "1 2 3 4" ] || fail "the kill did not land mid-migration (stacked: '$before')"
declare -A started
for n in $before; do started[$n]=$(grep '"started"' "$work/killed/shot-0000$n.json"); done
"$serial" "${migrate[@]}" --output "$work/killed" --restart > "$work/killed-restart.log" 2>&1 ||
  fail "restart after the kill: $(tail -3 "$work/killed-restart.log")"
for n in $before; do
  [ "${started[$n]}" = "$(grep '"started"' "$work/killed/shot-0000$n.json")" ] || fail "shot $n was imaged again"
done
[ "$(stacked "$work/killed")" = "1 2 3 4" ] || fail "after the restart the stacks hold $(stacked "$work/killed")"
close_images "$work/one/image.sgy" "$work/killed/image.sgy"
echo "restart: killed with shots $before stacked; those not imaged again, the image as one uninterrupted run's"

# The exact adjoint's image in the density (Gardner's from the two layers): on two ranks, summed over them, as on
# one; a restart with every shot stacked builds it from the stack files alone, as one uninterrupted run's.
adjoint=("${common[@]}" --survey "$work/survey.toml" --migrate "$work/data" --density gardner
  --imaging-condition adjoint --density-image --stack-every 0)
"$serial" "${adjoint[@]}" --output "$work/density-one" > "$work/density-one.log" ||
  fail "density image, one rank: $(tail -3 "$work/density-one.log")"
"${launch[@]}" -np 2 "$mpi" "${adjoint[@]}" --output "$work/density-two" > "$work/density-two.log" 2>&1 ||
  fail "density image, two ranks: $(tail -3 "$work/density-two.log")"
cp "$work/density-two/density-image.sgy" "$work/density-two.sgy"
"$serial" "${adjoint[@]}" --output "$work/density-two" --restart > "$work/density-restart.log" 2>&1 ||
  fail "density image, restart: $(tail -3 "$work/density-restart.log")"
grep -q "0 to image, 4 stacked already" "$work/density-restart.log" || fail "the restart imaged stacked shots again"
close_images "$work/density-one/density-image.sgy" "$work/density-two.sgy"
close_images "$work/density-one/density-image.sgy" "$work/density-two/density-image.sgy"
echo "density image: 4 shots on two ranks and rebuilt from their stacks by a restart, as one rank's within 1e-5"

# Refused before any propagation (exit 2), naming the value.
refused() {  # refused NAME EXPECTED-MESSAGE ARGS...
  local name=$1 message=$2
  shift 2
  set +e
  "$serial" "$@" --output "$work/$name" > "$work/$name.log" 2>&1
  local code=$?
  set -e
  [ $code -eq 2 ] || fail "$name: exit $code, not 2"
  grep -qF "$message" "$work/$name.log" || fail "$name: no '$message' in: $(tail -2 "$work/$name.log")"
  ! ls "$work/$name"/stack-* > /dev/null 2>&1 || fail "$name: a shot was imaged"
}
one=(--migrate "$work/data/shot-00001.sgy" --f0 15 --source 150,200,100)
refused receivers "the run's receiver 2 at (99.58333333, 200, 100) m has no trace within 0.01 m: the nearest is trace 3" \
  "${common[@]}" "${one[@]}" \
  --receivers 90,200,100:320,200,100:25
refused count "25 traces, the run has 24 receivers" "${common[@]}" "${one[@]}" --receivers 80,200,100:310,200,100:24
refused grid "velocity model" --grid 41 --spacing 10 --ndamp 8 --model "$work/model.f32" --duration 0.36 "${one[@]}" \
  --receivers 80,200,100:320,200,100:25
refused duration "need" "${common[@]/0.36/0.5}" "${one[@]}" --receivers 80,200,100:320,200,100:25
refused data "is the observed data's directory" "${common[@]}" --survey "$work/survey.toml" --migrate "$work/data"
echo "refusals: receivers moved, a trace count, another grid, too short a recording, the data's own directory"
