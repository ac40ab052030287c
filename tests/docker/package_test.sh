#!/usr/bin/env bash
# Builds the .deb with CPack, unpacks it into a scratch root (dpkg -x, no root needed) and
# checks the installed files, the package's metadata, and that the installed npcd starts
# with the installed default config: --version, then a short run on free loopback ports
# with a health check, /metrics and a clean SIGTERM exit.
# Usage: package_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

version=$(sed -n 's/^project(npcd VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
(cd "$build" && cpack -G DEB -B "$work/pkg" > "$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/pkg/npcd_"$version"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { ls -R "$work/pkg"; fail "no npcd_${version}_*.deb"; }
echo "package: $(basename "$deb") ($(du -h "$deb" | cut -f1))"

# Metadata: name, version, library dependencies found by dpkg-shlibdeps, maintainer scripts.
[ "$(dpkg-deb -f "$deb" Package)" = npcd ] || fail "Package field"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version field is not $version"
depends=$(dpkg-deb -f "$deb" Depends)
for dep in adduser libgrpc++1.51 libprotobuf32; do
  grep -q "$dep" <<<"$depends" || fail "Depends lacks $dep: $depends"
done
dpkg-deb -e "$deb" "$work/control"
for script in postinst prerm postrm; do
  [ -x "$work/control/$script" ] || fail "no executable $script"
done
grep -q "adduser --system" "$work/control/postinst" || fail "postinst does not add the npcd user"

root="$work/root"
dpkg -x "$deb" "$root"
for f in usr/bin/npcd usr/bin/npc-healthcheck usr/bin/npcd-bots; do
  [ -x "$root/$f" ] || fail "$f missing or not executable"
done
for f in usr/share/npcd/npcd.json usr/share/npcd/demo.json usr/share/npcd/npcd.env \
         usr/share/npcd/archetypes/village.json usr/share/npcd/goap/guard.json \
         usr/share/npcd/bots/smoke.json usr/share/npcd/proto/npc/v1/npc.proto \
         usr/lib/systemd/system/npcd.service \
         usr/share/doc/npcd/copyright usr/share/doc/npcd/CHANGELOG.md usr/share/doc/npcd/README.md; do
  [ -f "$root/$f" ] || fail "$f missing"
done
unit="$root/usr/lib/systemd/system/npcd.service"
for option in "User=npcd" "ProtectSystem=strict" "NoNewPrivileges=yes" "PrivateTmp=yes" \
              "ProtectHome=yes" "EnvironmentFile=-/etc/npcd/npcd.env" \
              "ExecStart=/usr/bin/npcd --config \${NPCD_CONFIG}"; do
  grep -qF "$option" "$unit" || fail "npcd.service lacks $option"
done
if command -v systemd-analyze > /dev/null; then
  # verify resolves ExecStart on this machine, so check a copy naming the unpacked binary.
  sed "s|/usr/bin/npcd|$root/usr/bin/npcd|" "$unit" > "$work/npcd.service"
  systemd-analyze verify "$work/npcd.service" > "$work/verify.log" 2>&1 || true
  if grep -v "Failed to\|npcd-bots\|\.mount\|\.socket" "$work/verify.log" | grep -q "npcd.service"; then
    cat "$work/verify.log"; fail "systemd-analyze verify found problems in npcd.service"
  fi
fi

# The installed programs run from the scratch root (their libraries are the system's).
out=$("$root/usr/bin/npcd" --version)
grep -qx "npcd $version (revision .*)" <<<"$out" || fail "--version printed '$out'"

free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
metrics_port=$(free_port)
"$root/usr/bin/npcd" --config "$root/usr/share/npcd/npcd.json" --listen 127.0.0.1:0 \
  --metrics-listen "127.0.0.1:$metrics_port" > "$work/log" 2>&1 &
pid=$!
port=""
for _ in $(seq 1 100); do
  port=$(grep -o '(port [0-9]*)' "$work/log" | grep -o '[0-9]*' || true)
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
[ -n "$port" ] || { cat "$work/log"; fail "installed npcd did not start with the installed config"; }
grep -q "world $root/usr/share/npcd/" "$work/log" || { cat "$work/log"; fail "not the installed demo world"; }
"$root/usr/bin/npc-healthcheck" "127.0.0.1:$port" | grep -qx SERVING || fail "health check"
/usr/bin/python3 - "$metrics_port" "$version" <<'PY' || fail "/metrics lacks npcd_build_info"
import sys, time, urllib.request
port, version = sys.argv[1], sys.argv[2]
for _ in range(50):
    try:
        body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2).read().decode()
        if "npcd_build_info{" in body:
            line = next(l for l in body.splitlines() if l.startswith("npcd_build_info{"))
            print(line)
            sys.exit(0 if f'version="{version}"' in line and line.endswith(" 1") else 1)
    except OSError:
        pass
    time.sleep(0.1)
sys.exit(1)
PY
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=""
[ "$rc" -eq 0 ] || { cat "$work/log"; fail "installed npcd exited $rc after SIGTERM"; }
echo "deb package test passed"
