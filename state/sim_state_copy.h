// SimStateCopy: a snapshot's runtime state as plain rows, copied on the tick thread so that
// the protobuf messages can be built and encoded on another one (server/snapshot_writer.h).
//
// Building the messages costs far more than copying what they are built from (a message
// per agent part, a string per name, an allocation each), so the tick thread only copies:
// copySimState() fills the copy from the simulation between ticks, buildSimState() turns
// it into the same npc.state.v1.SimState that captureSimState() gives, byte for byte once
// encoded (tests/state/sim_state_copy_test.cpp), on any thread, touching no simulation.
//
// Names are copied as tables (a few hundred strings at most), the rows hold indices: the
// archetypes, behaviors, long actions and behavior trees a definitions reload may replace
// while the copy is being built are the copy's own. Variable-length parts (behavior tree
// timestamps and running nodes, planner rows) go to flat vectors the rows point into.
//
// Capacity: a copy keeps its vectors' capacity between captures (clear, never shrink), so
// a writer that reuses its copies allocates on the tick thread only when the state grew.
// Thread: copySimState on the tick thread; the copy is then owned by whoever builds it.
#pragma once

#include <array>
#include <span>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "agent/agent.h"
#include "hibernation/dormant_agent.h"
#include "hibernation/place_dispatcher.h"
#include "hibernation/sleeper_list.h"
#include "mbt/lua_saved.h"
#include "name_list.h"
#include "nav/nav_obstacle_change.h"
#include "nav/sliced_path_queue.h"
#include "perception/perception_config.h"
#include "sim/client_directory.h"
#include "perception/signals.h"
#include "perception/sounds.h"
#include "perception/stealth_meter.h"
#include "perception/visibility.h"
#include "sim/planner_memory.h"
#include "sim/sim_planner.h"
#include "world/entity.h"
#include "world/obstacle.h"

namespace npc {

class Simulation;

// PerceptionState (1.6 KB, mostly fixed arrays of which an agent uses a few rows) without
// the arrays: the active tracks and sound targets go to SimStateCopy::tracks / sounds.
struct PerceptionCopy {
  SensorConfig sensors;
  GroupNumber group = GroupNumber::kNone;
  float soft_cover_persist_s = 0.f;
  uint64_t next_full_update_tick = 0;
  double last_full_update_s = 0.0;
  double last_bullet_rain_s = 0.0;
  uint32_t full_updates = 0;
  uint32_t tracks_begin = 0, sounds_begin = 0;
  uint8_t track_count = 0, sound_count = 0;
  AttentionTarget attention;
  uint32_t tracks_dropped = 0;
  uint32_t sound_targets_dropped = 0;
  uint32_t candidates_truncated = 0;
};

// One awake agent: Agent (core/agent/agent.h) minus its behavior tree instance, whose
// parts are plain values and ranges into SimStateCopy's flat vectors.
struct AgentCopy {
  static constexpr uint32_t kNone = 0xffffffffu;

  EntityId id = EntityId::kNone;
  bool has_body = false;
  Entity body;
  uint16_t archetype = 0;
  Vec3 home;
  uint64_t rng_state = 0;
  PerceptionCopy perception;
  BstAgentState bst;
  uint8_t behavior_def = Agent::kNoBehaviorDef;
  IntentAgentState intent;
  std::array<Agent::Outcome, 8> recent_outcomes{};
  uint8_t next_outcome = 0;
  std::array<Agent::SentAction, 4> sent_actions{};
  uint8_t next_sent = 0;
  double idle_until_s = 0.0;
  double greet_ready_s = 0.0;
  double attack_ready_s = 0.0;
  EntityId faced = EntityId::kNone;
  Vec3 investigated;
  bool looked_around = false;
  LongActionRun work;
  bool work_is_hibernation = false;
  Inventory inventory;
  uint32_t actions_completed = 0;
  uint32_t actions_failed = 0;

  // Its behavior tree, when its behavior runs one (tree != kNone).
  uint32_t tree = kNone;  // index in SimStateCopy::tree_names
  VariableSet mbt_variables;
  bool mbt_stopped = false;
  uint32_t timestamps_begin = 0, timestamps_count = 0;  // in SimStateCopy::timestamps
  uint64_t mbt_rng_state = 0;
  Vec3 registers[2];
  uint8_t registers_set = 0;
  bool changed = false;
  bool changed_before_tick = false;
  uint32_t root_finishes = 0;
  uint32_t running_begin = 0, running_count = 0;  // in SimStateCopy::running
  uint32_t lua = kNone;  // what its scripts keep, in SimStateCopy::lua

  // Its planner memory when it plans (memory != kNone), and its planner rows as bytes.
  uint32_t memory = kNone;  // index in SimStateCopy::planner_memory
  uint32_t runs_begin = 0;  // in SimStateCopy::planner_rows
  uint8_t runs_count = 0;
};

// A running behavior tree node: its data is bytes [data_begin, +data_size) of
// SimStateCopy::node_data.
struct RunningNodeCopy {
  uint16_t slot = 0;
  uint16_t node = 0;
  uint32_t data_begin = 0;
  uint32_t data_size = 0;
};

struct PlaceCopy {
  std::string name;  // "" when the world has no such place
  PlaceState state = PlaceState::kAwake;
  double last_activity_s = 0.0;
  double asleep_since_s = 0.0;
  double wake_at_s = 0.0;
  bool held = false;    // PlaceCustody (leased places only)
  uint64_t epoch = 0;
  std::string holder;
};

struct SimStateCopy {
  // Name tables, as SimStateAccess::names() gives them, and the definitions' names the
  // rows index.
  std::vector<std::string> action_names, species_names, item_names, signal_names, group_names;
  std::vector<std::string> archetype_names;    // by archetype index
  std::vector<GroupNumber> archetype_groups;   // by archetype: SimStateAccess::archetypeGroup
  std::vector<ClientBinding> client_bindings;  // ClientDirectory, sorted by name
  uint32_t highest_client_id = 0;
  std::vector<std::string> behavior_names;     // by BehaviorId
  std::string no_behavior_name;                // BehaviorId::kNone's
  std::vector<std::string> long_action_names;  // by long action index
  std::vector<std::string> tree_names;         // the behavior trees agents run, first seen first

  uint64_t runtime_layout = 0;
  uint64_t planning_cursor = 0;
  std::vector<ClientId> away_clients;
  std::vector<PlannerMemory> squad_memory;
  uint64_t tick = 0;
  uint64_t next_intention_id = 0;
  uint64_t next_dropped_object = 0;

  std::vector<Entity> entities;  // the entity table's rows, in its order (agents' bodies too)
  std::vector<Obstacle> obstacles;
  // The navmesh's obstacles, when it follows their changes (SimStateAccess::navObstacles).
  bool navmesh_follows_obstacles = false;
  std::vector<nav::NavObstacleChange> nav_held, nav_queued;
  // MoveTo checks searched on over ticks (SimStateAccess::navLongSearches); whole copies only.
  std::vector<nav::SlicedPathRequest> nav_long_searches;
  int nav_long_open_iterations = 0;

  std::vector<AgentCopy> agents;
  std::vector<TargetTrack> tracks;
  std::vector<SoundTarget> sounds;
  std::vector<MbtTimestamp> timestamps;
  std::vector<RunningNodeCopy> running;
  std::string node_data;
  std::vector<LuaEnvImage> lua;  // scripts' own values, of the agents that have any
  std::vector<PlannerMemory> planner_memory;
  std::vector<PlannerRun> planner_rows;  // runners unbound (SimStateAccess::plannerRuns)

  std::vector<PlaceCopy> places;
  // Every place's sleepers by place index (null: none), shared with the simulation, which
  // copies a list before it next changes it (SleeperList): no sleeper is copied here.
  std::vector<SleeperList::Shared> dormant;
  std::vector<SleepingPlanners::Shared> sleeping_planners;  // by place, shared as `dormant`

  // Perception's daemon-wide state.
  float som_speed = 0.f;
  float decay_per_update = 0.f;
  float suspicious_threshold = 0.f;
  std::vector<std::pair<SpeciesId, VisibilityType>> visibility_types;
  std::vector<std::pair<EntityId, EntityId>> principals;
  std::vector<StealthReading> stealth;
  std::vector<float> stealth_reported;
  std::vector<SignalRequest> pending_signals;
  std::vector<Sound> pending_sounds;
};

// SelectionTreeLibrary::behaviorName() from the copy's names.
inline std::string_view behaviorName(const SimStateCopy& copy, BehaviorId id) {
  if (id == BehaviorId::kNone) return copy.no_behavior_name;
  return nameAt(copy.behavior_names, raw(id));
}

// How many sleepers the copy holds, every place's.
size_t sleeperCount(const SimStateCopy& copy);

// The agent's PerceptionState again, from its copy (for the codec, on any thread).
PerceptionState perceptionOf(const AgentCopy& agent, const SimStateCopy& copy);

// Tick thread, between ticks: `out` is overwritten, keeping its capacity.
void copySimState(Simulation& sim, SimStateCopy& out);
// The same for the awake agents `ids` only (those not here are left out): the name tables
// and counters, their rows, and nothing of the world, places, sleepers or perception's
// daemon-wide state (npcs handed to another cluster node, state/place_handoff.h).
void copyAgents(Simulation& sim, std::span<const EntityId> ids, SimStateCopy& out);
// Drops from a copy every agent, sleeper and sleeping planner outside `places`, and the
// world's entities and obstacles: what place handoffs (state/place_handoff.h) are cut from,
// built in a fraction of the time when a node writes a few of many places. Rows keep their
// ranges into the flat vectors, which stay as they are.
void keepPlaces(SimStateCopy& copy, std::span<const PlaceIndex> places);

}  // namespace npc
