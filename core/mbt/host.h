// MbtHost: everything a behavior tree needs from outside the MBT module, for the one agent
// being ticked. The simulation implements it (and re-targets it to each agent before
// calling MbtInstance::handleEvent / tick); tests implement it with scripted results.
//
// Contract for implementers:
//   - Every call refers to the agent the instance belongs to; the host never needs to be
//     told which, and the tree never sees another agent's data through it.
//   - Calls happen inside handleEvent() / tick() / terminate(), on the thread that made
//     that call: the tick thread, or a worker of the tick's pool for tick(host, worker)
//     (one host per worker; the simulation's keeps what reaches other agents per worker).
//   - The tree never keeps references returned by the host past the call that returned
//     them (agent() is re-read whenever needed).
//   - No call should allocate in steady state: requests and parameters are fixed-size,
//     names are interned (MbtLibrary::names()).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "mbt/mbt_types.h"
#include "world/ids.h"
#include "world/obstacle.h"
#include "world/vec3.h"

namespace npc {

// How well the agent knows its attention target (mirrors perception's AttentionClass).
enum class MbtTargetClass : uint8_t { kNone, kHeard, kRemembered, kVisible };

// What the tree reads about its agent: body, home, group, attention target.
struct MbtAgentView {
  EntityId id = EntityId::kNone;
  std::string_view name;           // for messages; "" shows as "agent <id>"
  Vec3 position;
  Vec3 forward{1.f, 0.f, 0.f};     // unit vector
  Vec3 home;                       // Move to="InitialPosition"
  uint64_t group = 0;              // GroupScope / LimitConcurrentUsers counting key: agents
                                   // with the same group share scopes (0 is a group too)
  MbtTargetClass target_class = MbtTargetClass::kNone;
  EntityId target = EntityId::kNone;  // kNone for an anonymous sound
  Vec3 target_position;            // last known position of the attention target
};

// One typed action parameter; same fields as the simulation's ActionParam
// (core/sim/tick_output.h), so converting is a field-by-field copy. Names, units and text
// values are interned in MbtLibrary::names().
struct MbtActionParam {
  enum class Type : uint8_t { kEntity, kNumber, kPosition, kText };
  Type type = Type::kNumber;
  ActionNameId name{0};
  ActionNameId unit{0};  // "m", "s", "deg" or "" (kNumber)
  ActionNameId text{0};  // kText
  EntityId entity = EntityId::kNone;  // kEntity (position carries its last known position)
  double number = 0.0;
  Vec3 position;       // kPosition, and kEntity's last known position
};

// A client-side action a node wants performed (Move, Shoot, Animate, ...). `name` is the
// action's interned name: the node type for standard action nodes ("Move"), the `name`
// attribute for the generic <Action>.
struct MbtActionRequest {
  ActionNameId name{0};
  uint8_t param_count = 0;
  bool waits = true;  // false: fire-and-forget, the node never polls nor cancels it
  std::array<MbtActionParam, kMaxMbtActionParams> params{};

  std::span<const MbtActionParam> activeParams() const { return {params.data(), param_count}; }
};

// Host-chosen handle of a started action. kNone = could not start (the node fails).
enum class MbtActionHandle : uint64_t { kNone = 0 };
inline constexpr uint64_t raw(MbtActionHandle h) { return static_cast<uint64_t>(h); }

enum class MbtActionState : uint8_t { kRunning, kSucceeded, kFailed };

// Planning (<Plan> / <ExecutePlan>): the host owns the agent's planner and plan runner.
enum class MbtPlanState : uint8_t { kRunning, kSucceeded, kFailed };

// A walk from the agent to a point, as the host's walkable ground sees it (<CanReach>,
// entity:CanReachTarget, QueryTPS). Without a ground model the walk is the straight line.
struct MbtWalk {
  bool reachable = true;
  float length_m = 0.f;  // along the walk when reachable; 0 otherwise
};


// One message on its way out (valid for the duration of MbtHost::log only).
struct MbtLogMessage {
  MbtLogKind kind = MbtLogKind::kMessage;
  EntityId agent = EntityId::kNone;
  double time_s = 0.0;
  std::string_view tree;       // tree name
  std::string_view file;       // file the node was written in
  uint32_t line = 0;           // of the node; 0 for the tree itself
  std::string_view node_type;  // "Move", "" for the tree itself
  std::string_view text;       // the message; errors are "file:line: <Type> [agent]: why"
};

// A signal as it reaches a tree (handleEvent): its id and the data it carries, which
// <OnSignal> handlers read in Lua as `signal` (seed 001's OnSoundHeard(entity, distance)).
struct MbtEvent {
  SignalId id = SignalId::kNone;
  EntityId sender = EntityId::kNone;   // kNone: perception or the game
  EntityId subject = EntityId::kNone;  // the entity seen, heard or acted on; kNone: none
  Vec3 position;                       // where it happened (sound, sighting, sender)
  float distance_m = -1.f;             // from the agent to `position`; < 0: unknown
  float value = 0.f;                   // coefficient, threat or the sender's number
  std::string_view action;             // the action concerned (OnExternalAction: what the
                                       // sender did; OnObjectTaken: "Take"); "" = none
};

class MbtHost {
 public:
  virtual ~MbtHost() = default;

  // Simulated time in seconds (never the wall clock). Must not decrease.
  virtual double nowS() const = 0;
  // The agent being ticked.
  virtual const MbtAgentView& agent() const = 0;

  // Starts an action; kNone when it cannot start (unknown action, queue full): the node
  // then fails. For a request with waits == false the host may return any non-kNone
  // handle: the node never refers to it again.
  virtual MbtActionHandle startAction(const MbtActionRequest& request) = 0;
  // State of a started action. Called once per tick while the node waits. An unknown or
  // expired handle should read kFailed.
  virtual MbtActionState pollAction(MbtActionHandle handle) = 0;
  // The node was interrupted (or timed out) while the action ran: stop it. Never called
  // for a handle that already read kSucceeded / kFailed.
  virtual void cancelAction(MbtActionHandle handle) = 0;

  // A signal the tree sends into the world; it comes back as an event, normally on a later
  // tick (the host decides routing and delivery, e.g. through perception's signal queue).
  virtual void sendSignal(SignalId signal, MbtSignalScope scope) = 0;

  // `planner` names one of the agent's planners ("" = its first or only one).
  // Plans now for `goal` ("" = the goal the planner's own selection picks) in the bucket of
  // the agent's behavior, and keeps the plan for executePlan(). kSucceeded: a plan (or the
  // goal already holds); kFailed: no plan (the reason goes to the agent's plan view), or
  // no such planner. Hosts without a planner keep the default.
  virtual MbtPlanState requestPlan(std::string_view planner, std::string_view goal) {
    return MbtPlanState::kFailed;
  }
  // Called every tick while <ExecutePlan> runs: programs the kept plan's next step as
  // intentions and follows their results. kSucceeded once every step succeeded; kFailed
  // when a step failed, the facts broke the plan, or there is no plan.
  virtual MbtPlanState executePlan(std::string_view planner) { return MbtPlanState::kFailed; }
  // <ExecutePlan> left: cancels the running step's intentions. Idempotent.
  virtual void stopPlan(std::string_view planner) {}

  // Sets one of the agent's behavior selection variables (its selection tree's, seed 001's
  // AI.SetBehaviorVariable); the tree re-selects at the next selection. False when the
  // agent has no selection tree or the tree declares no such variable (case-insensitive).
  virtual bool setSelectionVariable(std::string_view name, bool value) { return false; }

  // Static obstacles QueryTPS may search for cover (empty: cover queries fail).
  virtual std::span<const Obstacle> obstacles() const { return {}; }

  // Can the agent walk from where it stands to `to`, and how long is the walk? The default
  // is open ground: always reachable, along the straight line. A host with a navmesh
  // answers from it: a point off the mesh, or one no path joins, is not reachable; a
  // search that ran out of its limits is no evidence (reachable, the straight line).
  virtual MbtWalk walkTo(Vec3 to) { return {true, length(to - agent().position)}; }
  // Moves `point` onto the ground the agent can walk to (with a navmesh: the nearest point
  // on the mesh, when a path joins it to the agent); false when there is none near `point`,
  // and `point` is then unchanged. The default (open ground) leaves it and says true.
  virtual bool placeOnGround(Vec3& point) { return true; }

  // Log sink: every message of the log router (history is kept by the instance anyway).
  // Forward to spdlog or drop. Must not keep `message`'s views.
  virtual void log(const MbtLogMessage& message) {}
};

// A host that does nothing: used to terminate instances when no real host is at hand
// (destruction, describe). Actions cannot start; time is 0; the agent view is empty but
// for the id.
class MbtNullHost final : public MbtHost {
 public:
  explicit MbtNullHost(EntityId agent = EntityId::kNone) { view_.id = agent; }
  double nowS() const override { return 0.0; }
  const MbtAgentView& agent() const override { return view_; }
  MbtActionHandle startAction(const MbtActionRequest&) override { return MbtActionHandle::kNone; }
  MbtActionState pollAction(MbtActionHandle) override { return MbtActionState::kFailed; }
  void cancelAction(MbtActionHandle) override {}
  void sendSignal(SignalId, MbtSignalScope) override {}

 private:
  MbtAgentView view_;
};

}  // namespace npc
