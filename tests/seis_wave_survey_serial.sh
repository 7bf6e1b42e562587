#!/usr/bin/env bash
# Surveys in the default (one-process) build: every shot of a survey is, byte for byte, the single run its entry
# stands for (shared keys, its own receivers, wavelet and f0, several sources fired together); a restart after a
# kill -9 runs exactly the shots not complete (their records' start times show it) and the gathers end as an
# uninterrupted survey's; a damaged gather is run again, and nothing else.
# usage: seis_wave_survey_serial.sh SEIS_WAVE WORKDIR
set -euo pipefail
exe=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
export SEIS_TUNING_CACHE="$work/tuning.json"
fail() { echo "FAIL: $*" >&2; exit 1; }
common=(--grid 36x28x24 --spacing 20 --ndamp 6 --model layered --duration 0.6 --quiet)
cat > "$work/survey.toml" <<'TOML'
receivers = "20,280,20:680,280,20:12"
f0 = 9.0
[[shot]]
source = "180,280,40"
[[shot]]
source = "380,280,40"
receivers = "20,180,60:680,380,60:9"
wavelet = "gaussian-derivative"
[[shot]]
sources = ["280,180,40", "280,380,40"]
f0 = 8.0
[[shot]]
source = "580,280,80"
TOML
# Each entry as the single run its flags make.
single=(
  "--source 180,280,40 --receivers 20,280,20:680,280,20:12 --f0 9"
  "--source 380,280,40 --receivers 20,180,60:680,380,60:9 --wavelet gaussian-derivative --f0 9"
  "--source 280,180,40 --source 280,380,40 --receivers 20,280,20:680,280,20:12 --f0 8"
  "--source 580,280,80 --receivers 20,280,20:680,280,20:12 --f0 9"
)
"$exe" "${common[@]}" --survey "$work/survey.toml" --output "$work/survey" > "$work/survey.log"
for n in 1 2 3 4; do
  # shellcheck disable=SC2086  # the entry's flags are words
  "$exe" "${common[@]}" ${single[$((n - 1))]} --shot "$n" --benchmark --output "$work/single-$n" > /dev/null
  cmp "$work/survey/shot-0000$n.sgy" "$work/single-$n/seismogram.sgy" || fail "shot $n differs from its single run"
done
echo "survey: each of 4 shots (its own receivers, wavelet, f0, two sources) equals its single run, byte for byte"

# Killed once two shots are done (shots of about a second each on 2 cores; under the sanitizers, on one thread and
# ten times slower, a grid of a seventh the points takes as long); the restart runs the others alone.
long=(--grid 84x68x60 --spacing 20 --ndamp 6 --model layered --duration 1.5 --quiet)
[ "${SEIS_SANITIZED:-0}" = 1 ] && long=(--grid 36x28x24 --spacing 20 --ndamp 6 --model layered --duration 1.0 --quiet)
"$exe" "${long[@]}" --survey "$work/survey.toml" --output "$work/killed" > "$work/killed.log" 2>&1 &
pid=$!
for _ in $(seq 1200); do
  n=$( (grep -l '"status": "done"' "$work"/killed/shot-*.json 2>/dev/null || true) | wc -l)
  [ "$n" -lt 2 ] || break
  sleep 0.05
done
kill -9 $pid 2>/dev/null || fail "the survey ended before it could be killed"
wait $pid 2>/dev/null || true
done_before=$(grep -l '"status": "done"' "$work"/killed/shot-*.json | sort)
[ "$(echo "$done_before" | wc -l)" -ge 2 ] && [ "$(echo "$done_before" | wc -l)" -lt 4 ] ||
  fail "the kill did not land mid-survey: $done_before"
declare -A started
for f in $done_before; do started[$f]=$(grep '"started"' "$f"); done
"$exe" "${long[@]}" --survey "$work/survey.toml" --output "$work/killed" --restart > "$work/restart.log"
pending=$((4 - $(echo "$done_before" | wc -l)))
grep -q "($pending to run, $((4 - pending)) complete already)" "$work/restart.log" ||
  fail "the restart's plan: $(head -1 "$work/restart.log")"
for f in $done_before; do
  [ "${started[$f]}" = "$(grep '"started"' "$f")" ] || fail "$f was run again"
done
"$exe" "${long[@]}" --survey "$work/survey.toml" --output "$work/whole" > /dev/null
for n in 1 2 3 4; do
  cmp "$work/killed/shot-0000$n.sgy" "$work/whole/shot-0000$n.sgy" || fail "shot $n differs after the restart"
done
# A damaged gather (one byte): that shot alone runs again.
first=$(echo "$done_before" | head -1)
before=$(grep '"started"' "$first")
printf 'X' | dd of="${first%.json}.sgy" bs=1 seek=4000 conv=notrunc status=none
"$exe" "${long[@]}" --survey "$work/survey.toml" --output "$work/killed" --restart > "$work/damaged.log"
grep -q "(1 to run, 3 complete already)" "$work/damaged.log" || fail "after damage: $(head -1 "$work/damaged.log")"
[ "$before" != "$(grep '"started"' "$first")" ] || fail "the damaged shot was not run again"
cmp "${first%.json}.sgy" "$work/whole/$(basename "${first%.json}").sgy" || fail "the rerun shot differs"
echo "restart: killed after $((4 - pending)) shots, the other $pending run alone; a damaged gather run again alone;" \
  "every gather as the uninterrupted survey's"
