"""Protobuf and gRPC stubs for npc/v1/npc.proto, generated once per process.

With grpcio-tools installed (pip) they come from grpc_tools.protoc; otherwise from protoc
and grpc_python_plugin (Debian: protobuf-compiler, protobuf-compiler-grpc; Debian's
python3-grpc-tools is too old for this grpcio). The proto is the package's
(npcd_client/proto/npc links to the repository's proto/npc, and an installed package holds
a copy), or the file named by NPCD_PROTO."""
import importlib
import os
import shutil
import subprocess
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))
_stubs = None


def proto_root():
    """The directory holding npc/v1/npc.proto."""
    if os.environ.get("NPCD_PROTO"):
        return os.path.dirname(os.path.dirname(os.path.dirname(os.environ["NPCD_PROTO"])))
    root = os.path.join(_HERE, "proto")
    if not os.path.isfile(os.path.join(root, "npc", "v1", "npc.proto")):
        raise FileNotFoundError(f"{root}/npc/v1/npc.proto: missing; set NPCD_PROTO")
    return root


def generate(out, include, proto):
    """Writes the Python message and gRPC modules of `proto` (relative to `include`) into
    `out`, with the package __init__ files its folders need."""
    try:
        from grpc_tools import protoc  # noqa: F401  (pip's grpcio-tools)
        command = [sys.executable, "-m", "grpc_tools.protoc"]
        plugin = []
    except ImportError:
        protoc = shutil.which("protoc")
        plugin_path = shutil.which("grpc_python_plugin")
        if not protoc or not plugin_path:
            raise RuntimeError("npcd_client needs grpcio-tools, or protoc and grpc_python_plugin "
                               "(Debian: protobuf-compiler protobuf-compiler-grpc)")
        command = [protoc]
        plugin = [f"--plugin=protoc-gen-grpc_python={plugin_path}"]
    subprocess.run(command + ["-I", include, "--python_out", out, "--grpc_python_out", out]
                   + plugin + [proto], check=True)
    parts = os.path.dirname(proto).split(os.sep)
    for i in range(1, len(parts) + 1):
        open(os.path.join(out, *parts[:i], "__init__.py"), "a").close()


def load_stubs():
    """Returns (npc_pb2, npc_pb2_grpc) for npc.v1."""
    global _stubs
    if _stubs is None:
        out = tempfile.mkdtemp(prefix="npcd-client-")
        generate(out, proto_root(), os.path.join("npc", "v1", "npc.proto"))
        sys.path.insert(0, out)
        _stubs = (importlib.import_module("npc.v1.npc_pb2"),
                  importlib.import_module("npc.v1.npc_pb2_grpc"))
    return _stubs
