#include "agent/builtin_behaviors.h"

#include <algorithm>
#include <cmath>

namespace npc {

namespace {

ActionParam entityParam(ActionNameId name, EntityId id) {
  ActionParam p;
  p.type = ActionParam::Type::kEntity;
  p.name = name;
  p.entity = id;
  return p;
}

ActionParam numberParam(ActionNameId name, ActionNameId unit, double value) {
  ActionParam p;
  p.type = ActionParam::Type::kNumber;
  p.name = name;
  p.unit = unit;
  p.number = value;
  return p;
}

ActionParam positionParam(ActionNameId name, Vec3 position) {
  ActionParam p;
  p.type = ActionParam::Type::kPosition;
  p.name = name;
  p.position = position;
  return p;
}

void add(ActionOut& out, const ActionParam& p) {
  if (out.param_count < kMaxActionParams) out.params[out.param_count++] = p;
}

// Investigating a spot again only when the stimulus moved this far.
constexpr float kNewSpotM = 1.5f;

}  // namespace

void BehaviorVocabulary::intern(NameTable<ActionNameId>& names, const ArchetypeSet& archetypes) {
  move_to = names.intern("MoveTo");
  turn_to = names.intern("TurnTo");
  look_around = names.intern("LookAround");
  param_target = names.intern("target");
  param_position = names.intern("position");
  param_speed = names.intern("speed");
  param_duration = names.intern("duration");
  unit_s = names.intern("s");
  unit_mps = names.intern("m/s");
  greet_action.clear();
  behavior_action.clear();
  for (size_t i = 0; i < archetypes.size(); ++i) {
    const Archetype& a = archetypes.at(static_cast<uint16_t>(i));
    greet_action.push_back(names.intern(a.greet.action));
    std::vector<ActionNameId> actions;
    for (const BehaviorDef& def : a.behaviors) {
      actions.push_back(def.action.empty() ? greet_action.back() : names.intern(def.action));
    }
    behavior_action.push_back(std::move(actions));
  }
}

bool BuiltinBehaviors::decide(Agent& agent, const Entity& self, const World& world,
                              double now_s, ActionOut& out) const {
  if (agent.busy() || !self.active) return false;
  const Archetype& type = archetypes_.at(agent.archetype);
  out.agent = agent.id;
  out.param_count = 0;
  if (agent.behavior_def == Agent::kNoBehaviorDef) return faceTarget(agent, out);
  const BehaviorDef& def = type.behaviors[agent.behavior_def];
  switch (def.mode) {
    case BehaviorMode::kIdle: return false;
    case BehaviorMode::kWander: return wander(agent, self, world, now_s, type, out);
    case BehaviorMode::kGreet: return greet(agent, world, now_s, type, out);
    case BehaviorMode::kAmbient:
      return greet(agent, world, now_s, type, out) || wander(agent, self, world, now_s, type, out);
    case BehaviorMode::kInvestigate: return investigate(agent, def, type, out);
    case BehaviorMode::kAttack: return attack(agent, def, type, now_s, out);
    case BehaviorMode::kFaceTarget: return faceTarget(agent, out);
    case BehaviorMode::kLongAction: return false;  // daemon-side: nothing for the client
    case BehaviorMode::kPlan: return false;        // the planning phase programs its steps
  }
  return false;
}

bool BuiltinBehaviors::wander(Agent& agent, const Entity& self, const World& world,
                              double now_s, const Archetype& type, ActionOut& out) const {
  if (type.wander.radius_m <= 0.f || now_s < agent.idle_until_s) return false;
  const float angle = agent.rng.range(0.f, 6.2831853f);
  const float dist = type.wander.radius_m * std::sqrt(static_cast<float>(agent.rng.uniform()));
  Vec3 goal{agent.home.x + dist * std::cos(angle), agent.home.y + dist * std::sin(angle),
            agent.home.z};
  if (const Place* place = world.place(self.place)) {
    goal.x = std::clamp(goal.x, place->bounds.min.x, place->bounds.max.x);
    goal.y = std::clamp(goal.y, place->bounds.min.y, place->bounds.max.y);
  }
  out.name = vocabulary_.move_to;
  add(out, positionParam(vocabulary_.param_position, goal));
  add(out, numberParam(vocabulary_.param_speed, vocabulary_.unit_mps, type.wander.speed_mps));
  return true;
}

bool BuiltinBehaviors::greet(Agent& agent, const World& world, double now_s,
                             const Archetype& type, ActionOut& out) const {
  const AttentionTarget& a = agent.perception.attention;
  if (a.cls != AttentionClass::kVisible || now_s < agent.greet_ready_s) return false;
  const Entity* target = world.entities().get(a.target);
  if (!target || target->kind != EntityKind::kPlayer) return false;
  const int def = agent.behavior_def;
  out.name = vocabulary_.behavior_action[agent.archetype][def];
  const bool own = !type.behaviors[def].action.empty();
  const float duration = own ? type.behaviors[def].duration_s : type.greet.duration_s;
  const float cooldown = own ? type.behaviors[def].cooldown_s : type.greet.cooldown_s;
  add(out, entityParam(vocabulary_.param_target, a.target));
  add(out, numberParam(vocabulary_.param_duration, vocabulary_.unit_s, duration));
  agent.greet_ready_s = now_s + duration + cooldown;
  return true;
}

bool BuiltinBehaviors::investigate(Agent& agent, const BehaviorDef& def, const Archetype& type,
                                   ActionOut& out) const {
  const AttentionTarget& a = agent.perception.attention;
  if (a.cls == AttentionClass::kNone) return false;
  const float speed = def.speed_mps > 0.f ? def.speed_mps : type.wander.speed_mps;
  if (distanceSq(a.position, agent.investigated) > kNewSpotM * kNewSpotM) {
    agent.investigated = a.position;
    agent.looked_around = false;
    out.name = vocabulary_.move_to;
    add(out, positionParam(vocabulary_.param_position, a.position));
    add(out, numberParam(vocabulary_.param_speed, vocabulary_.unit_mps, speed));
    return true;
  }
  if (agent.looked_around) return false;
  agent.looked_around = true;
  out.name = vocabulary_.look_around;
  add(out, numberParam(vocabulary_.param_duration, vocabulary_.unit_s, def.duration_s));
  return true;
}

bool BuiltinBehaviors::attack(Agent& agent, const BehaviorDef& def, const Archetype& type,
                              double now_s, ActionOut& out) const {
  const AttentionTarget& a = agent.perception.attention;
  if (a.cls == AttentionClass::kVisible) {
    if (now_s < agent.attack_ready_s) return false;
    out.name = vocabulary_.behavior_action[agent.archetype][agent.behavior_def];
    add(out, entityParam(vocabulary_.param_target, a.target));
    add(out, numberParam(vocabulary_.param_duration, vocabulary_.unit_s, def.duration_s));
    agent.attack_ready_s = now_s + def.duration_s + def.cooldown_s;
    return true;
  }
  if (a.cls == AttentionClass::kRemembered) return investigate(agent, def, type, out);
  return false;
}

bool BuiltinBehaviors::faceTarget(Agent& agent, ActionOut& out) const {
  const AttentionTarget& a = agent.perception.attention;
  if (a.cls == AttentionClass::kNone) return false;
  if (a.target != EntityId::kNone) {
    if (a.target == agent.faced) return false;
    agent.faced = a.target;
  } else {  // an anonymous noise: turn again only when it comes from somewhere else
    if (distanceSq(a.position, agent.investigated) <= kNewSpotM * kNewSpotM) return false;
    agent.investigated = a.position;
  }
  out.name = vocabulary_.turn_to;
  if (a.target != EntityId::kNone) add(out, entityParam(vocabulary_.param_target, a.target));
  add(out, positionParam(vocabulary_.param_position, a.position));
  return true;
}

bool BuiltinBehaviors::onActionEnded(Agent& agent, ActionNameId action, double now_s,
                                     bool completed) const {
  const Archetype& type = archetypes_.at(agent.archetype);
  if (action == vocabulary_.move_to || !completed) {
    agent.idle_until_s = now_s + agent.rng.range(type.wander.pause_min_s, type.wander.pause_max_s);
  }
  if (!completed || agent.behavior_def == Agent::kNoBehaviorDef) return false;
  switch (type.behaviors[agent.behavior_def].mode) {
    case BehaviorMode::kInvestigate: return action == vocabulary_.look_around;
    case BehaviorMode::kGreet:
    case BehaviorMode::kAmbient:
      return action == vocabulary_.behavior_action[agent.archetype][agent.behavior_def];
    default: return false;
  }
}

void BuiltinBehaviors::onBehaviorEntered(Agent& agent) const {
  agent.investigated = Vec3{1e30f, 1e30f, 1e30f};
  agent.looked_around = false;
  agent.faced = EntityId::kNone;
}

}  // namespace npc
