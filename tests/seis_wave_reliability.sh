#!/usr/bin/env bash
# Nothing lost, nothing silently wrong: each case a way seis-wave once lost data or answered wrongly with exit 0.
#   overwrite       --overwrite keeps the earlier outputs when the new run is refused, and removes them after it ran
#   survey-restart  a survey's restart with changed inputs is refused, naming what changed, before any shot runs
#   observed-data   a gather holding NaN or inf is refused (trace and sample named); data that overflows the image
#                   stops the migration with exit 1 and no image
#   stacks          a damaged stack, or a restart with other migration parameters, is refused before any shot runs
#   kinds           a run never writes into a directory holding another kind of run's records
#   empty-values    --survey "", --born "", --migrate "" and empty run-file strings are refused
#   not-regular     a FIFO or a directory where a checkpoint, gather, shot record or stack is read is refused at
#                   once; a damaged tuning cache is set aside with a warning
#   free-space      the free-space check counts checkpoints at their size; a full disk says so, exit 1, no temporary
#                   left; a run killed on a nearly full volume restarts there
#   limits          0 steps refused; an oversized survey file refused before it is parsed
#   run-files       wrong types refused (never converted), every refusal with its line, a NUL refused
#   manifest        survey.json is current after every shot (killed mid-survey, it shows the shots done, at most
#                   the one being finished still running)
# usage: seis_wave_reliability.sh SEIS_WAVE WORKDIR CASE
set -euo pipefail
exe=$1 work=$2/$3 case=$3
rm -rf "$work" && mkdir -p "$work"
export SEIS_TUNING_CACHE="$work/tuning.json"
fail() { echo "FAIL ($case): $*" >&2; exit 1; }
# expect CODE TEXT ARGS...: the run exits CODE with TEXT in its output, within 60 s (a hang fails).
expect() {
  local code=$1 text=$2; shift 2
  set +e; timeout 60 "$exe" "$@" > "$work/expect.log" 2>&1; local rc=$?; set -e
  [ $rc -eq "$code" ] && grep -q -- "$text" "$work/expect.log" ||
    fail "'$*' exited $rc (expected $code with '$text'): $(head -c 600 "$work/expect.log")"
}
grid32=(--grid 32 --spacing 10 --ndamp 5 --quiet)
small=("${grid32[@]}" --duration 0.1)
# The runs killed part way a third as long under the sanitizers (40 times slower a step: the kill still lands mid-run).
slow_duration=1.5 survey_duration=1
[ "${SEIS_SANITIZED:-0}" = 1 ] && slow_duration=0.5 survey_duration=0.35
layered=(--grid 24 --spacing 10 --ndamp 8 --model homogeneous:2000 --duration 0.36 --f0 15 --quiet)

case $case in
overwrite)
  "$exe" "${small[@]}" --snapshot-every 20 --output "$work/out" > /dev/null
  cp "$work/out/seismogram.sgy" "$work/first.sgy"
  before=$(ls "$work/out" | sort)
  # Refusals found before and after the output directory is prepared: each must leave the earlier run whole.
  expect 2 "source 0 at" "${small[@]}" --overwrite --output "$work/out" --source 5000,10,10
  expect 2 "above the stability bound" "${small[@]}" --overwrite --output "$work/out" --dt 0.01
  expect 2 "Nyquist" "${small[@]}" --overwrite --output "$work/out" --f0 2000
  expect 2 "must be in 1..8" "${small[@]}" --overwrite --output "$work/out" --radius 9
  [ "$(ls "$work/out" | sort)" = "$before" ] || fail "a refused --overwrite changed the outputs: $(ls "$work/out")"
  cmp "$work/first.sgy" "$work/out/seismogram.sgy" || fail "a refused --overwrite changed the seismogram"
  # A run that goes through replaces them; the earlier run's snapshots, which it does not write, go.
  "$exe" "${small[@]}" --overwrite --output "$work/out" --f0 20 > /dev/null
  ! ls "$work/out"/snapshot-* > /dev/null 2>&1 || fail "the earlier run's snapshots stayed: $(ls "$work/out")"
  ! cmp -s "$work/first.sgy" "$work/out/seismogram.sgy" || fail "--overwrite did not replace the seismogram"
  echo "overwrite: 4 refusals left the earlier run's $(echo "$before" | wc -l) files whole; a run replaced them"
  ;;

survey-restart)
  printf 'receivers = "60,160,60:260,160,60:11"\n[[shot]]\nsource = "100,160,60"\n[[shot]]\nsource = "200,160,60"\n' \
    > "$work/survey.toml"
  /usr/bin/python3 -c "import numpy as np; np.full((32,32,32), 2000, np.float32).tofile('$work/model.f32')"
  run=("${grid32[@]}" --model "$work/model.f32" --survey "$work/survey.toml" --output "$work/s")
  "$exe" "${run[@]}" --duration 0.1 > /dev/null
  cp -r "$work/s" "$work/s-first"
  "$exe" "${run[@]}" --duration 0.1 --restart > "$work/same.log"
  grep -q "0 to run, 2 complete already" "$work/same.log" || fail "an unchanged restart: $(cat "$work/same.log")"
  expect 2 "differ in f0" "${run[@]}" --duration 0.1 --restart --f0 20
  expect 2 "steps" "${run[@]}" --restart --duration 0.12
  expect 2 "R:" "${run[@]}" --duration 0.1 --restart --radius 3
  expect 2 "trace_dt" "${run[@]}" --duration 0.1 --restart --trace-dt 0.002
  sed -i 's/200,160,60/210,160,60/' "$work/survey.toml"
  expect 2 "sources" "${run[@]}" --duration 0.1 --restart
  grep -q "shot-00002" "$work/expect.log" || fail "the refusal does not name the shot: $(cat "$work/expect.log")"
  sed -i 's/210,160,60/200,160,60/' "$work/survey.toml"
  /usr/bin/python3 -c "import numpy as np; v = np.full((32,32,32), 2000, np.float32); v[20:] = 2500; v.tofile('$work/model.f32')"
  expect 2 "model_crc32" "${run[@]}" --duration 0.1 --restart
  for f in shot-00001.sgy shot-00002.sgy; do cmp "$work/s-first/$f" "$work/s/$f" || fail "$f changed"; done
  grep -q '"status": "done"' "$work/s/shot-00001.json" || fail "a refused restart touched shot 1's record"
  echo "survey restart: f0, duration, radius, trace interval, a moved source and the model's content each refused"
  ;;

observed-data)
  "$exe" "${layered[@]}" --source 120,120,20 --receivers 10,120,20:220,120,20:22 --output "$work/data" > /dev/null
  migrate=("${layered[@]}" --source 120,120,20 --receivers 10,120,20:220,120,20:22)
  damage() {  # damage VALUE TRACE SAMPLE: a copy of the gather with one sample set
    /usr/bin/python3 - "$work/data/seismogram.sgy" "$work/$1.sgy" "$1" "$2" "$3" <<'PY'
import shutil, sys
import numpy as np
import segyio
shutil.copy(sys.argv[1], sys.argv[2])
with segyio.open(sys.argv[2], "r+", ignore_geometry=True) as f:
    t = f.trace[int(sys.argv[4])].copy()
    t[int(sys.argv[5])] = float(sys.argv[3])
    f.trace[int(sys.argv[4])] = t
PY
  }
  damage nan 6 40
  expect 2 "trace 7 sample 41 .* is nan: observed data must be finite" "${migrate[@]}" --migrate "$work/nan.sgy" \
    --output "$work/m-nan"
  damage inf 0 3
  expect 2 "trace 1 sample 4 .* is inf" "${migrate[@]}" --migrate "$work/inf.sgy" --output "$work/m-inf"
  /usr/bin/python3 - "$work/data/seismogram.sgy" "$work/huge.sgy" <<'PY'
import shutil, sys
import segyio
shutil.copy(sys.argv[1], sys.argv[2])
with segyio.open(sys.argv[2], "r+", ignore_geometry=True) as f:
    for n in range(f.tracecount):
        t = f.trace[n].copy()
        t[20:60] = 3e38
        f.trace[n] = t
PY
  expect 1 "became non-finite" "${migrate[@]}" --migrate "$work/huge.sgy" --output "$work/m-huge"
  [ ! -e "$work/m-huge/image.sgy" ] || fail "an overflowing migration wrote image.sgy"
  echo "observed data: NaN and inf refused by trace and sample; overflowing amplitudes stopped with exit 1, no image"
  ;;

stacks)
  printf 'receivers = "10,120,20:220,120,20:22"\n[[shot]]\nsource = "70,120,20"\n[[shot]]\nsource = "170,120,20"\n' \
    > "$work/survey.toml"
  "$exe" "${layered[@]}" --survey "$work/survey.toml" --output "$work/data" > /dev/null
  migrate=("${layered[@]}" --survey "$work/survey.toml" --migrate "$work/data" --stack-every 0)
  "$exe" "${migrate[@]}" --output "$work/m" > /dev/null
  cp "$work/m/image.sgy" "$work/image-first.sgy"
  # A third shot, so that a restart has one to image: every refusal must come before it runs.
  printf '[[shot]]\nsource = "120,120,20"\n' >> "$work/survey.toml"
  "$exe" "${layered[@]}" --source 120,120,20 --receivers 10,120,20:220,120,20:22 --shot 3 --output "$work/three" \
    > /dev/null
  cp "$work/three/seismogram.sgy" "$work/data/shot-00003.sgy"
  refused() {  # refused TEXT ARGS...: exit 2 naming TEXT, no shot imaged
    expect 2 "$@"
    ! grep -q "shot 3 imaged" "$work/expect.log" || fail "shot 3 was imaged before the refusal"
  }
  refused "smooth" "${migrate[@]}" --output "$work/m" --restart --smooth 30
  refused "imaging_condition" "${migrate[@]}" --output "$work/m" --restart --imaging-condition adjoint
  refused "mute_velocity" "${migrate[@]}" --output "$work/m" --restart --mute-velocity 2000
  refused "grid" "${layered[@]}" --grid 28 --survey "$work/survey.toml" --migrate "$work/data" --output "$work/m" \
    --restart
  # The observed data of a stacked shot changed: its image in the stack is not of these data.
  cp "$work/data/shot-00001.sgy" "$work/shot-00001.sgy"
  printf 'X' | dd of="$work/data/shot-00001.sgy" bs=1 seek=5000 conv=notrunc status=none
  refused "data_crc32" "${migrate[@]}" --output "$work/m" --restart
  cp "$work/shot-00001.sgy" "$work/data/shot-00001.sgy"
  # One byte of a stack's image flipped, then an illumination zeroed: its CRC fails.
  stack=$(ls "$work"/m/stack-*.bin | head -1)
  cp "$stack" "$work/stack.bin"
  printf '\x7f' | dd of="$stack" bs=1 seek=2000 conv=notrunc status=none
  refused "fails its CRC-32" "${migrate[@]}" --output "$work/m" --restart
  cp "$work/stack.bin" "$stack"
  size=$(stat -c %s "$stack")
  dd if=/dev/zero of="$stack" bs=1 seek=$((size - 4000)) count=4000 conv=notrunc status=none
  refused "fails its CRC-32" "${migrate[@]}" --output "$work/m" --restart
  cp "$work/stack.bin" "$stack"
  "$exe" "${migrate[@]}" --output "$work/m" --restart > "$work/restart.log"
  grep -q "1 to image, 2 stacked already" "$work/restart.log" || fail "the restart: $(cat "$work/restart.log")"
  echo "stacks: smoothing, imaging condition, mute, grid, a stacked shot's data and two damaged stacks refused" \
    "before any shot; the unchanged restart imaged the new shot alone"
  ;;

kinds)
  printf 'receivers = "10,120,20:220,120,20:22"\n[[shot]]\nsource = "70,120,20"\n' > "$work/survey.toml"
  "$exe" "${layered[@]}" --survey "$work/survey.toml" --output "$work/data" > /dev/null
  "$exe" "${layered[@]}" --survey "$work/survey.toml" --output "$work/other" > /dev/null
  cp -r "$work/other" "$work/other-before"
  expect 2 "holds a survey's records" "${layered[@]}" --survey "$work/survey.toml" --migrate "$work/data" \
    --output "$work/other"
  diff -r "$work/other-before" "$work/other" > /dev/null || fail "the refused migration changed the survey's files"
  "$exe" "${layered[@]}" --survey "$work/survey.toml" --migrate "$work/data" --output "$work/image" > /dev/null
  expect 2 "holds a migration's records" "${layered[@]}" --survey "$work/survey.toml" --output "$work/image" --restart
  expect 2 "holds a survey's records" "${layered[@]}" --output "$work/data" --overwrite
  "$exe" "${small[@]}" --output "$work/single" > /dev/null
  expect 2 "holds a single run's records" "${layered[@]}" --survey "$work/survey.toml" --output "$work/single"
  echo "kinds: a migration into a survey's directory, a survey into a migration's or a single run's, a run into a" \
    "survey's: each refused, nothing written"
  ;;

empty-values)
  expect 2 "--survey: an empty value" "${small[@]}" --survey "" --output "$work/x"
  expect 2 "--born: an empty value" "${small[@]}" --born "" --output "$work/x"
  expect 2 "--migrate: an empty value" "${small[@]}" --migrate "" --output "$work/x"
  expect 2 "--model: an empty value" "${small[@]}" --model "" --output "$work/x"
  printf 'grid = "32"\nsurvey = ""\n' > "$work/empty.toml"
  expect 2 "line 2: key 'survey' is empty" --config "$work/empty.toml" --output "$work/x"
  [ ! -e "$work/x" ] || fail "a refused run created its output directory"
  echo "empty values: four flags and a run-file key refused"
  ;;

not-regular)
  "$exe" "${small[@]}" --checkpoint-every 4 --output "$work/ckpt" > /dev/null
  rm "$work/ckpt/checkpoint.bin"
  mkfifo "$work/ckpt/checkpoint.bin"
  expect 2 "checkpoint $work/ckpt/checkpoint.bin is a FIFO" "${small[@]}" --checkpoint-every 4 --output "$work/ckpt" \
    --restart
  mkfifo "$work/gather.sgy"
  expect 2 "gather $work/gather.sgy is a FIFO" "${small[@]}" --migrate "$work/gather.sgy" --output "$work/m1"
  expect 2 "gather $work is a directory" "${small[@]}" --migrate "$work" --output "$work/m2"
  printf 'receivers = "60,160,60:260,160,60:11"\n[[shot]]\nsource = "100,160,60"\n' > "$work/survey.toml"
  "$exe" "${small[@]}" --survey "$work/survey.toml" --output "$work/s" > /dev/null
  rm "$work/s/shot-00001.json" && mkfifo "$work/s/shot-00001.json"
  expect 2 "shot record .*shot-00001.json is a FIFO" "${small[@]}" --survey "$work/survey.toml" --output "$work/s" \
    --restart
  "$exe" "${small[@]}" --survey "$work/survey.toml" --output "$work/data" > /dev/null
  mkdir -p "$work/m3"
  mkfifo "$work/m3/stack-g00001-r00000.bin"
  expect 2 "stack .*stack-g00001-r00000.bin is a FIFO" "${small[@]}" --survey "$work/survey.toml" \
    --migrate "$work/data" --output "$work/m3" --restart
  rm -f "$SEIS_TUNING_CACHE" && mkfifo "$SEIS_TUNING_CACHE"
  expect 0 "tuning cache $SEIS_TUNING_CACHE is a FIFO: set aside" "${small[@]}" --output "$work/tuned"
  printf '{"truncated": ' > "$SEIS_TUNING_CACHE"
  expect 0 "is not JSON: set aside" "${small[@]}" --output "$work/tuned2"
  echo "not regular: a FIFO checkpoint, gather, shot record and stack and a directory gather refused at once;" \
    "a FIFO and a truncated tuning cache set aside"
  ;;

free-space)
  mnt="$work/volume"
  mkdir -p "$mnt"
  # A file system of a known size: tmpfs where this may mount one (root), else the case cannot be made here.
  mount -t tmpfs -o size=12m tmpfs "$mnt" 2> "$work/mount.log" ||
    fail "cannot mount a tmpfs (root needed): $(cat "$work/mount.log")"
  trap 'umount "$mnt" 2>/dev/null || true' EXIT
  # 36^3 (48^3 with the layer) with checkpoints: 2.8 MB each, three generations at once, beside pictures: more than 12 MB.
  ck=(--grid 36 --spacing 10 --ndamp 6 --duration 0.3 --quiet --checkpoint-every 10)
  expect 2 "writes about .* MiB, the file system has" "${ck[@]}" --output "$mnt/run"
  [ -z "$(ls -A "$mnt/run" 2>/dev/null)" ] || fail "the refused run wrote $(ls "$mnt/run")"
  # A disk that fills anyway (a file-size limit standing in for it): "disk full", exit 1, no temporary left.
  set +e
  (trap '' XFSZ; ulimit -f 16; exec "$exe" --grid 28 --ndamp 6 --duration 1 --benchmark --quiet \
    --output "$work/full") > "$work/full.log" 2>&1
  code=$?
  set -e
  [ $code -eq 1 ] && grep -q "seismogram.sgy not written: disk full" "$work/full.log" ||
    fail "a full disk: exit $code: $(cat "$work/full.log")"
  ! ls "$work/full"/*.partial > /dev/null 2>&1 || fail "a full disk left $(ls "$work/full")"
  # On a volume with room for the run, killed after a checkpoint: the restart is not refused for the space its own
  # checkpoints hold, and ends as an uninterrupted run.
  umount "$mnt"
  mount -t tmpfs -o size=40m tmpfs "$mnt"
  slow=(--grid 36 --spacing 10 --ndamp 6 --duration "$slow_duration" --quiet --checkpoint-every 10)
  "$exe" "${slow[@]}" --benchmark --output "$work/whole" > /dev/null
  "$exe" "${slow[@]}" --benchmark --output "$mnt/run" > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do [ -e "$mnt/run/checkpoint.bin.previous" ] && break; sleep 0.05; done
  kill -9 $pid 2>/dev/null || fail "the run ended before it could be killed"
  wait $pid 2>/dev/null || true
  # Fill the volume until less than the whole run's estimate is free, but what the restart still writes fits.
  free=$(df -B1 --output=avail "$mnt" | tail -1)
  held=$(du -sb "$mnt/run" | cut -f1)
  head -c $((free - 24 * 1048576 + held)) /dev/zero > "$mnt/filler" 2>/dev/null || true
  "$exe" "${slow[@]}" --benchmark --output "$mnt/run" --restart > "$work/restart.log" 2>&1 ||
    fail "the restart on the fuller volume: $(cat "$work/restart.log")"
  cmp "$work/whole/seismogram.sgy" "$mnt/run/seismogram.sgy" || fail "the restarted seismogram differs"
  echo "free space: checkpoints counted (refused up front on 12 MB), a full disk named, exit 1; a killed run" \
    "restarted on the nearly full volume"
  ;;

limits)
  expect 2 "at most one time step" "${grid32[@]}" --duration 1e-12 --output "$work/x"
  /usr/bin/python3 - "$work/huge.toml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('receivers = "60,160,60:260,160,60:11"\n')
    f.write('[[shot]]\nsource = "100,160,60"\n' * 700000)
PY
  start=$(date +%s)
  expect 2 "bytes, at most" "${small[@]}" --survey "$work/huge.toml" --output "$work/y"
  [ $(($(date +%s) - start)) -lt 10 ] || fail "the oversized survey took $(($(date +%s) - start)) s to refuse"
  echo "limits: 0 steps and a 700,000-shot survey file refused"
  ;;

run-files)
  base='grid = "32"\nndamp = 5\nduration = 0.1\n'
  check() {  # check TEXT LINE: the run file's LINE refused with TEXT and the line number
    printf "$base$2\n" > "$work/r.toml"
    expect 2 "line 4: .*$1" --config "$work/r.toml" --output "$work/x"
  }
  check "takes a number, not a string" 'f0 = "0x28"'
  check "takes one value, not a list" 'wavelet = []'
  check "takes a number, not a string" 'progress-seconds = ""'
  check "takes an integer, not a floating-point number" 'radius = 4.5'
  check "takes a string, not an integer" 'model = 3'
  check "--spacing -1 m must be finite and > 0" 'spacing = -1'
  check "--radius 12 must be in 1..8" 'radius = 12'
  check "strategy" 'strategy = "bogus"'
  check "decomposition" 'decomposition = "1x"'
  check "is an empty list" 'source = []'
  printf "${base}wavelet = \"ric\\\\u0000ker\"\n" > "$work/r.toml"
  expect 2 "line 4: key 'wavelet' holds a NUL character" --config "$work/r.toml" --output "$work/x"
  echo "run files: 10 wrong types and values refused with their line, a NUL refused"
  ;;

manifest)
  /usr/bin/python3 - "$work/survey.toml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('receivers = "20,520,20:980,520,20:11"\n')
    for x in range(80, 1080, 100):
        f.write('[[shot]]\nsource = "%d,520,20"\n' % x)
PY
  "$exe" --grid 52 --spacing 20 --ndamp 6 --duration "$survey_duration" --quiet --survey "$work/survey.toml" \
    --output "$work/s" > "$work/s.log" 2>&1 &
  pid=$!
  for _ in $(seq 1200); do
    n=$( (grep -l '"status": "done"' "$work"/s/shot-*.json 2>/dev/null || true) | wc -l)
    [ "$n" -lt 2 ] || break
    sleep 0.05
  done
  sleep 0.2
  kill -9 $pid 2>/dev/null || fail "the survey ended before it could be killed"
  wait $pid 2>/dev/null || true
  records=$( (grep -l '"status": "done"' "$work"/s/shot-*.json || true) | wc -l)
  [ "$records" -ge 2 ] && [ "$records" -lt 10 ] || fail "the kill did not land mid-survey ($records done)"
  # The shot records are the truth (--restart reads them); the manifest is rewritten after a shot's record, so a kill
  # between the two leaves it one shot behind, that shot shown running. One shot is finished at a time.
  /usr/bin/python3 - "$work/s" <<'PY' || fail "survey.json after the kill"
import glob, json, os, sys
m = json.load(open(os.path.join(sys.argv[1], "survey.json")))
shown = {s["shot"]: s["status"] for s in m["shot"]}
done = sorted(n for n, status in shown.items() if status == "done")
recorded = sorted(r["shot"] for r in map(lambda f: json.load(open(f)), glob.glob(sys.argv[1] + "/shot-*.json"))
                  if r["status"] == "done")
behind = sorted(set(recorded) - set(done))
assert set(done) <= set(recorded) and len(done) == m["status"]["done"], (done, recorded, m["status"])
assert len(behind) <= 1 and all(shown[n] == "running" for n in behind), (done, recorded, shown)
PY
  echo "manifest: killed after $records shots, survey.json shows them done"
  ;;

*) fail "unknown case" ;;
esac
