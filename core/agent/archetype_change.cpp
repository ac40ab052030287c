#include "agent/archetype_change.h"

namespace npc {

namespace {

// A behavior with its tunable numbers cleared: what must stay equal for a live change.
std::vector<BehaviorDef> behaviorShapes(std::vector<BehaviorDef> defs) {
  for (BehaviorDef& d : defs) {
    d.duration_s = d.cooldown_s = d.speed_mps = 0.f;
  }
  return defs;
}

void note(std::vector<std::string>& out, bool changed, const char* part) {
  if (changed) out.emplace_back(part);
}

template <typename T>
void retune(T& agent, const T& was, const T& now) {
  if (!(was == now) && agent == was) agent = now;
}

}  // namespace

ArchetypeChange compareArchetypes(const Archetype& was, const Archetype& now) {
  ArchetypeChange c;
  note(c.live, !(was.sensors == now.sensors), "sensors");
  note(c.live, was.inventory != now.inventory, "inventory");
  note(c.live, was.greet.duration_s != now.greet.duration_s ||
                   was.greet.cooldown_s != now.greet.cooldown_s, "greet");
  note(c.live, !(was.wander == now.wander), "wander");
  const bool shapes_equal = behaviorShapes(was.behaviors) == behaviorShapes(now.behaviors);
  note(c.live, shapes_equal && !(was.behaviors == now.behaviors), "behavior timings");

  note(c.restart, was.species != now.species, "species");
  note(c.restart, was.selection_tree != now.selection_tree, "selection_tree");
  note(c.restart, was.behavior != now.behavior, "behavior");
  note(c.restart, !shapes_equal, "behaviors");
  note(c.restart, was.hibernation_action != now.hibernation_action, "hibernation_action");
  note(c.restart, was.action_timeout_s != now.action_timeout_s, "action_timeout_s");
  note(c.restart, was.greet.action != now.greet.action, "greet action");
  note(c.restart, !(was.actions == now.actions), "actions");
  note(c.restart, !(was.planners == now.planners), "planners");
  return c;
}

SensorConfig retunedSensors(const SensorConfig& agent, const SensorConfig& was,
                            const SensorConfig& now) {
  SensorConfig out = agent;
  retune(out.vision, was.vision, now.vision);
  retune(out.hearing, was.hearing, now.hearing);
  retune(out.signals, was.signals, now.signals);
  retune(out.sight_range_m, was.sight_range_m, now.sight_range_m);
  retune(out.fov_deg, was.fov_deg, now.fov_deg);
  retune(out.hearing_scale, was.hearing_scale, now.hearing_scale);
  // Soft-cover persistence is drawn per agent at spawn from [min, max]: agents spawned or
  // woken from now on draw from the new range.
  retune(out.soft_cover_min_s, was.soft_cover_min_s, now.soft_cover_min_s);
  retune(out.soft_cover_max_s, was.soft_cover_max_s, now.soft_cover_max_s);
  return out;
}

}  // namespace npc
