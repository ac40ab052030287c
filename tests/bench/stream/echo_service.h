// EchoService: the ceiling the stream bench measures npcd against. A bare gRPC service with
// npcd's Connect signature (stream WorldUpdate -> stream ServerMessage) that answers every
// WorldUpdate with one fixed ServerMessage, and does nothing else: no parsing beyond what
// gRPC does, no simulation, no per-message allocation. What npcd does on top of this is
// what the bench's ratios price.
//
// Same API style as npcd's ConnectReactor (callback reactor, one read and one write in
// flight at most), so the comparison is of the work done, not of two gRPC APIs.
#pragma once

#include <cstddef>

#include "npc/v1/npc.grpc.pb.h"

namespace npc::bench {

class EchoService final : public v1::NpcSim::CallbackService {
 public:
  // `reply` is written once for every update read; it must outlive the service's calls.
  // `max_owed`: replies owed before reading pauses (HTTP/2 flow control then holds the
  // client back), so a client that stops reading cannot make the server queue without end.
  EchoService(const v1::ServerMessage& reply, size_t max_owed);

  grpc::ServerBidiReactor<v1::WorldUpdate, v1::ServerMessage>* Connect(
      grpc::CallbackServerContext* context) override;

 private:
  const v1::ServerMessage& reply_;
  const size_t max_owed_;
};

}  // namespace npc::bench
