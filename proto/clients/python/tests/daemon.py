"""Starts the npcd binary named by NPCD_BINARY on the demo definitions of NPCD_SOURCE_DIR,
on loopback with a token, and stops it with SIGTERM (the daemon's graceful drain)."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

TOKEN = "python-client-token"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    def __init__(self, port=0):
        binary, source = os.environ.get("NPCD_BINARY"), os.environ.get("NPCD_SOURCE_DIR")
        if not binary or not source:
            raise RuntimeError("set NPCD_BINARY and NPCD_SOURCE_DIR "
                               "(tests/proto/clients/python_client_test.sh does)")
        config = os.path.join(source, "config")
        self.work = tempfile.mkdtemp(prefix="npcd-py-")
        path = os.path.join(self.work, "npcd.json")
        with open(path, "w") as f:
            json.dump({"listen": f"127.0.0.1:{port}", "tick_hz": 20,
                       "archetypes_dir": os.path.join(config, "archetypes"),
                       "selection_trees_dir": os.path.join(config, "selection_trees"),
                       "behavior_trees_dir": os.path.join(config, "behavior_trees"),
                       "long_actions": os.path.join(config, "long_actions.json"),
                       "world": os.path.join(config, "demo.json"),
                       "status_interval_s": 0, "shutdown_grace_s": 1, "auth_token": TOKEN}, f)
        self.log = os.path.join(self.work, "log")
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([binary, "--config", path], stdout=log,
                                            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        self.port = None
        while self.port is None and time.monotonic() < deadline:
            with open(self.log) as f:
                match = re.search(r"\(port (\d+)\)", f.read())
            if match:
                self.port = int(match.group(1))
            elif self.process.poll() is not None:
                break
            else:
                time.sleep(0.05)
        if self.port is None:
            with open(self.log) as f:
                text = f.read()
            self.stop()
            raise RuntimeError("npcd did not start:\n" + text)
        self.target = f"127.0.0.1:{self.port}"

    def stop(self):
        """SIGTERM, then the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        shutil.rmtree(self.work, ignore_errors=True)
        return code
