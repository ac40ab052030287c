// proto_convert: the translation between the public protobuf API (npc.v1) and core types.
// Pure functions: no gRPC calls, no shared state, callable from any thread.
//
// Inbound, every item of a WorldUpdate is checked on its own. A bad item becomes one error
// string per problem and is dropped; the valid items of the same update still become
// commands, in field order (upserts, removals, obstacles, obstacle_removals, sounds,
// signals, results, external_actions, game_actions). Errors name the item the way the client can find it in what it sent:
//   upserts[2] (id 17).position: must be finite
//   upserts[1]: id must not be 0
//   results[0] (agent 5).progress: must be within 0..1
//   sounds[0].kind: "x" is not a sound kind (generic, footstep, collision, gunshot, ...)
//   game_actions[0] (agent 5).params[1].number: must be finite
// Action parameters (ProgramIntention, game_actions): at most kMaxActionArgs (6), each with
// a value (entity not 0, finite number, finite position, non-empty text), names, units and
// texts at most kMaxNameBytes.
// An update with more than max_items items is refused whole (one error, no commands).
// Every number is bounded (world/limits.h; README "Bounds"): positions lie within the
// world's bounds (config world_bounds_m), radii, ranges, sizes, delays and scales at most
// their limit, e.g.
//   upserts[0] (id 5).position: x 3.4e+38 is outside the world bounds (+-100000 m)
//   sounds[0].radius: must be at most 2000 m (got 1e+30)
//
// What needs the simulation's state (unknown archetype, unknown agent, kind changes) is
// checked by the tick thread, which reports its own errors with the update's seq.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cluster/lease_keeper.h"
#include "npc/v1/npc.pb.h"
#include "sim/command_digest.h"
#include "sim/commands.h"
#include "sim/tick_output.h"
#include "world/limits.h"
#include "world/name_table.h"
#include "world/world.h"

namespace npc {

inline constexpr size_t kMaxNameBytes = 256;     // species, place, archetype, names, kinds
inline constexpr size_t kMaxReasonBytes = 1024;  // ActionResult.reason
// Errors reported per update; the rest are summarised in one more line so a client that
// sends 10,000 bad items does not get a reply bigger than its receive limit.
inline constexpr size_t kMaxErrorsPerUpdate = 64;

// What a client wants to receive: the core-side form of npc.v1.Subscription.
struct Subscription {
  std::vector<std::string> places;  // empty: every place
  uint32_t event_mask = 0;          // bit (1 << EventKind) per wanted kind; 0: every kind
  bool observe_all_actions = false;

  bool wantsEvent(EventKind kind) const {
    return event_mask == 0 || (event_mask & (1u << static_cast<unsigned>(kind))) != 0;
  }
};

struct ConvertedUpdate {
  std::vector<Command> commands;             // the valid items, origin and seq filled in
  std::vector<CommandDigest> digests;        // one per command, for the tick (command_digest.h)
  std::vector<std::string> errors;           // one line per problem, see the header comment
  std::optional<Subscription> subscription;  // set when the update carried a valid one
  bool refused = false;                      // too many items: nothing was converted
};

// WorldUpdate -> commands for `origin`, each stamped with update.seq.
ConvertedUpdate convertUpdate(const v1::WorldUpdate& update, ClientId origin, size_t max_items,
                              const WorldBounds& bounds = {});
// The same into `out`, replacing what it held but keeping its buffers: a stream converts
// every update into one ConvertedUpdate. Commands already in out.commands (an applied
// batch handed back by Simulation::submitExchanging) are overwritten, not rebuilt.
void convertUpdate(const v1::WorldUpdate& update, ClientId origin, size_t max_items,
                   const WorldBounds& bounds, ConvertedUpdate& out);

// Checks every field of one entity; appends "<label>.<field>: <problem>" per problem and
// returns true when there was none. An unspecified kind is an error only if kind_required.
bool validateEntity(const v1::Entity& entity, const std::string& label, bool kind_required,
                    std::vector<std::string>& errors, const WorldBounds& bounds = {});
// Field-by-field copy of a validated entity. An unspecified kind becomes `unspecified_kind`.
EntityState toEntityState(const v1::Entity& entity, EntityKind unspecified_kind);
// SpawnAgentRequest.agent: kind must be NPC or unspecified, position and archetype are
// required. Errors are labelled "agent" ("agent.archetype: is required").
bool toSpawnState(const v1::Entity& agent, EntityState& out, std::vector<std::string>& errors,
                  const WorldBounds& bounds = {});

// A Signal (WorldUpdate.signals, SendSignalRequest.signal) as a SignalEvent: name required,
// at least one scope field (target, place, species, group 1..65535, radius > 0), position
// required with a radius, floats finite. Errors are labelled `label`. `out.reply` is left
// empty.
bool toSignalEvent(const v1::Signal& signal, const std::string& label, SignalEvent& out,
                   std::vector<std::string>& errors, const WorldBounds& bounds = {});

// Admin requests -> command bodies, reply callbacks left empty for the caller. Each returns
// false and appends "<field>: <problem>" per problem ("agent: must not be 0",
// "fov_deg: must be within (0, 360]") when the request is malformed. What needs the
// simulation's state (unknown agent, unregistered type) is the tick thread's to answer.
bool toCommand(const v1::DespawnAgentRequest& request, DespawnAgent& out,
               std::vector<std::string>& errors);
bool toCommand(const v1::GetAgentRequest& request, DescribeAgent& out,
               std::vector<std::string>& errors);
bool toCommand(const v1::SendSignalRequest& request, SignalEvent& out,
               std::vector<std::string>& errors, const WorldBounds& bounds = {});
bool toCommand(const v1::SetBehaviorVariableRequest& request, SetBehaviorVariable& out,
               std::vector<std::string>& errors);
// agent and name required.
bool toCommand(const v1::SetPlannerValueRequest& request, SetPlannerValue& out,
               std::vector<std::string>& errors);
bool toCommand(const v1::GetPlanTraceRequest& request, GetPlanTrace& out,
               std::vector<std::string>& errors);
// sight_range within 0..kMaxSightRangeM, fov_deg in (0, 360], hearing_scale within
// 0..kMaxHearingScale, all finite.
bool toCommand(const v1::SetSensorsRequest& request, SetSensors& out,
               std::vector<std::string>& errors);
// Ranges are checked by the simulation (Simulation::setPerceptionTuning).
bool toCommand(const v1::SetPerceptionTuningRequest& request, SetPerceptionTuning& out,
               std::vector<std::string>& errors);
// type required; multiplier > 0 and finite (unset: 1).
bool toCommand(const v1::RegisterVisibilityTypeRequest& request, RegisterVisibilityType& out,
               std::vector<std::string>& errors);
// attribute must not be 0; principal 0 removes the attribute's link.
bool toCommand(const v1::SetAttributePrincipalRequest& request, SetAttributePrincipal& out,
               std::vector<std::string>& errors);
bool toCommand(const v1::WakePlaceRequest& request, WakePlace& out,
               std::vector<std::string>& errors);
bool toCommand(const v1::GetStealthMeterRequest& request, GetStealth& out,
               std::vector<std::string>& errors);
bool toCommand(const v1::ReloadDefinitionsRequest& request, ReloadDefinitions& out,
               std::vector<std::string>& errors);
// agent and action required, delay_s finite and >= 0, params as above ("params[1].number:
// must be finite").
bool toCommand(const v1::ProgramIntentionRequest& request, ProgramIntention& out,
               std::vector<std::string>& errors, const WorldBounds& bounds = {});
// agent and intention must not be 0.
bool toCommand(const v1::CancelIntentionRequest& request, CancelIntention& out,
               std::vector<std::string>& errors);
// agent must not be 0, influence required.
bool toCommand(const v1::AddInfluenceRequest& request, AddInfluence& out,
               std::vector<std::string>& errors);
bool toCommand(const v1::RemoveInfluenceRequest& request, RemoveInfluence& out,
               std::vector<std::string>& errors);

// Enum mappings. fromProto returns nullopt for UNSPECIFIED and for values this build does
// not know (proto3 enums are open).
std::optional<EntityKind> fromProto(v1::EntityKind kind);
v1::EntityKind toProto(EntityKind kind);
std::optional<EventKind> fromProto(v1::EventKind kind);
v1::EventKind toProto(EventKind kind);

// Outbound. Interned names resolve through `names` (Simulation::names()), place indices
// through `world`; kNone places become "". `out` is overwritten.
void toProto(const ActionOut& action, const NameTable<ActionNameId>& names, const World& world,
             v1::Action& out);
// Stealth events carry the player in `subject` and the meter (0..10) in `value`.
void toProto(const EventOut& event, const World& world, v1::Event& out);
// An EVENT_KIND_ERROR for the update `seq`, raised before the update reached the simulation.
v1::Event errorEvent(uint64_t seq, const std::string& text);

// The cluster as Redis sees it; `node` is this node's id (held_here).
void toProto(const ClusterView& view, const std::string& node, v1::GetClusterStateResponse& out);

}  // namespace npc
