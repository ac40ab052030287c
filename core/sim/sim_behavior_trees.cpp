// Simulation: modular behavior trees (core/mbt) running behaviors. A behavior whose
// archetype entry names a "tree" runs it: perception's and others' signals reach it as
// events, it ticks every update while the behavior is current, and its action nodes become
// intentions on the agent's queue (so the scheduler, timeouts and client results apply).
#include <algorithm>

#include "intent/action_tree.h"
#include "sim/sim_mbt_host.h"
#include "sim/simulation.h"

namespace npc {

void Simulation::registerTreeActions(ActionListId list, const Archetype& type) {
  // Every action node type the factory knows (BT-REFERENCE.md §2b, and a game's own) becomes
  // a client-side action named after the node; a generic <Action name="X"> needs X in the
  // archetype's actions.
  bool uses_trees = false;
  for (const BehaviorDef& def : type.behaviors) uses_trees = uses_trees || !def.tree.empty();
  if (!uses_trees) return;
  for (const std::string& name : mbt_.factory().actionNames()) {
    if (registry_.findInList(list, names_.intern(name)) == ActionImplId::kNone) {
      registry_.addTo(list, name, std::make_unique<ClientAction>(type.action_timeout_s));
    }
  }
}

DefinitionReport Simulation::loadBehaviorTrees(const std::vector<MbtSourceFile>& files) {
  const MbtLoadReport r = finishMbtLoad(mbt_.loadSources(files));
  DefinitionReport report;
  report.errors = r.errors;
  report.warnings = r.warnings;
  // The library swaps a set in when it has no errors, or on a first load with some trees.
  report.outcome("behavior trees", r.ok() || r.trees > 0,
                 std::to_string(r.trees) + " trees (" + std::to_string(r.reused) + " unchanged)");
  report.behavior_trees = mbt_.treeCount();
  return report;
}

MbtLoadReport Simulation::finishMbtLoad(MbtLoadReport report) {
  if (!mbt_host_) mbt_host_ = std::make_unique<SimMbtHost>(*this);
  for (size_t a = 0; a < archetypes_.size(); ++a) {
    const Archetype& type = archetypes_.at(static_cast<uint16_t>(a));
    registerTreeActions(own_actions_[a], type);  // action nodes a game registered since
    for (const BehaviorDef& def : type.behaviors) {
      if (def.tree.empty()) continue;
      // A tree whose own file failed is named by that file's errors: one cause, one message.
      if (std::find(report.broken.begin(), report.broken.end(), def.tree) != report.broken.end()) {
        continue;
      }
      Agent probe;  // bind() checks the tree exists; the probe is dropped at once
      if (!mbt_.bind(probe.mbt, def.tree, EntityId{1}, 0).isOk()) {
        report.errors.push_back("archetype \"" + type.name + "\": behavior \"" + def.name +
                                "\": tree \"" + def.tree + "\" is not loaded");
      }
    }
  }
  // Agents already in a tree behavior whose tree was not bound yet get it now.
  for (Agent& agent : agents_.rows()) {
    if (!agent.mbt.bound()) bindTree(agent);
  }
  return report;
}

void Simulation::bindTree(Agent& agent) {
  if (!runsBehaviorTree(agent, archetypes_)) return;
  const std::string& tree = archetypes_.at(agent.archetype).behaviors[agent.behavior_def].tree;
  const Status s = mbt_.bind(agent.mbt, tree, agent.id, config_.seed);
  if (!s.isOk()) {
    const Entity* body = world_.entities().get(agent.entity);
    emitError(body ? body->owner : kAllClients, 0, agent.id, s.message());
  }
}

void Simulation::leaveTree(Agent& agent) {
  if (!agent.mbt.bound() || !mbt_host_) return;
  agent.mbt.terminate(mbt_host_->on(agent));
}

void Simulation::treeEvent(Agent& agent, const Signal& signal) {
  if (!agent.mbt.bound()) return;
  MbtEvent event;
  event.id = signal.id;
  event.sender = signal.sender;
  event.subject = signal.subject;
  event.position = signal.position;
  event.value = signal.value;
  if (signal.action != ActionNameId::kNone) event.action = names_.name(signal.action);
  if (const Entity* body = world_.entities().get(agent.entity)) {
    event.distance_m = length(signal.position - body->position);
  }
  agent.mbt.handleEvent(event, mbt_host_->on(agent));
}

}  // namespace npc
