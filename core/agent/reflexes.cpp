#include "agent/reflexes.h"

#include <algorithm>
#include <cmath>

namespace npc {

void ReflexVocabulary::intern(NameTable& names, const ArchetypeSet& archetypes) {
  move_to = names.intern("MoveTo");
  param_target = names.intern("target");
  param_position = names.intern("position");
  param_speed = names.intern("speed");
  param_duration = names.intern("duration");
  unit_s = names.intern("s");
  unit_mps = names.intern("m/s");
  greet_action.clear();
  for (size_t i = 0; i < archetypes.size(); ++i) {
    greet_action.push_back(names.intern(archetypes.at(static_cast<uint16_t>(i)).greet.action));
  }
}

EntityId Reflexes::nearestPlayer(const Entity& self, const World& world, float radius_m) const {
  const auto rows = world.entities().rows();
  EntityId best = EntityId::kNone;
  float best_d2 = 0.f;
  world.forEachInRadius(self.position, radius_m, [&](uint32_t row) {
    const Entity& e = rows[row];
    if (e.kind != EntityKind::kPlayer || !e.active) return;
    const float d2 = distanceSq(e.position, self.position);
    // Ties go to the lower id so the choice never depends on index layout.
    if (best == EntityId::kNone || d2 < best_d2 || (d2 == best_d2 && raw(e.id) < raw(best))) {
      best = e.id;
      best_d2 = d2;
    }
  });
  return best;
}

bool Reflexes::decide(Agent& agent, const Entity& self, const World& world, double now_s,
                      ActionOut& out) const {
  if (agent.busy() || !self.active) return false;
  const Archetype& type = archetypes_.at(agent.archetype);
  agent.noticed = type.notice_radius_m > 0.f ? nearestPlayer(self, world, type.notice_radius_m)
                                              : EntityId::kNone;

  out.agent = agent.id;
  out.param_count = 0;
  auto add = [&](ActionParam p) { out.params[out.param_count++] = p; };

  if (agent.noticed != EntityId::kNone && now_s >= agent.greet_ready_s) {
    out.name = vocabulary_.greet_action[agent.archetype];
    ActionParam target;
    target.type = ActionParam::Type::kEntity;
    target.name = vocabulary_.param_target;
    target.entity = agent.noticed;
    add(target);
    ActionParam duration;
    duration.type = ActionParam::Type::kNumber;
    duration.name = vocabulary_.param_duration;
    duration.unit = vocabulary_.unit_s;
    duration.number = type.greet.duration_s;
    add(duration);
    agent.greet_ready_s = now_s + type.greet.duration_s + type.greet.cooldown_s;
    return true;
  }

  if (type.wander.radius_m > 0.f && now_s >= agent.idle_until_s) {
    const float angle = agent.rng.range(0.f, 6.2831853f);
    const float dist = type.wander.radius_m * std::sqrt(static_cast<float>(agent.rng.uniform()));
    Vec3 goal{agent.home.x + dist * std::cos(angle), agent.home.y + dist * std::sin(angle),
              agent.home.z};
    if (const Place* place = world.place(self.place)) {
      goal.x = std::clamp(goal.x, place->bounds.min.x, place->bounds.max.x);
      goal.y = std::clamp(goal.y, place->bounds.min.y, place->bounds.max.y);
    }
    out.name = vocabulary_.move_to;
    ActionParam position;
    position.type = ActionParam::Type::kPosition;
    position.name = vocabulary_.param_position;
    position.position = goal;
    add(position);
    ActionParam speed;
    speed.type = ActionParam::Type::kNumber;
    speed.name = vocabulary_.param_speed;
    speed.unit = vocabulary_.unit_mps;
    speed.number = type.wander.speed_mps;
    add(speed);
    return true;
  }
  return false;
}

void Reflexes::onActionEnded(Agent& agent, double now_s, bool completed) const {
  const Archetype& type = archetypes_.at(agent.archetype);
  if (agent.action == vocabulary_.move_to || !completed) {
    agent.idle_until_s = now_s + agent.rng.range(type.wander.pause_min_s, type.wander.pause_max_s);
  }
}

}  // namespace npc
