#!/usr/bin/env bash
# `npcd plan` through the real binary: the guard's domain (a plan, a "no plan" with its
# why, JSON lines) and a broken domain, with their exit codes.
# Usage: npcd_plan_test.sh NPCD_BINARY SOURCE_DIR
set -uo pipefail
npcd=$1
src=$2
guard="$src/config/goap/guard.json"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; cat "$work/out" "$work/err" 2>/dev/null; exit 1; }

"$npcd" plan "$guard" --goal GuardPost --set at_post=false > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" -eq 0 ] || fail "GuardPost away from the post: exit $rc, expected 0"
grep -q "^domain guard ($guard)$" "$work/out" || fail "no domain line"
grep -Eq "^goal GuardPost: plan, cost 0.5, 1 step, [0-9]+ expansions, [0-9]+ us$" "$work/out" ||
  fail "no GuardPost plan line"
grep -q "^  1. ReturnToPost  0.5$" "$work/out" || fail "no ReturnToPost step"

"$npcd" plan "$guard" --json > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" -eq 1 ] || fail "every guard goal: exit $rc, expected 1 (no torches without a world)"
[ "$(wc -l < "$work/out")" -eq 2 ] || fail "expected one JSON line per goal"
grep -q '^{"cost":0.0,"expansions":0,"goal":"StartFire","micros":[0-9]*,"status":"no_plan","steps":\[\],"why":"no plan for \\"StartFire\\": .*no_candidate' "$work/out" ||
  fail "StartFire is not a no_plan with its why"
grep -q '"goal":"GuardPost".*"status":"plan","steps":\[\]' "$work/out" || fail "GuardPost already holds"

sed 's/"type": "bool"/"type": "boolean"/' "$guard" > "$work/broken.json"
"$npcd" plan "$work/broken.json" > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" -eq 2 ] || fail "broken domain: exit $rc, expected 2"
grep -q "^$work/broken.json:[0-9]*:[0-9]*: /facts/0/type: must be one of bool|enum|int$" "$work/err" ||
  fail "the error does not locate the field with line:col"
[ ! -s "$work/out" ] || fail "a broken domain printed a report"
echo "npcd plan: ok"
