// NpcService: the npc.v1.NpcSim gRPC service, callback API. Every handler is thin and never
// blocks a gRPC thread (STYLE.md #24):
//   Connect       -> a ConnectReactor over a new ClientHub session (UNAVAILABLE once draining)
//   SpawnAgent    -> validate, queue a SpawnAgent command; the tick thread's reply finishes
//   DespawnAgent  -> queue DespawnAgent; finished from the reply
//   GetAgent      -> queue DescribeAgent; the reply carries the JSON debug view
//   GetStats      -> answered at once from the StatsBoard and the hub's counters
// Calls that wait on a tick finish with CANCELLED if the client gives up first; a reply that
// arrives after that is ignored. Core Status -> gRPC code goes through toGrpcStatus() only.
//
// Agents spawned here belong to nobody (ClientId::kUnowned): their actions go to every
// client subscribed to their place, like the agents of a client that left.
#pragma once

#include "npc/v1/npc.grpc.pb.h"

namespace npc {

class ClientHub;
class StatsBoard;

class NpcService final : public v1::NpcSim::CallbackService {
 public:
  NpcService(ClientHub& hub, StatsBoard& stats);

  grpc::ServerBidiReactor<v1::WorldUpdate, v1::ServerMessage>* Connect(
      grpc::CallbackServerContext* context) override;
  grpc::ServerUnaryReactor* SpawnAgent(grpc::CallbackServerContext* context,
                                       const v1::SpawnAgentRequest* request,
                                       v1::SpawnAgentReply* reply) override;
  grpc::ServerUnaryReactor* DespawnAgent(grpc::CallbackServerContext* context,
                                         const v1::DespawnAgentRequest* request,
                                         v1::DespawnAgentReply* reply) override;
  grpc::ServerUnaryReactor* GetAgent(grpc::CallbackServerContext* context,
                                     const v1::GetAgentRequest* request,
                                     v1::GetAgentReply* reply) override;
  grpc::ServerUnaryReactor* GetStats(grpc::CallbackServerContext* context,
                                     const v1::GetStatsRequest* request,
                                     v1::Stats* reply) override;

 private:
  ClientHub& hub_;
  StatsBoard& stats_;
};

}  // namespace npc
