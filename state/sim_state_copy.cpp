#include "sim_state_copy.h"

#include <algorithm>
#include <cstring>
#include <span>
#include <type_traits>

#include "agent/archetype.h"
#include "hibernation/long_action.h"
#include "mbt/node.h"
#include "mbt/tree.h"
#include "perception/perception_system.h"
#include "sim/sim_state_access.h"
#include "sim/simulation.h"
#include "world/world.h"

namespace npc {

namespace {

// Rows copied with memcpy-like assignments: a field that is not would make the copy cost
// (and allocate) per agent.
static_assert(std::is_trivially_copyable_v<AgentCopy>);
static_assert(std::is_trivially_copyable_v<DormantAgent>);
static_assert(std::is_trivially_copyable_v<Entity>);
static_assert(std::is_trivially_copyable_v<PlannerMemory>);

// Assigns into the strings already there: their capacity is reused.
void copyNames(std::span<const std::string> from, std::vector<std::string>& to) {
  to.resize(from.size());
  for (size_t i = 0; i < from.size(); ++i) to[i].assign(from[i]);
}

uint32_t treeIndex(const MbtTree* tree, std::vector<const MbtTree*>& seen,
                   std::vector<std::string>& names) {
  for (size_t i = 0; i < seen.size(); ++i) {
    if (seen[i] == tree) return static_cast<uint32_t>(i);
  }
  seen.push_back(tree);
  names.resize(seen.size());
  names.back().assign(tree->name());
  return static_cast<uint32_t>(seen.size() - 1);
}

void copyMbt(const MbtInstance& instance, AgentCopy& row, SimStateCopy& out,
             std::vector<const MbtTree*>& trees_seen) {
  const MbtTree& tree = *instance.tree();
  row.tree = treeIndex(&tree, trees_seen, out.tree_names);
  row.mbt_variables = instance.variables();
  row.mbt_stopped = instance.stopped();
  row.timestamps_begin = static_cast<uint32_t>(out.timestamps.size());
  row.timestamps_count = static_cast<uint32_t>(tree.timestamps().size());
  for (size_t i = 0; i < tree.timestamps().size(); ++i) out.timestamps.push_back(instance.timestamp(i));
  MbtInstance::RunImage scalars;  // its `running` stays empty: no allocation
  instance.captureRunScalars(scalars);
  row.mbt_rng_state = scalars.rng_state;
  row.registers[0] = scalars.registers[0];
  row.registers[1] = scalars.registers[1];
  row.registers_set = scalars.registers_set;
  row.changed = scalars.changed;
  row.changed_before_tick = scalars.changed_before_tick;
  row.root_finishes = scalars.root_finishes;
  row.running_begin = static_cast<uint32_t>(out.running.size());
  for (uint16_t slot = 0; slot < tree.slotCount(); ++slot) {
    const uint16_t owner = instance.slotOwner(slot);
    if (owner == MbtInstance::kFreeSlot) continue;
    RunningNodeCopy& node = out.running.emplace_back();
    node.slot = slot;
    node.node = owner;
    node.data_begin = static_cast<uint32_t>(out.node_data.size());
    if (const void* data = instance.slotData(slot)) {
      node.data_size = static_cast<uint32_t>(tree.node(owner).runtimeBytes());
      out.node_data.append(static_cast<const char*>(data), node.data_size);
    }
  }
  row.running_count = static_cast<uint32_t>(out.running.size()) - row.running_begin;
  // Only agents whose scripts keep values of their own allocate here (a few, in most
  // worlds), once per capture.
  row.lua = AgentCopy::kNone;
  LuaEnvImage lua;
  if (instance.saveLua(lua)) {
    row.lua = static_cast<uint32_t>(out.lua.size());
    out.lua.push_back(std::move(lua));
  }
}

// Field by field, so that the unused rows of the fixed arrays are not copied. A field added
// to PerceptionState changes its size: copy it here and in perceptionOf() (the byte-for-byte
// test of sim_state_copy_test.cpp catches a value not copied only when the demo sets it).
static_assert(sizeof(PerceptionState) == 1648,
              "PerceptionState changed: copy its new fields in copyPerception and perceptionOf");

void copyPerception(const PerceptionState& s, PerceptionCopy& o, SimStateCopy& out) {
  o.sensors = s.sensors;
  o.group = s.group;
  o.soft_cover_persist_s = s.soft_cover_persist_s;
  o.next_full_update_tick = s.next_full_update_tick;
  o.last_full_update_s = s.last_full_update_s;
  o.last_bullet_rain_s = s.last_bullet_rain_s;
  o.full_updates = s.full_updates;
  o.tracks_begin = static_cast<uint32_t>(out.tracks.size());
  o.track_count = s.track_count;
  out.tracks.insert(out.tracks.end(), s.tracks.begin(), s.tracks.begin() + s.track_count);
  o.sounds_begin = static_cast<uint32_t>(out.sounds.size());
  o.sound_count = s.sound_count;
  out.sounds.insert(out.sounds.end(), s.sounds.begin(), s.sounds.begin() + s.sound_count);
  o.attention = s.attention;
  o.tracks_dropped = s.tracks_dropped;
  o.sound_targets_dropped = s.sound_targets_dropped;
  o.candidates_truncated = s.candidates_truncated;
}

// The row after the `used` ones, as an earlier capture left it: a 2 KB row zeroed per agent
// costs more than copying into it. The caller sets every field it reads.
template <class T>
T& nextRow(std::vector<T>& rows, size_t used) {
  if (used == rows.size()) rows.emplace_back();
  return rows[used];
}

struct Used {
  size_t agents = 0;
  size_t memory = 0;
};

void copyAgent(const SimStateAccess& access, const Agent& agent, SimStateCopy& out, Used& used,
               std::vector<const MbtTree*>& trees_seen) {
  AgentCopy& row = nextRow(out.agents, used.agents++);
  row.id = agent.id;
  row.has_body = false;
  if (const Entity* body = access.world().entities().get(agent.entity)) {
    row.has_body = true;
    row.body = *body;
  }
  row.archetype = agent.archetype;
  row.home = agent.home;
  row.rng_state = agent.rng.state();
  copyPerception(agent.perception, row.perception, out);
  row.bst = agent.bst;
  row.behavior_def = agent.behavior_def;
  row.intent.access = agent.intent.access;
  row.intent.queue.assignUsedSlots(agent.intent.queue);
  row.recent_outcomes = agent.recent_outcomes;
  row.next_outcome = agent.next_outcome;
  row.sent_actions = agent.sent_actions;
  row.next_sent = agent.next_sent;
  row.idle_until_s = agent.idle_until_s;
  row.greet_ready_s = agent.greet_ready_s;
  row.attack_ready_s = agent.attack_ready_s;
  row.faced = agent.faced;
  row.investigated = agent.investigated;
  row.looked_around = agent.looked_around;
  row.work = agent.work;
  row.work_is_hibernation = agent.work_is_hibernation;
  row.inventory = agent.inventory;
  row.actions_completed = agent.actions_completed;
  row.actions_failed = agent.actions_failed;
  // An instance left bound by a behavior that no longer runs its tree is not state
  // (mbt_codec.h).
  const Archetype& type = access.archetypes().at(agent.archetype);
  const bool runs_tree = agent.behavior_def < type.behaviors.size() &&
                         !type.behaviors[agent.behavior_def].tree.empty();
  row.tree = AgentCopy::kNone;
  if (runs_tree && agent.mbt.bound()) copyMbt(agent.mbt, row, out, trees_seen);
  row.memory = AgentCopy::kNone;
  row.runs_count = 0;
  if (access.copyPlanner(agent, nextRow(out.planner_memory, used.memory))) {
    row.memory = static_cast<uint32_t>(used.memory++);
    row.runs_begin = static_cast<uint32_t>(out.planner_rows.size());
    row.runs_count = access.appendPlannerRuns(agent, out.planner_rows);
  }
}

void copyPerceptionSystem(const SimStateAccess& access, SimStateCopy& out) {
  const PerceptionSystem& perception = access.perception();
  out.som_speed = perception.config().som_speed;
  out.decay_per_update = perception.config().decay_per_update;
  out.suspicious_threshold = perception.config().suspicious_threshold;
  out.visibility_types.clear();
  perception.visibility().forEachType([&](SpeciesId type, const VisibilityType& settings) {
    out.visibility_types.emplace_back(type, settings);
  });
  const auto principals = perception.visibility().principals();
  out.principals.assign(principals.begin(), principals.end());
  const StealthMeter& stealth = perception.stealth();
  out.stealth.assign(stealth.readings().begin(), stealth.readings().end());
  out.stealth_reported.assign(stealth.reported().begin(), stealth.reported().end());
  out.pending_signals.assign(perception.pendingSignals().begin(), perception.pendingSignals().end());
  out.pending_sounds.assign(perception.pendingSounds().begin(), perception.pendingSounds().end());
}

}  // namespace

size_t sleeperCount(const SimStateCopy& copy) {
  size_t n = 0;
  for (const SleeperList::Shared& place : copy.dormant) n += place ? place->size() : 0;
  return n;
}

PerceptionState perceptionOf(const AgentCopy& agent, const SimStateCopy& copy) {
  const PerceptionCopy& o = agent.perception;
  PerceptionState s;
  s.sensors = o.sensors;
  s.group = o.group;
  s.soft_cover_persist_s = o.soft_cover_persist_s;
  s.next_full_update_tick = o.next_full_update_tick;
  s.last_full_update_s = o.last_full_update_s;
  s.last_bullet_rain_s = o.last_bullet_rain_s;
  s.full_updates = o.full_updates;
  s.track_count = o.track_count;
  std::copy_n(copy.tracks.begin() + o.tracks_begin, o.track_count, s.tracks.begin());
  s.sound_count = o.sound_count;
  std::copy_n(copy.sounds.begin() + o.sounds_begin, o.sound_count, s.sounds.begin());
  s.attention = o.attention;
  s.tracks_dropped = o.tracks_dropped;
  s.sound_targets_dropped = o.sound_targets_dropped;
  s.candidates_truncated = o.candidates_truncated;
  return s;
}

namespace {

// The name tables and counters every copy carries, whatever rows it holds.
void copyTables(const SimStateAccess& access, SimStateCopy& out) {
  const World& world = access.world();
  copyNames(access.names().names(), out.action_names);
  copyNames(world.species().names(), out.species_names);
  copyNames(access.longActions().items().names(), out.item_names);
  copyNames(access.groups().names(), out.group_names);
  {
    const std::vector<std::string> signals = access.names(NameTableKind::kSignals);
    copyNames(signals, out.signal_names);
  }
  out.archetype_names.resize(access.archetypes().size());
  out.archetype_groups.resize(access.archetypes().size());
  for (size_t i = 0; i < access.archetypes().size(); ++i) {
    out.archetype_names[i].assign(access.archetypes().at(static_cast<uint16_t>(i)).name);
    out.archetype_groups[i] = access.archetypeGroup(static_cast<uint16_t>(i));
  }
  const SelectionTreeLibrary& trees = access.selectionTrees();
  out.behavior_names.resize(trees.behaviorCount());
  for (size_t i = 0; i < trees.behaviorCount(); ++i) {
    out.behavior_names[i].assign(trees.behaviorName(static_cast<BehaviorId>(i)));
  }
  out.no_behavior_name.assign(trees.behaviorName(BehaviorId::kNone));
  out.long_action_names.resize(access.longActions().size());
  for (size_t i = 0; i < access.longActions().size(); ++i) {
    out.long_action_names[i].assign(access.longActions().at(static_cast<uint16_t>(i)).name);
  }
  out.tree_names.clear();

  out.client_bindings.assign(access.clients().bindings().begin(), access.clients().bindings().end());
  out.highest_client_id = access.clients().highest();
  out.runtime_layout = SimStateAccess::runtimeLayout();
  out.planning_cursor = access.planningCursor();
  out.away_clients.assign(access.awayClients().begin(), access.awayClients().end());
  out.squad_memory = access.groupPlannerMemory();
  out.tick = access.tick();
  out.next_intention_id = access.nextIntentionId();
  out.next_dropped_object = access.nextDroppedObject();
}

void clearAgentRows(SimStateCopy& out) {
  out.tracks.clear();
  out.sounds.clear();
  out.timestamps.clear();
  out.running.clear();
  out.node_data.clear();
  out.planner_rows.clear();
  out.lua.clear();
}

}  // namespace

void copySimState(Simulation& sim, SimStateCopy& out) {
  const SimStateAccess access(sim);
  const World& world = access.world();
  copyTables(access, out);
  const auto rows = world.entities().rows();
  out.entities.assign(rows.begin(), rows.end());
  out.obstacles.assign(world.obstacles().begin(), world.obstacles().end());
  out.navmesh_follows_obstacles = access.navObstacles(out.nav_held, out.nav_queued);
  access.navLongSearches(out.nav_long_searches, out.nav_long_open_iterations);

  clearAgentRows(out);
  std::vector<const MbtTree*> trees_seen;  // a handful: the behavior trees in use
  Used used;
  for (const Agent& agent : access.agents()) copyAgent(access, agent, out, used, trees_seen);
  out.agents.resize(used.agents);  // shrinking only: no row is zeroed
  out.planner_memory.resize(used.memory);

  const PlaceDispatcher& places = access.places();
  out.places.resize(places.size());
  for (size_t i = 0; i < places.size(); ++i) {
    const auto p = static_cast<PlaceIndex>(i);
    PlaceCopy& o = out.places[i];
    const Place* place = world.place(p);
    o.name.assign(place ? std::string_view(place->name) : std::string_view());
    o.state = places.state(p);
    o.last_activity_s = places.lastActivity(p);
    o.asleep_since_s = places.asleepSince(p);
    o.wake_at_s = places.wakeAt(p);
    o.held = access.custody().leased() && access.custody().held(p);
    o.epoch = access.custody().epoch(p);
    o.holder.assign(access.custody().holder(p));
  }
  out.dormant.clear();
  for (const SleeperList& list : access.dormant()) out.dormant.push_back(list.share());
  access.shareSleepingPlanners(out.sleeping_planners);
  copyPerceptionSystem(access, out);
}


void copyAgents(Simulation& sim, std::span<const EntityId> ids, SimStateCopy& out) {
  const SimStateAccess access(sim);
  copyTables(access, out);
  out.entities.clear();
  out.obstacles.clear();
  out.navmesh_follows_obstacles = false;
  out.nav_long_searches.clear();
  out.nav_long_open_iterations = 0;
  clearAgentRows(out);
  std::vector<const MbtTree*> trees_seen;
  Used used;
  for (EntityId id : ids) {
    if (const Agent* agent = access.agent(id)) copyAgent(access, *agent, out, used, trees_seen);
  }
  out.agents.resize(used.agents);
  out.planner_memory.resize(used.memory);
  out.places.clear();
  out.dormant.clear();
  out.sleeping_planners.clear();
  out.visibility_types.clear();
  out.principals.clear();
  out.stealth.clear();
  out.stealth_reported.clear();
  out.pending_signals.clear();
  out.pending_sounds.clear();
}

void keepPlaces(SimStateCopy& copy, std::span<const PlaceIndex> places) {
  auto kept = [&](PlaceIndex p) { return std::find(places.begin(), places.end(), p) != places.end(); };
  std::erase_if(copy.agents, [&](const AgentCopy& a) { return !a.has_body || !kept(a.body.place); });
  for (size_t p = 0; p < copy.dormant.size(); ++p) {
    if (!kept(static_cast<PlaceIndex>(p))) copy.dormant[p].reset();
  }
  for (size_t p = 0; p < copy.sleeping_planners.size(); ++p) {
    if (!kept(static_cast<PlaceIndex>(p))) copy.sleeping_planners[p].reset();
  }
  copy.entities.clear();
  copy.obstacles.clear();
  copy.navmesh_follows_obstacles = false;
  copy.nav_long_searches.clear();
  copy.nav_long_open_iterations = 0;
}

}  // namespace npc
