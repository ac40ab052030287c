#!/usr/bin/env bash
# server/build_revision.cmake: the revision is git's (with -dirty for changed tracked files),
# "unknown" outside a checkout, pinned by REVISION; the header is rewritten only on change.
# Usage: build_revision_test.sh SOURCE_DIR
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
revision_of() {  # SOURCE_DIR [REVISION] -> the NPCD_BUILD_REVISION the script writes
  cmake -DSOURCE_DIR="$1" -DOUTPUT="$work/out.h" -DVERSION=1.2.3 -DREVISION="${2:-}" \
        -P "$src/server/build_revision.cmake" > /dev/null
  grep -q '#define NPCD_BUILD_VERSION "1.2.3"' "$work/out.h" || fail "version not written"
  sed -n 's/#define NPCD_BUILD_REVISION "\(.*\)"/\1/p' "$work/out.h"
}

mkdir "$work/plain"
[ "$(revision_of "$work/plain")" = unknown ] || fail "outside git: expected unknown"
[ "$(revision_of "$work/plain" 0123abcd)" = 0123abcd ] || fail "REVISION does not pin"

repo="$work/repo"
git init -q "$repo"
echo one > "$repo/file"
git -C "$repo" add file
git -C "$repo" -c user.name=t -c user.email=t@localhost commit -q -m one
head=$(git -C "$repo" rev-parse --short=12 HEAD)
[ "$(revision_of "$repo")" = "$head" ] || fail "clean checkout: expected $head"
touch -d '2000-01-01' "$work/out.h"
before=$(stat -c %Y "$work/out.h")
revision_of "$repo" > /dev/null
[ "$(stat -c %Y "$work/out.h")" = "$before" ] || fail "unchanged revision rewrote the header"
echo two > "$repo/file"
[ "$(revision_of "$repo")" = "$head-dirty" ] || fail "changed tracked file: expected $head-dirty"
echo "build revision test passed"
