#!/usr/bin/env bash
# End-to-end test of seis-bench's sweeps and tuner: a sweep with infeasible cases runs the others and lists the
# skipped ones with the reason; a sweep with nothing feasible is refused; --tune reports default against tuned and
# caches the winner, which the next run uses unless told --no-tuned.
# usage: seis_bench_cli.sh SEIS_BENCH WORKDIR
set -euo pipefail
exe=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
export SEIS_TUNING_CACHE="$work/tuning.json"
quick=(-q -r 4 -g 40x36x30 --samples 2 --warmup 1 --batch 1)
json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# Stages 3 is below R + 2 = 6: skipped with the reason, stages 6 and 7 run and pass.
"$exe" "${quick[@]}" -k xyz_fused_async --stages 3,6,7 --json "$work/sweep.json" > "$work/sweep.log"
[ "$(json "$work/sweep.json" "len(j['cases'])")" = 2 ] || { echo "FAIL: expected 2 cases run" >&2; exit 1; }
[ "$(json "$work/sweep.json" "all(c['verified'] == 'pass' for c in j['cases'])")" = True ]
json "$work/sweep.json" "j['skipped'][0]['reason']" | grep -q "3 ring stages at R = 4, it needs 6" ||
  { echo "FAIL: skipped case without its reason" >&2; exit 1; }
grep -q "1 case(s) of the sweep skipped" "$work/sweep.log"

# Nothing feasible: refused (exit 2) with the reason.
rc=0
"$exe" "${quick[@]}" -k xyz_fused_async --stages 3 > "$work/none.log" 2>&1 || rc=$?
[ $rc -eq 2 ] && grep -q "it needs 6" "$work/none.log" || { echo "FAIL: exit $rc: $(cat "$work/none.log")" >&2; exit 1; }

"$exe" "${quick[@]}" -k xyz_fused --tune --json "$work/tune.json" > "$work/tune.log"
[ "$(json "$work/tune.json" "[c['tuning'] for c in j['cases']]")" = "['default', 'tuned']" ]
[ "$(json "$work/tune.json" "len(j['tuning'][0]['candidates']) > 1")" = True ]
grep -q "^tuned xyz_fused R=4" "$work/tune.log"
"$exe" "${quick[@]}" -k xyz_fused --json "$work/cached.json" > /dev/null
[ "$(json "$work/cached.json" "j['cases'][0]['tuning']")" = cached ] || { echo "FAIL: cached winner not used" >&2; exit 1; }
"$exe" "${quick[@]}" -k xyz_fused --no-tuned --json "$work/plain.json" > /dev/null
[ "$(json "$work/plain.json" "j['cases'][0]['tuning']")" = "" ] || { echo "FAIL: --no-tuned used the cache" >&2; exit 1; }
echo "sweep skip, refusal, tune, cached, --no-tuned: pass"
