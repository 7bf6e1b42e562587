#!/usr/bin/env bash
# Survey tests of seis-wave (MPI build, --oversubscribe): every shot's gather byte-identical to the single run its
# flags make, on groups of one and of two ranks; the model file read once per node; a failing shot recorded while
# the others finish (exit 1); a survey killed mid-shot and restarted runs only the shots not finished, and a
# finished shot whose file was damaged; malformed survey files refused with their line before any shot runs; with
# density and a free surface, shots of one and of two ranks equal their single runs.
# usage: seis_wave_survey.sh SEIS_WAVE SEIS_WAVE_SERIAL WORKDIR
. "$(dirname "$0")/mpi_test.sh"

# 8 shots: a shared spread, one with its own, two sources fired together, another wavelet and f0.
cat > "$work/survey.toml" <<'TOML'
receivers = "100,300,60:500,300,60:21"   # every shot's, unless it sets its own
f0 = 12.0
[[shot]]
source = "200,300,60"
[[shot]]
source = "400,300,60"
f0 = 9.0
[[shot]]
sources = ["300,200,60", "300,400,60"]
wavelet = "gaussian-derivative"
[[shot]]
source = "300,300,100"
receivers = "300,100,40:300,500,40:17"
[[shot]]
source = "150,150,60"
[[shot]]
source = "450,450,60"
[[shot]]
source = "300,300,60"
[[shot]]
source = "250,350,80"
TOML
/usr/bin/python3 - "$work/model.f32" <<'PY'
import sys
import numpy as np
np.random.default_rng(3).uniform(1500, 2500, size=(32, 32, 32)).astype(np.float32).tofile(sys.argv[1])
PY
common=(--grid 32 --spacing 20 --ndamp 6 --model "$work/model.f32" --quiet)
# The single runs each shot stands for: its flags written out by hand.
single() {  # single NAME N ARGS...: shot N's single run, in $work/NAME-N
  local name=$1-$2 n=$2; shift 2
  "$serial" "${common[@]}" --duration 0.3 --shot "$n" --benchmark --output "$work/$name" "$@" > "$work/$name.log"
}
spread=(--receivers 100,300,60:500,300,60:21)
single single 1 "${spread[@]}" --f0 12 --source 200,300,60
single single 2 "${spread[@]}" --f0 9 --source 400,300,60
single single 3 "${spread[@]}" --f0 12 --source 300,200,60 --source 300,400,60 --wavelet gaussian-derivative
single single 4 --f0 12 --source 300,300,100 --receivers 300,100,40:300,500,40:17
single single 5 "${spread[@]}" --f0 12 --source 150,150,60
single single 6 "${spread[@]}" --f0 12 --source 450,450,60
single single 7 "${spread[@]}" --f0 12 --source 300,300,60
single single 8 "${spread[@]}" --f0 12 --source 250,350,80
same_as_single() {  # same_as_single DIR: every shot's gather is its single run's
  for n in 1 2 3 4 5 6 7 8; do
    cmp "$1/shot-0000$n.sgy" "$work/single-$n/seismogram.sgy" || fail "$1: shot $n differs from its single run"
  done
}
status_of() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['status'])" "$1"; }

for case in "2 1" "4 2" "1 1"; do
  set -- $case
  out="$work/np$1-per$2"
  "${launch[@]}" -np "$1" "$mpi" "${common[@]}" --duration 0.3 --survey "$work/survey.toml" --ranks-per-shot "$2" \
    --output "$out" > "$out.log" 2>&1 || fail "survey on $1 ranks, $2 per shot: $(tail -3 "$out.log")"
  same_as_single "$out"
  /usr/bin/python3 - "$out/survey.json" "$1" "$(stat -c %s "$work/model.f32")" "$2" <<'PY' || fail "$out/survey.json"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["status"]["done"] == 8 and m["ranks"] == int(sys.argv[2]), m["status"]
assert all(s["status"] == "done" and s["steps"] == 104 and len(s["files"]) == 2 for s in m["shot"])
# one node: the model file read once, not once per rank or per shot
assert m["model_bytes_read"] == int(sys.argv[3]), (m["model_bytes_read"], sys.argv[3])
# each group builds its simulation once, for its first shot; every shot times its loop
groups = int(sys.argv[2]) // int(sys.argv[4])
built = [s for s in m["shot"] if s["setup_seconds"] > 0]
assert len(built) <= groups and len({s["group"] for s in built}) == len(built), built
assert all(0 < s["loop_seconds"] < s["seconds"] for s in m["shot"]), m["shot"]
PY
done
echo "bitwise: every shot of 8 on 1, 2 and 4 ranks (1 and 2 per shot) equals its single run; the model read once"

# Field physics: with Gardner's density and a free surface (receivers on it, a source at it) every shot of a survey
# on two ranks, one a shot, and on four, two a shot (halos 2R - 1 deep), equals its single run.
cat > "$work/survey-field.toml" <<'TOML'
receivers = "100,300,0:500,300,0:11"
f0 = 12.0
[[shot]]
source = "200,300,20"
[[shot]]
source = "400,250,60"
[[shot]]
source = "300,300,0"
TOML
field=("${common[@]}" --density gardner --top free --duration 0.3)
n=0
for source in 200,300,20 400,250,60 300,300,0; do
  n=$((n + 1))
  single field-single $n --density gardner --top free --f0 12 --receivers 100,300,0:500,300,0:11 --source "$source"
done
for case in "2 1" "4 2"; do
  set -- $case
  out="$work/field-np$1-per$2"
  "${launch[@]}" -np "$1" "$mpi" "${field[@]}" --survey "$work/survey-field.toml" --ranks-per-shot "$2" \
    --output "$out" > "$out.log" 2>&1 || fail "the density and free-surface survey: $(tail -3 "$out.log")"
  for n in 1 2 3; do
    cmp "$out/shot-0000$n.sgy" "$work/field-single-$n/seismogram.sgy" || fail "$out: shot $n differs"
  done
done
echo "field physics: 3 shots with density and a free surface on 2 ranks (1 a shot) and 4 (2 a shot) equal their single runs"

# A shot that cannot be written (a directory holds its name) is recorded as failed; the others finish; exit 1.
mkdir -p "$work/failing/shot-00003.sgy"
set +e
"${launch[@]}" -np 2 "$mpi" "${common[@]}" --duration 0.3 --survey "$work/survey.toml" --output "$work/failing" \
  > "$work/failing.log" 2>&1
code=$?
set -e
[ $code -eq 1 ] || fail "a survey with a failing shot exited $code, not 1"
[ "$(status_of "$work/failing/shot-00003.json")" = failed ] || fail "shot 3 not recorded as failed"
grep -q "shot-00003.sgy not written" "$work/failing/shot-00003.json" || fail "shot 3's record lacks its message"
for n in 1 2 4 5 6 7 8; do [ "$(status_of "$work/failing/shot-0000$n.json")" = done ] || fail "shot $n not done"; done
rmdir "$work/failing/shot-00003.sgy"
"${launch[@]}" -np 2 "$mpi" "${common[@]}" --duration 0.3 --survey "$work/survey.toml" --output "$work/failing" \
  --restart > "$work/failing-restart.log" 2>&1 || fail "restart after the failure: $(tail -3 "$work/failing-restart.log")"
grep -q "1 to run, 7 complete already" "$work/failing-restart.log" || fail "the restart reran finished shots"
same_as_single "$work/failing"
echo "failure: shot 3's write error recorded, the other 7 done, exit 1; the restart ran shot 3 alone"

# Killed mid-survey: longer shots (about a second each); kill -9 once two are done.
long=(--grid 64 --spacing 20 --ndamp 6 --model layered --quiet --duration 2)
"${launch[@]}" -np 2 "$mpi" "${long[@]}" --survey "$work/survey.toml" --output "$work/killed" \
  > "$work/killed.log" 2>&1 &
pid=$!
for _ in $(seq 600); do
  done_count=$( (grep -l '"status": "done"' "$work"/killed/shot-*.json 2>/dev/null || true) | wc -l)
  [ "$done_count" -lt 2 ] || break
  sleep 0.1
done
kill -9 $pid 2>/dev/null || true
pkill -9 -f "$mpi.*killed" 2>/dev/null || true
wait $pid 2>/dev/null || true
finished=$(grep -l '"status": "done"' "$work"/killed/shot-*.json | sort)
[ -n "$finished" ] && [ "$(echo "$finished" | wc -l)" -lt 8 ] || fail "the kill did not land mid-survey"
declare -A started
for f in $finished; do started[$f]=$(grep '"started"' "$f"); done
ls "$work"/killed/*.partial >/dev/null 2>&1 && echo "(a partial file was left by the kill: never counted as a shot)"
# Damage one finished shot's gather: the restart must run it again (its CRC no longer matches its record).
first=$(echo "$finished" | head -1)
damaged=${first%.json}.sgy
printf 'X' | dd of="$damaged" bs=1 seek=4000 conv=notrunc status=none
"${launch[@]}" -np 2 "$mpi" "${long[@]}" --survey "$work/survey.toml" --output "$work/killed" --restart \
  > "$work/killed-restart.log" 2>&1 || fail "restart after the kill: $(tail -3 "$work/killed-restart.log")"
for f in $finished; do
  [ "$f" = "$first" ] && continue
  [ "${started[$f]}" = "$(grep '"started"' "$f")" ] || fail "$f was run again after the restart"
done
[ "${started[$first]}" != "$(grep '"started"' "$first")" ] || fail "the damaged $damaged was not run again"
# The reference: the one-process build's survey (its shots equal their single runs, as shown above).
"$serial" "${long[@]}" --survey "$work/survey.toml" --output "$work/long-reference" > /dev/null
for n in 1 2 3 4 5 6 7 8; do
  cmp "$work/killed/shot-0000$n.sgy" "$work/long-reference/shot-0000$n.sgy" || fail "shot $n differs after the restart"
done
echo "restart: killed with $(echo "$finished" | wc -l) shots done; those not run again (but the damaged one), all 8 identical"

# Malformed survey files: refused with the file and line (exit 2) before any shot runs.
refused() {  # refused NAME EXPECTED-MESSAGE TEXT
  printf '%b' "$3" > "$work/$1.toml"
  set +e
  "${launch[@]}" -np 2 "$mpi" "${common[@]}" --duration 0.3 --survey "$work/$1.toml" --output "$work/$1" \
    > "$work/$1.log" 2>&1
  local code=$?
  set -e
  [ $code -eq 2 ] || fail "$1: exit $code, not 2"
  grep -qF "$2" "$work/$1.log" || fail "$1: no '$2' in: $(tail -2 "$work/$1.log")"
  ! ls "$work/$1"/shot-* > /dev/null 2>&1 || fail "$1: a shot ran"
}
refused unknown-key "$work/unknown-key.toml line 4: unknown key 'depth'" '[[shot]]\nsource = "200,300,60"\n[[shot]]\ndepth = 3\n'
refused outside "$work/outside.toml line 3 (shot 2): source 0 at (200, 300, 9000) m is outside the model" \
  '[[shot]]\nsource = "200,300,60"\n[[shot]]\nsource = "200,300,9000"\n'
refused receivers "$work/receivers.toml line 1 (shot 1): receiver 18 at (630, 0, 0) m is outside" \
  '[[shot]]\nsource = "200,300,60"\nreceivers = "0,0,0:700,0,0:21"\n'
refused syntax "$work/syntax.toml line 2" '[[shot]]\nsource = "200,300,60\n'
refused no-source "$work/no-source.toml line 1: shot 1 has no source" '[[shot]]\nf0 = 3\n'
refused no-shots "$work/no-shots.toml: no [[shot]] entries" 'f0 = 3\n'
"${launch[@]}" -np 2 "$mpi" "${common[@]}" --duration 0.3 --survey "$work/survey.toml" --output "$work/np2-per1" \
  > "$work/reuse.log" 2>&1 && fail "a new survey overwrote an earlier one's output"
grep -q "holds an earlier survey's shot-00001.json" "$work/reuse.log" || fail "reuse: $(tail -2 "$work/reuse.log")"
echo "refusals: 6 malformed survey files (line named, no shot run) and an earlier survey's output"
