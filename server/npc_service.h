// NpcService: the npc.v1.NpcSim gRPC service, callback API. Every handler is thin and never
// blocks a gRPC thread (STYLE.md #24):
//   Connect       -> a ConnectReactor over a new ClientHub session (UNAVAILABLE once draining)
//   SpawnAgent    -> validate, queue a SpawnAgent command; the tick thread's reply finishes
//   DespawnAgent  -> queue DespawnAgent; finished from the reply
//   GetAgent      -> queue DescribeAgent; the reply carries the JSON debug view
//   GetStats      -> answered at once from the StatsBoard and the hub's counters
//   SendSignal, SetBehaviorVariable, SetSensors, RegisterVisibilityType,
//   SetAttributePrincipal, GetStealthMeter, ReloadDefinitions, WakePlace, ProgramIntention,
//   CancelIntention, AddInfluence, RemoveInfluence, SetPlannerValue, GetPlanTrace,
//   SetPerceptionTuning
//                 -> validate (toCommand in proto_convert.h), queue the matching command;
//                    finished from its reply
// Calls that wait on a tick finish with CANCELLED if the client gives up first; a reply that
// arrives after that is ignored. Core Status -> gRPC code goes through toGrpcStatus() only.
//
// Every call is first identified and checked against its role (AccessControl): an unknown
// caller gets UNAUTHENTICATED, a role too low PERMISSION_DENIED. GetPlanTrace reads for any
// role but switches tracing (its `trace` field) for admins only.
//
// Agents spawned by an admin belong to nobody (ClientId::kUnowned, shared): their actions go
// to every client subscribed to their place. A game credential owns what it spawns, and
// DespawnAgent from it removes only its own agents (PERMISSION_DENIED otherwise, decided by
// the tick thread).
#pragma once

#include <atomic>
#include <string_view>

#include "access_control.h"
#include "npc/v1/npc.grpc.pb.h"
#include "snapshot_writer.h"
#include "world/ids.h"

namespace npc {

class ClientHub;
class ClusterNode;
class StatsBoard;

class NpcService final : public v1::NpcSim::CallbackService {
 public:
  NpcService(ClientHub& hub, StatsBoard& stats, AccessControl access = AccessControl());

  grpc::ServerBidiReactor<v1::WorldUpdate, v1::ServerMessage>* Connect(
      grpc::CallbackServerContext* context) override;
  grpc::ServerUnaryReactor* SpawnAgent(grpc::CallbackServerContext* context,
                                       const v1::SpawnAgentRequest* request,
                                       v1::SpawnAgentResponse* reply) override;
  grpc::ServerUnaryReactor* DespawnAgent(grpc::CallbackServerContext* context,
                                         const v1::DespawnAgentRequest* request,
                                         v1::DespawnAgentResponse* reply) override;
  grpc::ServerUnaryReactor* GetAgent(grpc::CallbackServerContext* context,
                                     const v1::GetAgentRequest* request,
                                     v1::GetAgentResponse* reply) override;
  grpc::ServerUnaryReactor* GetStats(grpc::CallbackServerContext* context,
                                     const v1::GetStatsRequest* request,
                                     v1::GetStatsResponse* reply) override;
  grpc::ServerUnaryReactor* SendSignal(grpc::CallbackServerContext* context,
                                       const v1::SendSignalRequest* request,
                                       v1::SendSignalResponse* reply) override;
  grpc::ServerUnaryReactor* SetPlannerValue(grpc::CallbackServerContext* context,
                                            const v1::SetPlannerValueRequest* request,
                                            v1::SetPlannerValueResponse* reply) override;
  grpc::ServerUnaryReactor* GetPlanTrace(grpc::CallbackServerContext* context,
                                         const v1::GetPlanTraceRequest* request,
                                         v1::GetPlanTraceResponse* reply) override;
  grpc::ServerUnaryReactor* SetBehaviorVariable(grpc::CallbackServerContext* context,
                                                const v1::SetBehaviorVariableRequest* request,
                                                v1::SetBehaviorVariableResponse* reply) override;
  grpc::ServerUnaryReactor* SetPerceptionTuning(grpc::CallbackServerContext* context,
                                                const v1::SetPerceptionTuningRequest* request,
                                                v1::SetPerceptionTuningResponse* reply) override;
  grpc::ServerUnaryReactor* SetSensors(grpc::CallbackServerContext* context,
                                       const v1::SetSensorsRequest* request,
                                       v1::SetSensorsResponse* reply) override;
  grpc::ServerUnaryReactor* RegisterVisibilityType(
      grpc::CallbackServerContext* context, const v1::RegisterVisibilityTypeRequest* request,
      v1::RegisterVisibilityTypeResponse* reply) override;
  grpc::ServerUnaryReactor* SetAttributePrincipal(
      grpc::CallbackServerContext* context, const v1::SetAttributePrincipalRequest* request,
      v1::SetAttributePrincipalResponse* reply) override;
  grpc::ServerUnaryReactor* GetStealthMeter(grpc::CallbackServerContext* context,
                                            const v1::GetStealthMeterRequest* request,
                                            v1::GetStealthMeterResponse* reply) override;
  grpc::ServerUnaryReactor* ReloadDefinitions(grpc::CallbackServerContext* context,
                                              const v1::ReloadDefinitionsRequest* request,
                                              v1::ReloadDefinitionsResponse* reply) override;
  grpc::ServerUnaryReactor* WakePlace(grpc::CallbackServerContext* context,
                                      const v1::WakePlaceRequest* request,
                                      v1::WakePlaceResponse* reply) override;
  grpc::ServerUnaryReactor* ProgramIntention(grpc::CallbackServerContext* context,
                                             const v1::ProgramIntentionRequest* request,
                                             v1::ProgramIntentionResponse* reply) override;
  grpc::ServerUnaryReactor* CancelIntention(grpc::CallbackServerContext* context,
                                            const v1::CancelIntentionRequest* request,
                                            v1::CancelIntentionResponse* reply) override;
  grpc::ServerUnaryReactor* AddInfluence(grpc::CallbackServerContext* context,
                                         const v1::AddInfluenceRequest* request,
                                         v1::AddInfluenceResponse* reply) override;
  grpc::ServerUnaryReactor* RemoveInfluence(grpc::CallbackServerContext* context,
                                            const v1::RemoveInfluenceRequest* request,
                                            v1::RemoveInfluenceResponse* reply) override;
  grpc::ServerUnaryReactor* Snapshot(grpc::CallbackServerContext* context,
                                     const v1::SnapshotRequest* request,
                                     v1::SnapshotResponse* reply) override;
  // Where Snapshot calls go (SnapshotWriter::request); unset: snapshots are off.
  void setSnapshotRequests(std::function<void(SnapshotWriter::Done)> request) {
    snapshot_request_ = std::move(request);
  }
  grpc::ServerUnaryReactor* GetClusterState(grpc::CallbackServerContext* context,
                                            const v1::GetClusterStateRequest* request,
                                            v1::GetClusterStateResponse* reply) override;
  // The cluster GetClusterState describes (it must outlive the service); unset: alone.
  // Set once the server listens (the node advertises the bound port), so calls may race it.
  void setClusterView(const ClusterNode* cluster) { cluster_.store(cluster); }

 private:
  // Null when the caller's role allows `call` (and *caller is set); otherwise a reactor
  // already finished with UNAUTHENTICATED or PERMISSION_DENIED.
  grpc::ServerUnaryReactor* refuse(grpc::CallbackServerContext* context, Role needed,
                                   std::string_view call,
                                   const ClientCredential** caller = nullptr) const;
  // Whose commands a unary call sends: the daemon for admins, else the client identity.
  ClientId originOf(const ClientCredential& caller);

  ClientHub& hub_;
  StatsBoard& stats_;
  AccessControl access_;
  std::function<void(SnapshotWriter::Done)> snapshot_request_;
  std::atomic<const ClusterNode*> cluster_{nullptr};
};

}  // namespace npc
