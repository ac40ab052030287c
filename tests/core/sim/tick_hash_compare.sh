#!/usr/bin/env bash
# Runs npcd_tick_hash on one world with each thread count, each in its own process, and
# compares the per-tick output hashes with the first run's, naming the first tick that
# differs. Usage: tick_hash_compare.sh <npcd_tick_hash> <world> <ticks> <threads>...
set -euo pipefail
bin=$1 world=$2 ticks=$3
shift 3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for threads in "$@"; do
  "$bin" "$world" "$ticks" "$threads" > "$dir/$threads"
  lines=$(wc -l < "$dir/$threads")
  if [ "$lines" -ne "$ticks" ]; then
    echo "$world with $threads threads: $lines ticks printed, expected $ticks" >&2
    exit 1
  fi
done
first=$1
for threads in "$@"; do
  if ! cmp -s "$dir/$first" "$dir/$threads"; then
    line=$(diff "$dir/$first" "$dir/$threads" | head -3 | tr '\n' ' ')
    echo "$world: $threads threads differ from $first: $line" >&2
    exit 1
  fi
done
echo "$world: $ticks ticks, identical output hashes with $* threads"
