// Commands: everything that changes the simulation from outside. Clients' world updates,
// admin calls and the built-in demo game all arrive as Commands, are queued by any thread
// and applied by the tick thread at the start of the next tick, in submission order.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/status.h"
#include "world/entity.h"
#include "world/ids.h"
#include "world/obstacle.h"
#include "world/vec3.h"

namespace npc {

// Full or partial state of one entity; fields left empty keep their current value (or the
// default for a new entity).
struct EntityState {
  EntityId id = EntityId::kNone;
  EntityKind kind = EntityKind::kObject;
  std::string species;    // empty: unchanged / none
  std::optional<Vec3> position;
  std::optional<Vec3> forward;
  std::optional<Vec3> velocity;
  std::optional<float> eye_height_m;
  std::optional<bool> active;
  std::string place;      // empty: derived from position and place bounds
  std::string archetype;  // npc only: required when the npc is new
  // npc only: its signal group (a squad), set when it spawns; empty: its archetype's name,
  // so agents spawned without one form one group per archetype.
  std::string group;
  std::optional<bool> takeable;     // objects: false keeps Take off it (default true)
  std::optional<float> lifetime_s;  // attributes only: vanishes this many seconds from now
                                    // [Limit: finite, > 0]
  // Cluster: a player another node has from the game, near a place held here, relayed so
  // that agents here see and hear it (takeVisitingPlayers). It is a visitor: it vanishes
  // unless relayed again, and the game's own updates of the same id take it over. Players
  // only; not relayed again.
  bool relayed = false;
};

// The first problem of the fields a client may send (finite vectors, a non-zero forward,
// a non-negative eye height); checked again where the state applies.
Status validateState(const EntityState& s);

struct UpsertEntity {
  EntityState state;
};
struct RemoveEntity {
  EntityId id;
};
struct UpsertObstacle {
  Obstacle obstacle;
};
struct RemoveObstacle {
  ObstacleId id;
};
// A noise somebody made: heard by agents within radius_m × their hearing scale.
struct SoundEvent {
  EntityId source = EntityId::kNone;
  Vec3 position;
  float radius_m = 0.f;
  std::string kind;    // generic, footstep, collision, gunshot, explosion, bullet_impact
  float threat = -1.f; // 0..1; negative: the kind's default
  // Cluster: made in a place another node holds and relayed here (takeCrossingSounds); not
  // relayed again.
  bool relayed = false;
};
// A named signal. Receivers, by the first field set: one agent (target), every agent of a
// place, of a species, of a signal group (by number, or by name), or within radius_m of
// position.
struct SignalEvent {
  EntityId target = EntityId::kNone;
  std::string place;
  std::string species;
  GroupNumber group = GroupNumber::kNone;
  std::string group_name;
  float radius_m = 0.f;
  Vec3 position;
  std::string name;
  EntityId sender = EntityId::kNone;
  float value = 0.f;     // carried to receivers
  // Carried to receivers too: what the signal is about and the action that made it (an
  // agent's action relayed from the node that ran it: Take's object, "Take").
  EntityId subject = EntityId::kNone;
  std::string action;
  std::function<void(const Status&)> reply;  // admin calls only
  // Cluster: sent to a place another node holds, or within a radius reaching one, and
  // relayed here (takeCrossingSignals); not relayed again.
  bool relayed = false;
};

enum class ActionOutcome : uint8_t { kCompleted, kFailed, kProgress };

// The game's report on an action it was asked to perform.
struct ActionResult {
  EntityId agent = EntityId::kNone;
  IntentionId intention = IntentionId::kNone;
  ActionOutcome outcome = ActionOutcome::kCompleted;
  float progress = 0.f;  // 0..1, for kProgress
  std::string reason;    // why it failed
};

// Admin: create an agent; fails with kAlreadyExists if the id is taken.
struct SpawnAgent {
  EntityState state;
  std::function<void(const Status&)> reply;
};
struct DespawnAgent {
  EntityId id;
  std::function<void(const Status&)> reply;
};
// Admin: a JSON debug view of one agent, built on the tick thread.
struct DescribeAgent {
  EntityId id;
  std::function<void(const Status&, const std::string& json)> reply;
};
// Admin: switch an agent's sensors at run time; unset fields keep their value.
struct SetSensors {
  EntityId agent;
  std::optional<bool> vision, hearing, signals;
  std::optional<float> sight_range_m, fov_deg, hearing_scale;
  std::function<void(const Status&)> reply;
};
// Admin: SetBehaviorVariable on one agent's selection tree.
struct SetBehaviorVariable {
  EntityId agent;
  std::string name;
  bool value = false;
  std::function<void(const Status&)> reply;
};
// The perception tuning a daemon runs with (PerceptionConfig's live part).
struct PerceptionTuning {
  float som_speed = 0.f;
  float decay_per_update = 0.f;
  float suspicious_threshold = 0.f;
};
// Admin (and config reload): perception tuning, live (seed 000's ai_SOM_SPEED); unset fields
// keep their value, so an empty command reads it. kInvalidArgument names the field out of
// range; nothing changes then. The reply carries the tuning in effect afterwards.
struct SetPerceptionTuning {
  std::optional<float> som_speed;             // [Limit: finite, > 0]
  std::optional<float> decay_per_update;      // [Limit: finite, >= 0]
  std::optional<float> suspicious_threshold;  // [Limit: (0, 10]]
  std::function<void(const Status&, const PerceptionTuning&)> reply;
};
// Admin: register (or, with remove, unregister) an object type for visibility.
struct RegisterVisibilityType {
  std::string type;          // the objects' species name
  float multiplier = 1.f;    // assessment multiplier [Limit: > 0]
  bool use_coefficient = false;
  bool neutral = false;      // seen and remembered, never an enemy (VisibilityType)
  bool remove = false;
  std::function<void(const Status&)> reply;
};
// Admin: seeing `attribute` (an attribute entity) reveals `principal`.
struct SetAttributePrincipal {
  EntityId attribute;
  EntityId principal;
  std::function<void(const Status&)> reply;
};
// Admin: one player's stealth meter: the highest perception coefficient (0..10) any agent
// has for them, and which agent.
struct GetStealth {
  EntityId player;
  std::function<void(const Status&, EntityId agent, float value)> reply;
};
// Admin: reload the definitions (archetypes, behavior trees, planner domains, selection
// trees) from disk (definition_set.h); a kind's bad set is refused and its loaded one
// stays. `report` lists errors and warnings.
struct ReloadDefinitions {
  std::function<void(const Status&, const std::string& report)> reply;
};
// Admin / game: wake a sleeping place now (delay_s 0) or at a scheduled time (a game event
// due delay_s seconds from now).
struct WakePlace {
  std::string place;
  double delay_s = 0.0;
  std::function<void(const Status&)> reply;
};
// The last stream of a client ended: the agents it owned keep living and their actions go
// to every client subscribed to their place. An anonymous client's entities become shared
// (kUnowned) for good; a client with a configured identity (keeps_ownership) stays their
// owner while away and regains them with ClientBack (core/sim/README.md "Ownership").
struct ClientGone {
  bool keeps_ownership = false;
};
// A client with a configured identity opened its first stream again.
struct ClientBack {};
// The daemon came back from a snapshot (and its journal): the game's connections, and the
// results of the actions it was running, are gone. Each agent's running intention is
// reported INTERRUPTED ("the daemon restarted from a snapshot taken while it ran"), queued
// ones are dropped; the game and the trees recover as from any interruption. A command, so
// that the input journal replays it where it happened.
// Anonymous clients' entities become shared, as when each had sent ClientGone (nobody can
// report for them any more); named clients keep theirs.
struct InterruptInFlight {};
// The server gave a configured client identity (`name`) the command's origin as its id
// (ClientDirectory). A command so that the journal replays it and snapshots keep it.
struct BindClient {
  std::string name;
};
// Cluster: this daemon now holds `place` under the lease of `epoch` (held), or gave it up or
// may have lost it (not held: its agents are unloaded at once, without a word to clients;
// they live on in the place's next holder). core/sim/place_custody.h. Refused when places
// are not leased (no cluster), for an unknown place, or for an epoch not above the place's
// last (kFailedPrecondition).
struct HoldPlace {
  std::string place;
  bool held = true;
  uint64_t epoch = 0;
  std::function<void(const Status&)> reply;
};
// Cluster: which node holds a place this daemon does not ("node-b at 10.0.0.6:50051"; empty:
// nobody or unknown), named when an npc update into that place is refused, so the game
// knows where to send it. Ignored for a place held here.
struct NotePlaceHolder {
  std::string place;
  std::string holder;
};
// Cluster: an npc the game moved into a place held elsewhere (Simulation::takeLeaving) has
// been written to that place's holder, which runs it from now on: it leaves this daemon
// without a word to clients. kNotFound when it is not here (any more).
struct HandOver {
  EntityId id = EntityId::kNone;
};

// --- Intentions (core/intent, seed 004) ------------------------------------------------
// Errors of the commands below: unknown agent kNotFound, hibernating agent
// kFailedPrecondition, unknown action or influence kNotFound, full queue kResourceExhausted;
// the rest as toStatus() (core/intent/decision_tree.h) says.

// A typed action parameter as a client or script sends it (seed 004's parameter types:
// entity, value with a unit, position, text). Names are interned by the tick thread.
struct IntentionParam {
  enum class Type : uint8_t { kEntity, kNumber, kPosition, kText };
  Type type = Type::kNumber;
  std::string name;  // optional ("target", "delay")
  EntityId entity = EntityId::kNone;
  double number = 0.0;
  std::string unit;  // kNumber: "s", "min", "m", "kg"...
  Vec3 position;     // kPosition: in the agent's place
  std::string text;  // kText: a message or a type name ("breads_ready", "Bread")
};

// Admin (game scripts, tests): programs `action` on the agent's decision tree, as its
// controller would, due delay_s from now (same date: in programming order). Game-only
// actions are refused (kFailedPrecondition): use GameAction. Replies with the intention id.
struct ProgramIntention {
  EntityId agent = EntityId::kNone;
  std::string action;
  double delay_s = 0.0;  // [Limit: finite, >= 0]
  std::vector<IntentionParam> params;  // at most kMaxActionArgs (6); client-side actions 4
  // Runs only if this intention of the agent completes; dropped if it ends otherwise.
  IntentionId depends_on = IntentionId::kNone;
  std::function<void(const Status&, IntentionId)> reply;
};
// Admin: ends one of the agent's intentions as its controller would: the running one is
// interrupted (Interrupted event, kCancelled), a pending one is deprogrammed (no event).
// Game-scheduled ones are refused (kFailedPrecondition).
struct CancelIntention {
  EntityId agent = EntityId::kNone;
  IntentionId intention = IntentionId::kNone;
  std::function<void(const Status&)> reply;
};
// Game: entity `from` performed an action on `agent` (the receiver). Coercive (`coercive`
// set, or any registered implementation of `action` is): the agent's current action is
// interrupted now (kCoerced, subject = from); otherwise it runs on this turn. A named
// action must be registered somewhere (kNotFound otherwise).
struct ExternalAction {
  EntityId agent = EntityId::kNone;
  EntityId from = EntityId::kNone;
  std::string action;  // "" with coercive: an unnamed attack
  bool coercive = false;
  std::function<void(const Status&)> reply;  // admin calls only
};
// Game: schedules an action the controller cannot program (Die next turn, Land at the end
// of a fall), delay_s from now. Coercive: when due it preempts the current action.
struct GameAction {
  EntityId agent = EntityId::kNone;
  std::string action;
  double delay_s = 0.0;  // [Limit: finite, >= 0]
  bool coercive = false;
  std::vector<IntentionParam> params;
  std::function<void(const Status&, IntentionId)> reply;  // admin calls only
};
// Admin / game: puts the agent under an influence (a spell, a profession) from the
// influences file, or takes it away ("you can't fly anymore because the spell ended": an
// action from it that is running is interrupted at the agent's next turn). Adding one the
// agent has is kOk; removing one it does not have is kNotFound; more than 6 at a time
// kResourceExhausted.
struct AddInfluence {
  EntityId agent = EntityId::kNone;
  std::string influence;
  std::function<void(const Status&)> reply;
};
struct RemoveInfluence {
  EntityId agent = EntityId::kNone;
  std::string influence;
  std::function<void(const Status&)> reply;
};

// --- Planning (core/goap, seed 003) ----------------------------------------------------
// Admin / game: sets one of the agent's planner facts (value "true"/"false", an enum value
// name or an integer) or, with `blackboard`, a key of its blackboard (bool or number). The
// running plan is checked again next tick; a broken one is stopped and replanned.
// A fact goes to every planner of the agent whose domain has it, or with `planner` only to
// that one (the blackboard is one, shared by the agent's planners).
struct SetPlannerValue {
  EntityId agent = EntityId::kNone;
  std::string name;
  std::string value;
  bool blackboard = false;
  std::function<void(const Status&)> reply;
  std::string planner;  // "" = every planner with the fact
};
// Admin: the agent's planner trace (JSON: every expanded node, its actions and costs, open
// conditions, every rejection with its reason) of its last traced search. `trace` turns
// tracing of its next searches on or off (unset: unchanged).
struct GetPlanTrace {
  EntityId agent = EntityId::kNone;
  std::optional<bool> trace;
  std::function<void(const Status&, const std::string& json)> reply;
  std::string planner;  // one of its archetype's planners by name; "" = the first
};

// --- Debugging -------------------------------------------------------------------------
// Admin (debug page): a bounded map of the world as JSON: places (bounds, awake / draining /
// asleep), obstacles, agents (position, behavior, place; sleeping ones from their place's
// records) and players, only those inside `viewport` when one is given. At most max_agents
// agents and max_entities players and objects are listed (the counts say how many matched),
// so the answer stays small whatever the world's size. With `navmesh`, the navmesh's
// walkable polygons in view too (at most max_polygons), for drawing.
struct DescribeWorld {
  std::optional<Aabb> viewport;  // the x/y (ground) extent matters; z is ignored
  uint32_t max_agents = 2000;
  uint32_t max_entities = 2000;
  bool navmesh = false;
  uint32_t max_polygons = 5000;
  std::function<void(const Status&, const std::string& json)> reply;
};

using CommandBody =
    std::variant<UpsertEntity, RemoveEntity, UpsertObstacle, RemoveObstacle, SoundEvent,
                 SignalEvent, ActionResult, SpawnAgent, DespawnAgent, DescribeAgent, SetSensors,
                 SetBehaviorVariable, RegisterVisibilityType, SetAttributePrincipal, GetStealth,
                 ReloadDefinitions, WakePlace, ClientGone, ProgramIntention, CancelIntention,
                 ExternalAction, GameAction, AddInfluence, RemoveInfluence, SetPlannerValue,
                 GetPlanTrace, ClientBack, DescribeWorld, SetPerceptionTuning,
                 InterruptInFlight, BindClient, HoldPlace, NotePlaceHolder, HandOver>;

// `origin` is who sent it: a client's identity (its Connect stream, or a unary call made
// with a game credential), or kDaemon / kUnowned for admin calls and the daemon's own game.
// The tick thread checks ownership against it (core/sim/README.md "Ownership").
struct Command {
  ClientId origin = ClientId::kDaemon;
  uint64_t seq = 0;  // the client's sequence number of the update this came from
  CommandBody body;
  uint32_t item = 0;  // index within its list of that update (upserts[item], results[item])
  // Cluster: applied again from a place's input stream after the place was adopted from its
  // snapshot (server/cluster/README.md "Inputs after a crash"); not recorded there again.
  bool replayed = false;
};

}  // namespace npc
