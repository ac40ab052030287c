#!/usr/bin/env bash
# Tests breaking.sh on a scratch repository (ctest "buf_breaking_check"): without a release
# tag it skips; against a tag it passes an added field and fails a changed field type,
# naming the field.
# Usage: breaking_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
repo=$scratch/repo
mkdir -p "$repo/proto/demo/v1" "$repo/tests/proto/lint"
cp "$src/tests/npm_ci.sh" "$repo/tests/"
cp "$src/tests/proto/lint/package.json" "$src/tests/proto/lint/package-lock.json" "$repo/tests/proto/lint/"
printf 'version: v2\n' > "$repo/proto/buf.yaml"
write_proto() {
  printf 'syntax = "proto3";\npackage demo.v1;\n// A message.\nmessage M {\n%s}\n' "$1" \
    > "$repo/proto/demo/v1/demo.proto"
}
git_() { git -C "$repo" -c user.email=test@npcd -c user.name=test "$@"; }
write_proto '  int32 x = 1;
'
git_ init -q
git_ add -A
git_ commit -qm "first"

status=0
bash "$src/tests/proto/lint/breaking.sh" "$repo" "$build" > "$scratch/out" 2>&1 || status=$?
[ "$status" -eq 77 ] || { cat "$scratch/out"; echo "FAIL: no tag should skip (77), got $status"; exit 1; }

git_ tag v0.1.0
write_proto '  int32 x = 1;
  string added = 2;
'
bash "$src/tests/proto/lint/breaking.sh" "$repo" "$build" > "$scratch/out" 2>&1 ||
  { cat "$scratch/out"; echo "FAIL: an added field is compatible"; exit 1; }
grep -q "compatible with v0.1.0" "$scratch/out" || { cat "$scratch/out"; echo "FAIL: no verdict"; exit 1; }

write_proto '  int64 x = 1;
'
status=0
bash "$src/tests/proto/lint/breaking.sh" "$repo" "$build" > "$scratch/out" 2>&1 || status=$?
[ "$status" -ne 0 ] && [ "$status" -ne 77 ] ||
  { cat "$scratch/out"; echo "FAIL: a changed field type must fail, got $status"; exit 1; }
grep -q 'Field "1" with name "x" on message "M" changed type' "$scratch/out" ||
  { cat "$scratch/out"; echo "FAIL: the finding does not name the field"; exit 1; }
echo "breaking.sh: skips without a tag, passes an added field, fails a changed type"
