#include "sim_state_codec.h"

#include <algorithm>
#include <span>

#include "agent/archetype.h"
#include "bst_codec.h"
#include "goap_codec.h"
#include "hibernation_codec.h"
#include "intent_codec.h"
#include "mbt_codec.h"
#include "perception_codec.h"
#include "sim/sim_state_access.h"
#include "sim/sim_planner.h"
#include "sim/simulation.h"
#include "sim_state_copy.h"
#include "world_codec.h"
#include "zero_runs.h"

namespace npc {

namespace {

void encodeAgent(const SimStateCopy& copy, const AgentCopy& agent, pb::AgentState& out) {
  out.set_id(raw(agent.id));
  out.set_archetype(copy.archetype_names[agent.archetype]);
  if (agent.has_body) encodeEntity(agent.body, copy.species_names, *out.mutable_body());
  encodeVec3(agent.home, *out.mutable_home());
  out.set_rng_state(agent.rng_state);
  out.set_idle_until_s(agent.idle_until_s);
  out.set_greet_ready_s(agent.greet_ready_s);
  out.set_attack_ready_s(agent.attack_ready_s);
  out.set_faced(raw(agent.faced));
  encodeVec3(agent.investigated, *out.mutable_investigated());
  out.set_looked_around(agent.looked_around);
  encodePerception(perceptionOf(agent, copy), *out.mutable_perception());
  encodeBst(agent.bst, agent.behavior_def, behaviorName(copy, agent.bst.behavior),
            *out.mutable_bst());
  encodeMbt(agent, copy, *out.mutable_mbt());
  encodeIntent(agent, copy.action_names, *out.mutable_intent());
  if (agent.memory != AgentCopy::kNone) {
    out.set_plans(true);
    encodeGoap(copy.planner_memory[agent.memory], *out.mutable_goap());
    for (uint8_t i = 0; i < agent.runs_count; ++i) {
      const std::string_view row(
          reinterpret_cast<const char*>(&copy.planner_rows[agent.runs_begin + i]), sizeof(PlannerRun));
      out.mutable_goap()->add_runs(packAgainst(row, SimStateAccess::freshPlannerRow()));
    }
  }
  encodeLongAction(agent.work, agent.work_is_hibernation, copy.long_action_names,
                   *out.mutable_work());
  encodeInventory(agent.inventory, copy.item_names, *out.mutable_inventory());
}

// The exact parts of an agent, when the snapshot has them for this build's layout.
std::optional<AgentRecord::Exact> decodeExact(const pb::AgentState& in) {
  AgentRecord::Exact exact;
  if (!decodeIntentRun(in.intent(), exact)) return std::nullopt;
  exact.mbt = decodeMbtRun(in.mbt());
  for (const std::string& packed : in.goap().runs()) {
    std::optional<std::string> row = unpackAgainst(packed, SimStateAccess::freshPlannerRow());
    if (!row) return std::nullopt;
    exact.planner_runs.push_back(std::move(*row));
  }
  return exact;
}

}  // namespace

bool decodeAgent(const pb::AgentState& in, SimStateAccess& access, AgentRecord& r,
                 bool exact, std::string& error) {
  const std::optional<uint16_t> archetype = access.archetypes().find(in.archetype());
  if (!archetype) {
    error = "agent " + std::to_string(in.id()) + ": archetype \"" + in.archetype() +
            "\" is unknown";
    return false;
  }
  r = AgentRecord{};
  r.body = decodeEntity(in.body(), access);
  r.body.id = EntityId{in.id()};
  r.archetype = *archetype;
  r.home = decodeVec3(in.home());
  r.rng_state = in.rng_state();
  r.idle_until_s = in.idle_until_s();
  r.greet_ready_s = in.greet_ready_s();
  r.attack_ready_s = in.attack_ready_s();
  r.faced = EntityId{in.faced()};
  r.investigated = decodeVec3(in.investigated());
  r.looked_around = in.looked_around();
  decodePerception(in.perception(), r.perception);
  r.bst = decodeBst(in.bst(), access.selectionTrees());
  r.behavior_def = static_cast<uint8_t>(in.bst().behavior_def());
  decodeMbt(in.mbt(), r);
  decodeIntent(in.intent(), access, r);
  r.work = decodeLongAction(in.work(), access.longActions());
  r.work_is_hibernation = in.work().for_hibernation();
  r.inventory = decodeInventory(in.inventory(), access);
  if (exact) r.exact = decodeExact(in);
  return true;
}

namespace {

constexpr NameTableKind kNameTables[] = {NameTableKind::kActions, NameTableKind::kSpecies,
                                         NameTableKind::kItems, NameTableKind::kSignals,
                                         NameTableKind::kGroups};

const std::vector<std::string>& namesOf(const SimStateCopy& copy, NameTableKind kind) {
  switch (kind) {
    case NameTableKind::kActions: return copy.action_names;
    case NameTableKind::kSpecies: return copy.species_names;
    case NameTableKind::kItems: return copy.item_names;
    case NameTableKind::kGroups: return copy.group_names;
    case NameTableKind::kSignals: break;
  }
  return copy.signal_names;
}

google::protobuf::RepeatedPtrField<std::string>* namesOf(pb::SimState& s, NameTableKind kind) {
  switch (kind) {
    case NameTableKind::kActions: return s.mutable_action_names();
    case NameTableKind::kSpecies: return s.mutable_species_names();
    case NameTableKind::kItems: return s.mutable_item_names();
    case NameTableKind::kGroups: return s.mutable_group_names();
    case NameTableKind::kSignals: break;
  }
  return s.mutable_signal_names();
}

const google::protobuf::RepeatedPtrField<std::string>& namesOf(const pb::SimState& s,
                                                              NameTableKind kind) {
  return *namesOf(const_cast<pb::SimState&>(s), kind);
}


// Every place's sleeping planners, by ascending id: the file does not depend on the order
// the agents fell asleep in, or on which place a capture read first.
void encodeSleepingPlanners(std::span<const SleepingPlanners::Shared> places, pb::SimState& out) {
  std::vector<const SleepingPlanner*> all;
  for (const SleepingPlanners::Shared& place : places) {
    if (!place) continue;
    for (const SleepingPlanner& p : *place) all.push_back(&p);
  }
  std::sort(all.begin(), all.end(),
            [](const SleepingPlanner* a, const SleepingPlanner* b) { return a->id < b->id; });
  out.mutable_sleeping_planners()->Reserve(static_cast<int>(all.size()));
  for (const SleepingPlanner* p : all) {
    pb::GoapSleeper& s = *out.add_sleeping_planners();
    s.set_id(raw(p->id));
    encodeGoap(p->memory, *s.mutable_goap());
  }
}

void restoreSquads(const pb::SimState& in, SimStateAccess& access) {
  std::vector<PlannerMemory> groups;
  for (const pb::GoapState& g : in.squad_memory()) groups.push_back(decodeGoap(g));
  if (!groups.empty()) access.setGroupPlannerMemory(groups);
}

}  // namespace

SleeperNames sleeperNames(const pb::SimState& state, SimStateAccess& access) {
  SleeperNames names;
  for (const std::string& name : state.species_names()) names.species.push_back(access.internSpecies(name));
  for (const std::string& name : state.item_names()) names.items.push_back(access.internItem(name));
  names.groups.push_back(GroupNumber::kNone);
  for (const std::string& name : state.group_names()) names.groups.push_back(access.internGroup(name));
  return names;
}

void buildSimState(const SimStateCopy& copy, pb::SimState& out) {
  out.Clear();
  for (NameTableKind kind : kNameTables) {
    auto& names = *namesOf(out, kind);
    for (const std::string& name : namesOf(copy, kind)) names.Add()->assign(name);
  }
  out.set_runtime_layout(copy.runtime_layout);
  out.set_planning_cursor(copy.planning_cursor);
  for (ClientId client : copy.away_clients) out.add_away_clients(static_cast<uint32_t>(client));
  for (const ClientBinding& b : copy.client_bindings) {
    pb::ClientBindingState& o = *out.add_client_bindings();
    o.set_name(b.name);
    o.set_id(raw(b.id));
  }
  out.set_highest_client_id(copy.highest_client_id);
  for (const PlannerMemory& m : copy.squad_memory) encodeGoap(m, *out.add_squad_memory());
  out.set_tick(copy.tick);
  out.set_next_intention_id(copy.next_intention_id);
  out.mutable_entity_order()->Reserve(static_cast<int>(copy.entities.size()));
  for (const Entity& e : copy.entities) out.add_entity_order(raw(e.id));
  encodeWorld(copy.entities, copy.obstacles, copy.next_dropped_object, copy.species_names,
              *out.mutable_world());
  if (copy.navmesh_follows_obstacles)
    encodeNavObstacles(copy.nav_held, copy.nav_queued, *out.mutable_world()->mutable_navmesh());
  if (!copy.nav_long_searches.empty())
    encodeNavLongSearches(copy.nav_long_searches, copy.nav_long_open_iterations,
                          *out.mutable_world()->mutable_long_searches());
  out.mutable_agents()->Reserve(static_cast<int>(copy.agents.size()));
  for (const AgentCopy& agent : copy.agents) encodeAgent(copy, agent, *out.add_agents());
  encodeHibernation(copy, *out.mutable_hibernation());
  encodeSleepingPlanners(copy.sleeping_planners, out);
  encodePerceptionSystem(copy, *out.mutable_perception());
}

void captureSimState(Simulation& sim, pb::SimState& out) {
  SimStateCopy copy;
  copySimState(sim, copy);
  buildSimState(copy, out);
}

bool restoreSimState(const pb::SimState& state, Simulation& sim, std::string& error,
                     RestoreMode mode) {
  SimStateAccess access(sim);
  access.clear();
  for (NameTableKind kind : kNameTables) {
    const auto& names = namesOf(state, kind);
    if (!access.restoreNames(kind, std::vector<std::string>(names.begin(), names.end()))) {
      error = "its name tables do not begin like these definitions'";
      return false;
    }
  }
  const bool exact = state.runtime_layout() == SimStateAccess::runtimeLayout();
  if (exact) {
    access.setPlanningCursor(state.planning_cursor());
    restoreSquads(state, access);
  }
  access.setCounters(state.tick(), state.next_intention_id(), state.world().next_dropped_object());
  std::vector<EntityId> order;
  for (uint64_t id : state.entity_order()) order.push_back(EntityId{id});
  access.setEntityOrder(order);
  std::vector<ClientId> away;
  for (uint32_t client : state.away_clients()) away.push_back(static_cast<ClientId>(client));
  std::vector<ClientBinding> bindings;
  for (const pb::ClientBindingState& b : state.client_bindings()) {
    bindings.push_back({b.name(), static_cast<ClientId>(b.id())});
  }
  access.restoreClients(std::move(bindings), state.highest_client_id());
  access.setAwayClients(std::move(away));
  restoreWorld(state.world(), access);
  for (const pb::GoapSleeper& s : state.sleeping_planners()) {
    access.addPlanner(EntityId{s.id()}, decodeGoap(s.goap()));
  }
  AgentRecord record;
  for (const pb::AgentState& a : state.agents()) {
    if (!decodeAgent(a, access, record, exact, error)) return false;
    if (a.plans()) access.addPlanner(EntityId{a.id()}, decodeGoap(a.goap()));
    if (!access.addAgent(record, mode)) {
      error = "agent " + std::to_string(a.id()) + ": cannot be restored";
      return false;
    }
  }
  if (!restoreHibernation(state.hibernation(), sleeperNames(state, access), access, error)) {
    return false;
  }
  if (state.has_perception() && !restorePerceptionSystem(state.perception(), access, error)) {
    return false;
  }
  access.finishRestore();
  return true;
}

}  // namespace npc
