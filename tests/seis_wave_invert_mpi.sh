#!/usr/bin/env bash
# Inversion over ranks (MPI build, --oversubscribe): three shots of a survey dealt over two and three ranks, each
# shot's misfit and gradient then added in shot order on every rank, end bit for bit where one rank (seis-wave-serial)
# ends (preconditioned and smoothed): the same models, gradients and misfits at every iterate, a restart on two
# ranks of a run stopped on one, and the density inverted with the velocity, stopped on one rank and continued on
# three.
# usage: seis_wave_invert_mpi.sh SEIS_WAVE SEIS_WAVE_SERIAL WORKDIR
. "$(dirname "$0")/mpi_test.sh"

. "$(dirname "$0")/invert_survey.sh"
invert_survey "$work" 50,50,20 240,240,20 50,240,20
"$serial" "${common[@]}" --model "$work/true.f32" --output "$work/data" > "$work/data.log" ||
  fail "the data: $(tail -3 "$work/data.log")"
invert=("${common[@]}" --model homogeneous:2000 --invert "$work/data" --vmin 1800 --vmax 2400 --precondition 0.01
        --gradient-smoothing 15)

"$serial" "${invert[@]}" --iterations 2 --output "$work/one" > "$work/one.log" || fail "one rank: $(tail -3 "$work/one.log")"
same() {  # same DIRECTORY [ONE_RANK FILE...]: its iterates and misfits are the one-rank run's, bit for bit
  local one=${2:-$work/one}
  local files=("${@:3}")
  [ ${#files[@]} -gt 0 ] || files=(model.sgy gradient.sgy)
  for i in 0001 0002; do
    for f in "${files[@]}"; do
      cmp "$one/iteration-$i/$f" "$1/iteration-$i/$f" || fail "$1/iteration-$i/$f differs from one rank's"
    done
  done
  /usr/bin/python3 - "$one" "$1" <<'PY' || fail "$1's misfits differ from one rank's"
import json, sys
a, b = (json.load(open(p + "/inversion.json")) for p in sys.argv[1:3])
assert a["start_misfit"] == b["start_misfit"], (a["start_misfit"], b["start_misfit"])
assert [i["misfit"] for i in a["iterations"]] == [i["misfit"] for i in b["iterations"]], (a, b)
PY
}
for ranks in 2 3; do
  "${launch[@]}" -np $ranks "$mpi" "${invert[@]}" --iterations 2 --output "$work/ranks-$ranks" > "$work/ranks-$ranks.log" 2>&1 ||
    fail "$ranks ranks: $(tail -5 "$work/ranks-$ranks.log")"
  grep -q "on $ranks rank(s)" "$work/ranks-$ranks.log" || fail "no rank count: $(head -3 "$work/ranks-$ranks.log")"
  same "$work/ranks-$ranks"
done
# Stopped after one iterate on one rank, continued on two.
"$serial" "${invert[@]}" --iterations 1 --output "$work/parts" > "$work/part1.log" || fail "part 1: $(tail -3 "$work/part1.log")"
"${launch[@]}" -np 2 "$mpi" "${invert[@]}" --iterations 2 --output "$work/parts" --restart > "$work/part2.log" 2>&1 ||
  fail "part 2: $(tail -5 "$work/part2.log")"
same "$work/parts"
# The density inverted too (from Gardner's of the start), stopped after one iterate on one rank and continued on three:
# its densities and their gradients as well. At R = 2: on a host the density's image costs O(R^2) a point and its step
# several times the constant density's (at R = 4 these three runs took 140 of the test's 194 s; perf: the image 45%,
# the step 47%).
both=() previous=
for flag in "${invert[@]}"; do
  [ "$previous" = --radius ] && both+=(2) || both+=("$flag")
  previous=$flag
done
both+=(--density gardner --density-min 1700 --density-max 2600)
"$serial" "${both[@]}" --iterations 2 --output "$work/both-one" > "$work/both-one.log" ||
  fail "both, one rank: $(tail -3 "$work/both-one.log")"
"$serial" "${both[@]}" --iterations 1 --output "$work/both-3" > "$work/both-part1.log" ||
  fail "both, part 1: $(tail -3 "$work/both-part1.log")"
"${launch[@]}" -np 3 "$mpi" "${both[@]}" --iterations 2 --output "$work/both-3" --restart > "$work/both-3.log" 2>&1 ||
  fail "both, 3 ranks: $(tail -5 "$work/both-3.log")"
same "$work/both-3" "$work/both-one" model.sgy gradient.sgy density.sgy density-gradient.sgy
echo "seis_wave_invert_mpi: all passed"
