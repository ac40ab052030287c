#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang-14, ASan + UBSan; scripts/sanitize-build.sh)
# and runs each for SECONDS (default 30), seeded from config/, the tests' data and
# ../shared/corpus/. Any crash, leak, UB report or input slower than NPCD_FUZZ_TIMEOUT_S
# (default 10 s: a hang is a finding) fails the run; reproducers are left in
# build-sanitize/fuzz/artifacts/. The corpus each target grew is kept in
# build-sanitize/fuzz/corpus/<target> and reused by the next run.
#   scripts/fuzz.sh [SECONDS] [TARGET...]      e.g. scripts/fuzz.sh 600 world_update
# NPCD_FUZZ_RUNS=N also stops each target after N runs (the long runs' 1M goal:
#   NPCD_FUZZ_RUNS=1000000 scripts/fuzz.sh 7200 bst_xml).
# Reproduce a finding: build-sanitize/tests/fuzz/<target>_fuzz <artifact>
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$root/.." && pwd)/shared
seconds="${1:-30}"
[ $# -gt 0 ] && shift
all=(bst_xml mbt_xml archetypes influences long_actions goap_domain world_file navmesh_file config world_update journal)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
build="${NPCD_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
timeout_s="${NPCD_FUZZ_TIMEOUT_S:-10}"

# Seed files and folders of each target (missing ones are skipped: ../shared is optional).
seeds() {
  case "$1" in
    bst_xml) echo "$root/config/selection_trees $root/tests/core/bst/data/selection_trees $shared/corpus/bst" ;;
    mbt_xml) echo "$root/config/behavior_trees $root/tests/core/mbt/data $shared/corpus/mbt" ;;
    archetypes) echo "$root/config/archetypes" ;;
    influences) echo "$root/config/actions/influences.json" ;;
    long_actions) echo "$root/config/long_actions.json" ;;
    goap_domain) echo "$root/config/goap $root/tests/core/goap/data" ;;
    world_file) echo "$root/config/demo.json" ;;
    navmesh_file) echo "$root/tests/core/nav/data" ;;
    config) echo "$root/config/npcd.json" ;;
    world_update) echo "" ;;  # grown from nothing by its structure-aware mutator
    journal) echo "" ;;  # grown from nothing: the target writes the checksums itself
  esac
}

# NPCD_FUZZ_ALSO_BUILD: more targets of the same build, built in the same step (sanitize.sh
# ci adds its test binaries, so one make run compiles everything in parallel).
read -r -a also <<< "${NPCD_FUZZ_ALSO_BUILD:-}"
"$root/scripts/sanitize-build.sh" "${targets[@]/%/_fuzz}" "${also[@]}"

out="$build/fuzz"
mkdir -p "$out/artifacts"
failed=()
printf '%-14s %10s %8s  %s\n' target runs exec/s result
for t in "${targets[@]}"; do
  seed_dir="$out/seeds/$t"
  rm -rf "$seed_dir" && mkdir -p "$seed_dir" "$out/corpus/$t"
  n=0
  for s in $(seeds "$t"); do  # numbered: the folders share names (Common.xml, Grunt.xml)
    for f in $(find "$s" -maxdepth 1 -type f 2>/dev/null | sort); do
      n=$((n + 1))
      cp "$f" "$seed_dir/$n-$(basename "$f")"
    done
  done
  log="$out/$t.log"
  status=0
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
    "$build/tests/fuzz/${t}_fuzz" -max_total_time="$seconds" -timeout="$timeout_s" \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 ${NPCD_FUZZ_RUNS:+-runs=$NPCD_FUZZ_RUNS} \
    -artifact_prefix="$out/artifacts/$t-" "$out/corpus/$t" "$seed_dir" > "$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ "$status" -eq 0 ]; then
    result=ok
  else
    result="FAILED (exit $status): $(grep -m1 -E 'ERROR: |runtime error|ALARM|timeout' "$log" || true)"
    failed+=("$t")
  fi
  printf '%-14s %10s %8s  %s\n' "$t" "${runs:-?}" "${rate:-?}" "$result"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}; logs in $out/<target>.log, inputs in $out/artifacts/" >&2
  exit 1
fi
