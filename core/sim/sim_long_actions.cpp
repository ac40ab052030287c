// Simulation: long actions (seed 004, "Long actions and hibernation mode of entities") —
// the library archetypes name, agents' work started and stopped, and a new library taking
// over live (the definitions poll, ReloadDefinitions).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sim/simulation.h"

namespace npc {

namespace {

// What archetypes name in a library: each one's hibernation action and, per behavior, the
// long action of a long_action behavior (kNone otherwise).
struct LongActionRefs {
  std::vector<uint16_t> hibernation;
  std::vector<std::vector<uint16_t>> behaviors;
};

LongActionRefs resolveLongActions(const ArchetypeSet& archetypes, const LongActionLibrary& library,
                                  std::vector<std::string>& errors) {
  LongActionRefs refs;
  refs.hibernation.assign(archetypes.size(), LongActionRun::kNone);
  refs.behaviors.assign(archetypes.size(), {});
  for (size_t a = 0; a < archetypes.size(); ++a) {
    const Archetype& type = archetypes.at(static_cast<uint16_t>(a));
    if (!type.hibernation_action.empty()) {
      refs.hibernation[a] = library.find(type.hibernation_action);
      if (refs.hibernation[a] == LongActionRun::kNone) {
        errors.push_back("archetype \"" + type.name + "\": hibernation_action \"" +
                         type.hibernation_action + "\" is not a known long action");
      }
    }
    for (const BehaviorDef& def : type.behaviors) {
      uint16_t index = LongActionRun::kNone;
      if (def.mode == BehaviorMode::kLongAction) {
        index = library.find(def.action);
        if (index == LongActionRun::kNone) {
          errors.push_back("archetype \"" + type.name + "\": behavior \"" + def.name +
                           "\": \"" + def.action + "\" is not a known long action");
        }
      }
      refs.behaviors[a].push_back(index);
    }
  }
  return refs;
}

}  // namespace

std::vector<std::string> Simulation::setLongActions(LongActionLibrary library) {
  long_actions_ = std::move(library);
  std::vector<std::string> errors;
  LongActionRefs refs = resolveLongActions(archetypes_, long_actions_, errors);
  hibernation_action_ = std::move(refs.hibernation);
  behavior_long_action_ = std::move(refs.behaviors);
  return errors;
}

DefinitionReport Simulation::reloadLongActions(LongActionLibrary fresh, const std::string& source) {
  DefinitionReport report;
  std::vector<std::string> errors;
  LongActionRefs refs = resolveLongActions(archetypes_, fresh, errors);
  // Work in progress must carry on: an action someone runs cannot go.
  std::map<std::string, std::vector<EntityId>> orphaned;
  auto check = [&](EntityId id, const LongActionRun& run) {
    if (!run.running()) return;
    const std::string& name = long_actions_.at(run.action).name;
    if (fresh.find(name) == LongActionRun::kNone) orphaned[name].push_back(id);
  };
  for (const Agent& agent : agents_.rows()) check(agent.id, agent.work);
  for (const SleeperList& place : dormant_) {
    for (const DormantAgent& d : place) check(d.body.id, d.work);
  }
  for (const auto& [name, ids] : orphaned) {
    errors.push_back("long action \"" + name + "\" is missing, but " + std::to_string(ids.size()) +
                     " agent(s) are running it (first: " + std::to_string(raw(ids.front())) +
                     "); it can go once they stop");
  }
  if (!errors.empty()) {
    for (const std::string& e : errors) report.errors.push_back(source + ": " + e);
    report.refused.push_back("long actions");
    return report;
  }
  std::vector<std::string> changed, added;
  std::vector<bool> was_changed(long_actions_.size(), false);  // by old index
  for (size_t i = 0; i < fresh.size(); ++i) {
    const LongActionDef& def = fresh.at(static_cast<uint16_t>(i));
    const uint16_t was = long_actions_.find(def.name);
    if (was == LongActionRun::kNone) {
      added.push_back(def.name);
    } else if (!(long_actions_.at(was) == def)) {
      changed.push_back(def.name);
      was_changed[was] = true;
    }
  }
  // Changed actions settle what their runs did under the old rules, then go on under the
  // new ones (LongActionLibrary::adopt); the others only take their new index.
  const double now = timeS();
  size_t settled = 0;
  auto adopt = [&](LongActionRun& run, Inventory& inventory) {
    if (!run.running()) return;
    if (was_changed[run.action]) ++settled;
    fresh.adopt(run, inventory, long_actions_, now);
  };
  for (Agent& agent : agents_.rows()) adopt(agent.work, agent.inventory);
  for (SleeperList& place : dormant_) {
    const bool works = std::any_of(place.begin(), place.end(),
                                   [](const DormantAgent& d) { return d.work.running(); });
    if (!works) continue;  // shared rows stay shared
    for (DormantAgent& d : place.edit()) adopt(d.work, d.inventory);
  }
  long_actions_ = std::move(fresh);
  hibernation_action_ = std::move(refs.hibernation);
  behavior_long_action_ = std::move(refs.behaviors);
  report.outcome("long actions", true,
                 std::to_string(long_actions_.size()) + " actions (changed: " + nameList(changed) +
                     "; new: " + nameList(added) + "; " + std::to_string(settled) +
                     " agents' work settled under the old definition)");
  return report;
}

void Simulation::startWork(Agent& agent, uint16_t long_action, bool for_hibernation) {
  if (long_action == LongActionRun::kNone) return;
  if (agent.work.running() && agent.work.action == long_action) return;  // carries on
  stopWork(agent, nullptr);
  agent.work = LongActionLibrary::start(long_action, timeS());
  agent.work_is_hibernation = for_hibernation;
}

void Simulation::stopWork(Agent& agent, Settlement* settled) {
  if (!agent.work.running()) return;
  long_actions_.settle(agent.work, timeS(), agent.inventory, settled);
  agent.work = LongActionRun{};
  agent.work_is_hibernation = false;
}

}  // namespace npc
