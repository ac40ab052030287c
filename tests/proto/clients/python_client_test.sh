#!/usr/bin/env bash
# Runs the Python client package's tests (unittest, Debian's python3-grpcio) against npcd;
# they start NPCD_BINARY on free loopback ports themselves.
# Usage: python_client_test.sh NPCD_BINARY SOURCE_DIR
set -euo pipefail
export NPCD_BINARY=$1
export NPCD_SOURCE_DIR=$2
cd "$NPCD_SOURCE_DIR/proto/clients/python"
# /usr/bin/python3: Debian's grpcio is installed for the system Python only.
/usr/bin/python3 -m unittest discover -s tests -v
