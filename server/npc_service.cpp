#include "npc_service.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "agent_view.h"
#include "client_hub.h"
#include "cluster/cluster_node.h"
#include "grpc_status.h"
#include "proto_convert.h"
#include "session.h"
#include "stats_board.h"

namespace npc {

namespace {

// A unary call answered later by the tick thread. The command's reply callback and the
// reactor share State: whichever comes first — the tick's answer or the client giving up —
// finishes the call, and the reply message (owned by gRPC until OnDone) is written only
// while the call is still open. The tick thread never sees the reactor itself.
class DeferredUnary final : public grpc::ServerUnaryReactor {
 public:
  class State {
   public:
    explicit State(DeferredUnary* reactor) : reactor_(reactor) {}

    // Runs fill() (on success only) and finishes, unless the call is already finished.
    template <class Fill>
    void finish(const grpc::Status& status, Fill&& fill) {
      std::lock_guard lock(mutex_);
      if (finished_ || reactor_ == nullptr) return;
      finished_ = true;
      if (status.ok()) fill();
      reactor_->Finish(status);
    }
    void finish(const grpc::Status& status) {
      finish(status, [] {});
    }
    void detach() {
      std::lock_guard lock(mutex_);
      reactor_ = nullptr;
    }

   private:
    std::mutex mutex_;
    DeferredUnary* reactor_;  // guarded by mutex_; null after OnDone
    bool finished_ = false;   // guarded by mutex_
  };

  DeferredUnary() : state_(std::make_shared<State>(this)) {}
  const std::shared_ptr<State>& state() const { return state_; }

  void OnCancel() override { state_->finish(grpc::Status::CANCELLED); }
  void OnDone() override {
    state_->detach();
    delete this;
  }

 private:
  std::shared_ptr<State> state_;
};

grpc::Status invalidArgument(const std::vector<std::string>& errors) {
  std::string text;
  for (const std::string& e : errors) text += (text.empty() ? "" : "; ") + e;
  return {grpc::StatusCode::INVALID_ARGUMENT, text};
}

// Queues `command`; a full queue finishes the call with RESOURCE_EXHAUSTED at once.
void submitOrRefuse(Simulation& sim, Command command, DeferredUnary::State& call) {
  if (!sim.submit(std::move(command))) {
    call.finish({grpc::StatusCode::RESOURCE_EXHAUSTED,
                 "the simulation's command queue is full; retry later"});
  }
}

using Call = std::shared_ptr<DeferredUnary::State>;

// The reply of a command whose answer is its status alone.
std::function<void(const Status&)> statusReply(Call call) {
  return [call = std::move(call)](const Status& s) { call->finish(toGrpcStatus(s)); };
}

// The reply of a command answering with a JSON view and the typed fields read from it
// (GetAgent, GetPlanTrace).
template <class Reply>
auto jsonReply(Reply* reply) {
  return [reply](Call call) {
    return [call = std::move(call), reply](const Status& s, const std::string& json) {
      call->finish(toGrpcStatus(s), [&] {
        reply->set_json(json);
        addTypedView(json, *reply);
      });
    };
  };
}

// The common shape of an admin call: validate `request` into a `Body` (toCommand), give it
// the reply callback make_reply(call) builds, queue it for the tick thread. The call is
// finished by that reply, or at once when the request is malformed or the queue is full.
template <class Body, class Request, class MakeReply>
grpc::ServerUnaryReactor* submitAdmin(Simulation& sim, const Request& request,
                                      MakeReply&& make_reply,
                                      ClientId origin = ClientId::kDaemon) {
  auto* reactor = new DeferredUnary();
  std::vector<std::string> errors;
  Body body;
  // Requests carrying positions are checked against the world's bounds.
  const WorldBounds& bounds = sim.config().world.bounds;
  bool valid;
  if constexpr (requires { toCommand(request, body, errors, bounds); }) {
    valid = toCommand(request, body, errors, bounds);
  } else {
    valid = toCommand(request, body, errors);
  }
  if (!valid) {
    reactor->state()->finish(invalidArgument(errors));
    return reactor;
  }
  body.reply = make_reply(reactor->state());
  submitOrRefuse(sim, Command{origin, 0, std::move(body)}, *reactor->state());
  return reactor;
}

}  // namespace

namespace {

// A stream refused before it starts: finishes at once, deletes itself when done.
class RefusedStream final : public grpc::ServerBidiReactor<v1::WorldUpdate, v1::ServerMessage> {
 public:
  explicit RefusedStream(const grpc::Status& status) { Finish(status); }
  void OnDone() override { delete this; }
};

}  // namespace

NpcService::NpcService(ClientHub& hub, StatsBoard& stats, AccessControl access)
    : hub_(hub), stats_(stats), access_(std::move(access)) {}

grpc::ServerUnaryReactor* NpcService::refuse(grpc::CallbackServerContext* context, Role needed,
                                             std::string_view call,
                                             const ClientCredential** caller) const {
  const ClientCredential* who = access_.identify(*context);
  if (caller) *caller = who;
  if (who && who->role >= needed) return nullptr;
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  reactor->Finish(who ? AccessControl::denied(*who, call) : AccessControl::unauthenticated());
  return reactor;
}

ClientId NpcService::originOf(const ClientCredential& caller) {
  return caller.role == Role::kAdmin ? ClientId::kDaemon : hub_.identityClient(caller.name);
}

grpc::ServerBidiReactor<v1::WorldUpdate, v1::ServerMessage>* NpcService::Connect(
    grpc::CallbackServerContext* context) {
  const ClientCredential* caller = access_.identify(*context);
  if (!caller) return new RefusedStream(AccessControl::unauthenticated());
  grpc::Status refusal;
  std::shared_ptr<Session> session =
      hub_.open(caller->name, caller->role == Role::kObserver, refusal);
  if (!session) return new RefusedStream(refusal);
  return new ConnectReactor(hub_, std::move(session), context);
}

grpc::ServerUnaryReactor* NpcService::SpawnAgent(grpc::CallbackServerContext* context,
                                                 const v1::SpawnAgentRequest* request,
                                                 v1::SpawnAgentResponse* reply) {
  const ClientCredential* caller = nullptr;
  if (auto* refused = refuse(context, Role::kGame, "SpawnAgent", &caller)) return refused;
  // A game client owns what it spawns; an admin's agents are shared (kUnowned).
  const ClientId owner = caller->role == Role::kAdmin ? ClientId::kUnowned : originOf(*caller);
  auto* reactor = new DeferredUnary();
  std::vector<std::string> errors;
  EntityState state;
  if (!toSpawnState(request->agent(), state, errors, hub_.sim().config().world.bounds)) {
    reactor->state()->finish(invalidArgument(errors));
    return reactor;
  }
  const uint64_t id = raw(state.id);
  npc::SpawnAgent spawn{std::move(state), [call = reactor->state(), reply, id](const Status& s) {
                          call->finish(toGrpcStatus(s), [&] { reply->set_id(id); });
                        }};
  submitOrRefuse(hub_.sim(), Command{owner, 0, std::move(spawn)}, *reactor->state());
  return reactor;
}

grpc::ServerUnaryReactor* NpcService::DespawnAgent(grpc::CallbackServerContext* context,
                                                   const v1::DespawnAgentRequest* request,
                                                   v1::DespawnAgentResponse* reply) {
  const ClientCredential* caller = nullptr;
  if (auto* refused = refuse(context, Role::kGame, "DespawnAgent", &caller)) return refused;
  return submitAdmin<npc::DespawnAgent>(hub_.sim(), *request, statusReply, originOf(*caller));
}

grpc::ServerUnaryReactor* NpcService::GetAgent(grpc::CallbackServerContext* context,
                                               const v1::GetAgentRequest* request,
                                               v1::GetAgentResponse* reply) {
  if (auto* refused = refuse(context, Role::kObserver, "GetAgent")) return refused;
  return submitAdmin<DescribeAgent>(hub_.sim(), *request, jsonReply(reply));
}

grpc::ServerUnaryReactor* NpcService::SendSignal(grpc::CallbackServerContext* context,
                                                 const v1::SendSignalRequest* request,
                                                 v1::SendSignalResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "SendSignal")) return refused;
  return submitAdmin<SignalEvent>(hub_.sim(), *request, statusReply);
}

grpc::ServerUnaryReactor* NpcService::SetBehaviorVariable(
    grpc::CallbackServerContext* context, const v1::SetBehaviorVariableRequest* request,
    v1::SetBehaviorVariableResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "SetBehaviorVariable")) return refused;
  return submitAdmin<npc::SetBehaviorVariable>(hub_.sim(), *request, statusReply);
}

grpc::ServerUnaryReactor* NpcService::SetPlannerValue(grpc::CallbackServerContext* context,
                                                      const v1::SetPlannerValueRequest* request,
                                                      v1::SetPlannerValueResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "SetPlannerValue")) return refused;
  return submitAdmin<npc::SetPlannerValue>(hub_.sim(), *request, statusReply);
}

grpc::ServerUnaryReactor* NpcService::GetPlanTrace(grpc::CallbackServerContext* context,
                                                   const v1::GetPlanTraceRequest* request,
                                                   v1::GetPlanTraceResponse* reply) {
  // Reading is for every role; switching tracing changes what the planner records: admin.
  const Role needed = request->has_trace() ? Role::kAdmin : Role::kObserver;
  if (auto* refused = refuse(context, needed, request->has_trace() ? "GetPlanTrace with trace"
                                                                   : "GetPlanTrace")) {
    return refused;
  }
  return submitAdmin<npc::GetPlanTrace>(hub_.sim(), *request, jsonReply(reply));
}

grpc::ServerUnaryReactor* NpcService::SetSensors(grpc::CallbackServerContext* context,
                                                 const v1::SetSensorsRequest* request,
                                                 v1::SetSensorsResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "SetSensors")) return refused;
  return submitAdmin<npc::SetSensors>(hub_.sim(), *request, statusReply);
}

grpc::ServerUnaryReactor* NpcService::SetPerceptionTuning(
    grpc::CallbackServerContext* context, const v1::SetPerceptionTuningRequest* request,
    v1::SetPerceptionTuningResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "SetPerceptionTuning")) return refused;
  return submitAdmin<npc::SetPerceptionTuning>(hub_.sim(), *request, [reply](Call call) {
    return [call = std::move(call), reply](const Status& s, const PerceptionTuning& now) {
      call->finish(toGrpcStatus(s), [&] {
        reply->set_som_speed(now.som_speed);
        reply->set_decay_per_update(now.decay_per_update);
        reply->set_suspicious_threshold(now.suspicious_threshold);
      });
    };
  });
}

grpc::ServerUnaryReactor* NpcService::RegisterVisibilityType(
    grpc::CallbackServerContext* context, const v1::RegisterVisibilityTypeRequest* request,
    v1::RegisterVisibilityTypeResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "RegisterVisibilityType")) return refused;
  return submitAdmin<npc::RegisterVisibilityType>(hub_.sim(), *request, statusReply);
}

grpc::ServerUnaryReactor* NpcService::SetAttributePrincipal(
    grpc::CallbackServerContext* context, const v1::SetAttributePrincipalRequest* request,
    v1::SetAttributePrincipalResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "SetAttributePrincipal")) return refused;
  return submitAdmin<npc::SetAttributePrincipal>(hub_.sim(), *request, statusReply);
}

grpc::ServerUnaryReactor* NpcService::GetStealthMeter(grpc::CallbackServerContext* context,
                                                      const v1::GetStealthMeterRequest* request,
                                                      v1::GetStealthMeterResponse* reply) {
  if (auto* refused = refuse(context, Role::kObserver, "GetStealthMeter")) return refused;
  const uint64_t player = request->player();
  return submitAdmin<GetStealth>(hub_.sim(), *request, [reply, player](Call call) {
    return [call = std::move(call), reply, player](const Status& s, EntityId agent, float value) {
      call->finish(toGrpcStatus(s), [&] {
        reply->set_player(player);
        reply->set_agent(raw(agent));
        reply->set_value(value);
      });
    };
  });
}

grpc::ServerUnaryReactor* NpcService::ReloadDefinitions(
    grpc::CallbackServerContext* context, const v1::ReloadDefinitionsRequest* request,
    v1::ReloadDefinitionsResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "ReloadDefinitions")) return refused;
  return submitAdmin<npc::ReloadDefinitions>(hub_.sim(), *request, [reply](Call call) {
    return [call = std::move(call), reply](const Status& s, const std::string& report) {
      call->finish(toGrpcStatus(s), [&] { reply->set_report(report); });
    };
  });
}

grpc::ServerUnaryReactor* NpcService::WakePlace(grpc::CallbackServerContext* context,
                                                const v1::WakePlaceRequest* request,
                                                v1::WakePlaceResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "WakePlace")) return refused;
  return submitAdmin<npc::WakePlace>(hub_.sim(), *request, statusReply);
}

grpc::ServerUnaryReactor* NpcService::ProgramIntention(
    grpc::CallbackServerContext* context, const v1::ProgramIntentionRequest* request,
    v1::ProgramIntentionResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "ProgramIntention")) return refused;
  return submitAdmin<npc::ProgramIntention>(hub_.sim(), *request, [reply](Call call) {
    return [call = std::move(call), reply](const Status& s, IntentionId id) {
      call->finish(toGrpcStatus(s), [&] { reply->set_intention(raw(id)); });
    };
  });
}

grpc::ServerUnaryReactor* NpcService::CancelIntention(grpc::CallbackServerContext* context,
                                                      const v1::CancelIntentionRequest* request,
                                                      v1::CancelIntentionResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "CancelIntention")) return refused;
  return submitAdmin<npc::CancelIntention>(hub_.sim(), *request, statusReply);
}

grpc::ServerUnaryReactor* NpcService::AddInfluence(grpc::CallbackServerContext* context,
                                                   const v1::AddInfluenceRequest* request,
                                                   v1::AddInfluenceResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "AddInfluence")) return refused;
  return submitAdmin<npc::AddInfluence>(hub_.sim(), *request, statusReply);
}

grpc::ServerUnaryReactor* NpcService::RemoveInfluence(grpc::CallbackServerContext* context,
                                                      const v1::RemoveInfluenceRequest* request,
                                                      v1::RemoveInfluenceResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "RemoveInfluence")) return refused;
  return submitAdmin<npc::RemoveInfluence>(hub_.sim(), *request, statusReply);
}

grpc::ServerUnaryReactor* NpcService::GetStats(grpc::CallbackServerContext* context,
                                               const v1::GetStatsRequest* request,
                                               v1::GetStatsResponse* reply) {
  if (auto* refused = refuse(context, Role::kObserver, "GetStats")) return refused;
  const DaemonStats d = stats_.load();
  reply->set_tick(d.sim.tick);
  reply->set_sim_time(d.sim.sim_time_s);
  reply->set_entities(d.sim.entities);
  reply->set_agents(d.sim.agents);
  reply->set_agents_awake(d.sim.agents_awake);
  reply->set_agents_asleep(d.sim.agents_asleep);
  reply->set_agents_reduced(d.sim.agents_reduced);
  reply->set_places(d.sim.places);
  reply->set_obstacles(d.sim.obstacles);
  reply->set_clients(static_cast<uint32_t>(hub_.clientCount()));
  reply->set_ticks_per_second(d.ticks_per_second);
  reply->set_tick_p50_ms(d.tick_p50_ms);
  reply->set_tick_p99_ms(d.tick_p99_ms);
  reply->set_tick_overruns(d.tick_overruns);
  reply->set_actions_emitted(d.sim.actions_emitted);
  reply->set_actions_completed(d.sim.actions_completed);
  reply->set_actions_failed(d.sim.actions_failed);
  reply->set_errors(hub_.errorCount(ClientHub::ErrorKind::kInput) +
                    hub_.errorCount(ClientHub::ErrorKind::kRefused));
  reply->set_clients_dropped(hub_.droppedCount());
  reply->set_places_awake(d.sim.places_awake);
  reply->set_places_asleep(d.sim.places_asleep);
  reply->set_places_held(d.sim.places_held);
  for (TickPhase phase : kTickPhases) {
    v1::PhaseTiming* timing = reply->add_phases();
    timing->set_phase(std::string(tickPhaseName(phase)));
    timing->set_p50_ms(d.phases[index(phase)].p50_ms);
    timing->set_p99_ms(d.phases[index(phase)].p99_ms);
  }
  reply->set_tick_stalls(d.tick_stalls);
  reply->set_state_checksum(d.state_checksum);
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  reactor->Finish(grpc::Status::OK);
  return reactor;
}

grpc::ServerUnaryReactor* NpcService::Snapshot(grpc::CallbackServerContext* context,
                                               const v1::SnapshotRequest* request,
                                               v1::SnapshotResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "Snapshot")) return refused;
  auto* reactor = new DeferredUnary();
  if (!snapshot_request_) {
    reactor->state()->finish({grpc::StatusCode::FAILED_PRECONDITION,
                              "snapshots are off: the config names no snapshot.dir"});
    return reactor;
  }
  snapshot_request_([call = reactor->state(), reply](const SnapshotResult& r) {
    call->finish(toGrpcStatus(r.status), [&] {
      reply->set_path(r.path);
      reply->set_tick(r.tick);
      reply->set_bytes(r.bytes);
    });
  });
  return reactor;
}

grpc::ServerUnaryReactor* NpcService::GetClusterState(grpc::CallbackServerContext* context,
                                                      const v1::GetClusterStateRequest* request,
                                                      v1::GetClusterStateResponse* reply) {
  if (auto* refused = refuse(context, Role::kAdmin, "GetClusterState")) return refused;
  auto* reactor = new DeferredUnary();
  const ClusterNode* cluster = cluster_.load();
  if (!cluster) {
    reactor->state()->finish(grpc::Status::OK, [&] { reply->set_enabled(false); });
    return reactor;
  }
  // Redis round trips block: off the gRPC thread. The cluster outlives the server.
  std::thread([cluster, call = reactor->state(), reply] {
    const ClusterView view = cluster->view();
    if (!view.status.isOk()) {
      call->finish({grpc::StatusCode::UNAVAILABLE, view.status.message()});
      return;
    }
    call->finish(grpc::Status::OK, [&] { toProto(view, cluster->config().node_id, *reply); });
  }).detach();
  return reactor;
}

}  // namespace npc
