#!/usr/bin/python3
"""A small second client for npcd, in Python (Debian's python3-grpcio): proof that the
proto is usable outside C++, and a handy tool.

  scripts/npcd_client.py --target 127.0.0.1:50051 stats
  scripts/npcd_client.py --target 127.0.0.1:50051 agent 1101
  scripts/npcd_client.py --target 127.0.0.1:50051 smoke   # stream, perform, reflect, check

The npc.v1 stubs and their generation come from the client package
(proto/clients/python, `npcd_client`); this script adds reflection and a smoke check.
Must run with /usr/bin/python3: Debian's grpcio is installed for the system Python only.
"""
import argparse
import importlib
import json
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "proto", "clients", "python"))
from npcd_client.stubs import generate, load_stubs  # noqa: E402

GRPC_PROTO = "/usr/share/grpc-proto"  # Debian grpc-proto: reflection.proto


def list_services(channel):
    """Names the services the server advertises through gRPC server reflection."""
    # Copied under another folder: a generated "grpc" package would shadow grpcio itself.
    out = tempfile.mkdtemp(prefix="npcd-refl-")
    os.makedirs(os.path.join(out, "npcd_reflection"))
    shutil.copy(os.path.join(GRPC_PROTO, "grpc/reflection/v1alpha/reflection.proto"),
                os.path.join(out, "npcd_reflection"))
    generate(out, out, "npcd_reflection/reflection.proto")
    sys.path.insert(0, out)
    refl = importlib.import_module("npcd_reflection.reflection_pb2")
    refl_rpc = importlib.import_module("npcd_reflection.reflection_pb2_grpc")
    stub = refl_rpc.ServerReflectionStub(channel)
    replies = stub.ServerReflectionInfo(iter([refl.ServerReflectionRequest(list_services="")]),
                                        timeout=5)
    return sorted(s.name for r in replies for s in r.list_services_response.service)


def metadata(token):
    return [("authorization", "Bearer " + token)] if token else []


def smoke(pb, stub, token, channel):
    """Streams a villager NPC and a player like a game client would, performs the actions
    it receives until the villager reacts to the player (its Greet behavior), and checks
    the round trip, the debug view and reflection."""
    agent_id, player_id = 900001, 900002
    updates = []
    seq = [0]

    def update(**fields):
        seq[0] += 1
        return pb.WorldUpdate(seq=seq[0], **fields)

    updates.append(update(
        upserts=[pb.Entity(id=agent_id, kind=pb.ENTITY_KIND_NPC, archetype="villager",
                           position=pb.Vec3(x=-30, y=-30, z=0)),
                 pb.Entity(id=player_id, kind=pb.ENTITY_KIND_PLAYER,
                           position=pb.Vec3(x=-27, y=-30, z=0))],
        subscribe=pb.Subscription()))
    performed = []
    errors = []

    def requests():
        while True:
            while updates:
                yield updates.pop(0)
            time.sleep(0.02)

    deadline = time.time() + 20
    stream = stub.Connect(requests(), metadata=metadata(token), timeout=25)
    for message in stream:
        for event in message.events:
            if event.kind == pb.EVENT_KIND_ERROR:
                errors.append(event.text)
        for action in message.actions:
            if action.agent != agent_id:
                continue
            performed.append(action.name)
            updates.append(update(results=[pb.ActionResult(
                agent=agent_id, intention=action.intention,
                outcome=pb.ActionResult.OUTCOME_COMPLETED)]))
        reacted = [a for a in performed if a != "MoveTo"]  # anything but wandering
        if reacted or time.time() > deadline:
            break
    stream.cancel()
    reply = stub.GetAgent(pb.GetAgentRequest(id=agent_id), metadata=metadata(token), timeout=5)
    view = json.loads(reply.json)
    print(json.dumps({"performed": performed, "errors": errors,
                      "behavior": view.get("behavior")}, indent=2))
    services = list_services(channel)
    print("services: " + ", ".join(services))
    reacted = [a for a in performed if a != "MoveTo"]
    ok = (reacted and not errors and view["id"] == agent_id
          and view["behavior"]["name"] == "Greet" and "npc.v1.NpcSim" in services)
    print("smoke: " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="127.0.0.1:50051")
    parser.add_argument("--token", default=os.environ.get("NPCD_AUTH_TOKEN", ""))
    parser.add_argument("command", choices=["stats", "agent", "smoke"])
    parser.add_argument("id", nargs="?", type=int)
    args = parser.parse_args()

    import grpc
    pb, rpc = load_stubs()
    channel = grpc.insecure_channel(args.target)
    stub = rpc.NpcSimStub(channel)
    if args.command == "stats":
        print(stub.GetStats(pb.GetStatsRequest(), metadata=metadata(args.token), timeout=5))
        return 0
    if args.command == "agent":
        if args.id is None:
            parser.error("agent needs an id")
        reply = stub.GetAgent(pb.GetAgentRequest(id=args.id), metadata=metadata(args.token),
                              timeout=5)
        print(json.dumps(json.loads(reply.json), indent=2))
        return 0
    return smoke(pb, stub, args.token, channel)


if __name__ == "__main__":
    sys.exit(main())
