#include "sim_state_codec.h"

#include "agent/archetype.h"
#include "bst_codec.h"
#include "goap_codec.h"
#include "hibernation_codec.h"
#include "intent_codec.h"
#include "mbt_codec.h"
#include "perception_codec.h"
#include "sim/sim_state_access.h"
#include "sim/simulation.h"
#include "world_codec.h"

namespace npc {

namespace {

void encodeAgent(const SimStateAccess& access, const Agent& agent, pb::AgentState& out) {
  const World& world = access.world();
  out.set_id(raw(agent.id));
  out.set_archetype(access.archetypes().at(agent.archetype).name);
  if (const Entity* body = world.entities().get(agent.entity)) {
    encodeEntity(*body, world.species(), *out.mutable_body());
  }
  encodeVec3(agent.home, *out.mutable_home());
  out.set_rng_state(agent.rng.state());
  out.set_idle_until_s(agent.idle_until_s);
  out.set_greet_ready_s(agent.greet_ready_s);
  out.set_attack_ready_s(agent.attack_ready_s);
  out.set_faced(raw(agent.faced));
  encodeVec3(agent.investigated, *out.mutable_investigated());
  out.set_looked_around(agent.looked_around);
  encodePerception(agent.perception, *out.mutable_perception());
  encodeBst(agent.bst, agent.behavior_def, access.selectionTrees(), *out.mutable_bst());
  const Archetype& type = access.archetypes().at(agent.archetype);
  const bool runs_tree = agent.behavior_def < type.behaviors.size() &&
                         !type.behaviors[agent.behavior_def].tree.empty();
  encodeMbt(agent.mbt, runs_tree, *out.mutable_mbt());
  encodeIntent(agent, access.names(), *out.mutable_intent());
  if (const std::optional<PlannerMemory> memory = access.planner(agent.id)) {
    out.set_plans(true);
    encodeGoap(*memory, *out.mutable_goap());
  }
  encodeLongAction(agent.work, agent.work_is_hibernation, access.longActions(), *out.mutable_work());
  encodeInventory(agent.inventory, access.longActions(), *out.mutable_inventory());
}

bool decodeAgent(const pb::AgentState& in, SimStateAccess& access, AgentRecord& r,
                 std::string& error) {
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
  return true;
}

}  // namespace

void captureSimState(Simulation& sim, pb::SimState& out) {
  const SimStateAccess access(sim);
  out.Clear();
  out.set_tick(access.tick());
  out.set_next_intention_id(access.nextIntentionId());
  encodeWorld(access, *out.mutable_world());
  for (const Agent& agent : access.agents()) encodeAgent(access, agent, *out.add_agents());
  encodeHibernation(access, *out.mutable_hibernation());
  for (EntityId id : access.sleepingPlanners()) {
    pb::GoapSleeper& s = *out.add_sleeping_planners();
    s.set_id(raw(id));
    encodeGoap(*access.planner(id), *s.mutable_goap());
  }
  encodePerceptionSystem(access, *out.mutable_perception());
}

bool restoreSimState(const pb::SimState& state, Simulation& sim, std::string& error) {
  SimStateAccess access(sim);
  access.clear();
  access.setCounters(state.tick(), state.next_intention_id(), state.world().next_dropped_object());
  restoreWorld(state.world(), access);
  for (const pb::GoapSleeper& s : state.sleeping_planners()) {
    access.addPlanner(EntityId{s.id()}, decodeGoap(s.goap()));
  }
  AgentRecord record;
  for (const pb::AgentState& a : state.agents()) {
    if (!decodeAgent(a, access, record, error)) return false;
    if (a.plans()) access.addPlanner(EntityId{a.id()}, decodeGoap(a.goap()));
    if (!access.addAgent(record)) {
      error = "agent " + std::to_string(a.id()) + ": cannot be restored";
      return false;
    }
  }
  if (!restoreHibernation(state.hibernation(), access, error)) return false;
  if (state.has_perception() && !restorePerceptionSystem(state.perception(), access, error)) {
    return false;
  }
  access.finishRestore();
  return true;
}

}  // namespace npc
