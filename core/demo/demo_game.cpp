#include "demo/demo_game.h"

#include <algorithm>
#include <cmath>

#include "sim/simulation.h"

namespace npc {

namespace {

// Moves `from` toward `to` by at most `step` metres; returns true on arrival.
bool stepToward(Vec3& from, Vec3 to, float step) {
  const Vec3 delta = to - from;
  const float dist = length(delta);
  if (dist <= step) {
    from = to;
    return true;
  }
  from = from + delta * (step / dist);
  return false;
}

Command upsertBody(EntityId id, EntityKind kind, Vec3 position, Vec3 heading, float speed) {
  EntityState s;
  s.id = id;
  s.kind = kind;
  s.position = position;
  const float len = length(heading);
  if (len > 1e-4f) {
    s.forward = heading * (1.f / len);
    s.velocity = heading * (speed / len);
  } else {
    s.velocity = Vec3{};
  }
  return {ClientId::kDaemon, 0, UpsertEntity{s}};
}

}  // namespace

DemoGame::DemoGame(std::vector<ScriptedPlayer> players) {
  for (ScriptedPlayer& p : players) {
    if (p.route.size() < 2) continue;
    Walker w;
    w.position = p.route.front();
    w.def = std::move(p);
    walkers_.push_back(std::move(w));
  }
}

void DemoGame::step(const Simulation& sim, std::vector<Command>& out) {
  // Actions the daemon interrupted (a behavior change) or failed (timeout) are dropped, as
  // a game stops an animation it was told to stop.
  for (const EventOut& e : sim.output().events) {
    if (e.kind != EventKind::kIntentionInterrupted && e.kind != EventKind::kIntentionFailed) continue;
    running_.erase(std::remove_if(running_.begin(), running_.end(),
                                  [&](const RunningAction& r) { return r.intention == e.intention; }),
                   running_.end());
  }
  startActions(sim);
  advanceWalkers(sim.config().tick_dt_s, out);
  advanceActions(sim, out);
}

void DemoGame::startActions(const Simulation& sim) {
  const NameTable<ActionNameId>& names = sim.names();
  // Built-in behaviors send MoveTo(position, speed); behavior trees send Move(to, speed,
  // stopWithinDistance) where `to` may be an entity and speed "Walk" / "Run"; the seed's
  // Raoul sends Go(target entity).
  const ActionNameId move_to = names.find("MoveTo"), move = names.find("Move");
  const ActionNameId go = names.find("Go");
  const ActionNameId duration = names.find("duration"), speed = names.find("speed");
  const ActionNameId stop_within = names.find("stopWithinDistance");
  const ActionNameId run = names.find("Run");
  for (const ActionOut& a : sim.output().actions) {
    if (a.owner != ClientId::kDaemon) continue;
    RunningAction r;
    r.agent = a.agent;
    r.intention = a.intention;
    r.move = a.name == move_to || a.name == move || a.name == go;
    double seconds = 1.0;
    for (uint8_t i = 0; i < a.param_count; ++i) {
      const ActionParam& p = a.params[i];
      if (p.type == ActionParam::Type::kPosition) r.goal = p.position;
      if (p.type == ActionParam::Type::kEntity && r.move) {
        if (const Entity* target = sim.world().entities().get(p.entity)) r.goal = target->position;
      }
      if (p.type == ActionParam::Type::kNumber && p.name == duration) seconds = p.number;
      if (p.type == ActionParam::Type::kNumber && p.name == speed) {
        r.speed_mps = static_cast<float>(p.number);
      }
      if (p.type == ActionParam::Type::kText && p.name == speed) r.speed_mps = p.text == run ? 4.f : 1.5f;
      if (p.type == ActionParam::Type::kNumber && p.name == stop_within) {
        r.stop_within_m = static_cast<float>(p.number);
      }
    }
    // A very long timed action (a tree's "shoot until told otherwise") is capped so the
    // demo keeps moving; the tree cancels or restarts it as it sees fit.
    r.ends_at_s = sim.timeS() + std::min(seconds, 10.0);
    const Entity* body = sim.world().entities().get(a.agent);
    if (r.move && body && tooSteep(body->position, r.goal)) {
      r.move = false;
      r.too_steep = true;
      r.ends_at_s = sim.timeS() + kGiveUpClimbS;
    }
    running_.push_back(r);
  }
}

bool DemoGame::tooSteep(Vec3 from, Vec3 to) {
  // Almost vertical: more than 1 m up, and rising more than it runs.
  const float rise = to.z - from.z;
  const float dx = to.x - from.x, dy = to.y - from.y;
  const float run = std::sqrt(dx * dx + dy * dy);
  return rise > 1.f && rise > run;
}

void DemoGame::advanceWalkers(double dt_s, std::vector<Command>& out) {
  for (Walker& w : walkers_) {
    if (!w.spawned) {
      EntityState s;
      s.id = w.def.id;
      s.kind = EntityKind::kPlayer;
      s.species = w.def.species;
      s.position = w.position;
      out.push_back({ClientId::kDaemon, 0, UpsertEntity{s}});
      w.spawned = true;
      continue;
    }
    const Vec3 target = w.def.route[w.next_waypoint];
    const Vec3 before = w.position;
    if (stepToward(w.position, target, w.def.speed_mps * static_cast<float>(dt_s))) {
      w.next_waypoint = (w.next_waypoint + 1) % w.def.route.size();
    }
    out.push_back(upsertBody(w.def.id, EntityKind::kPlayer, w.position, target - before,
                             w.def.speed_mps));
  }
}

void DemoGame::advanceActions(const Simulation& sim, std::vector<Command>& out) {
  const double now = sim.timeS();
  const float dt = static_cast<float>(sim.config().tick_dt_s);
  auto done = [&](const RunningAction& r) {
    const Entity* body = sim.world().entities().get(r.agent);
    if (!body) return true;  // despawned: nothing left to report
    bool finished;
    if (r.move) {
      Vec3 position = body->position;
      finished = stepToward(position, r.goal, r.speed_mps * dt) ||
                 distanceSq(position, r.goal) <= r.stop_within_m * r.stop_within_m;
      out.push_back(upsertBody(r.agent, EntityKind::kNpc, position, r.goal - body->position,
                               finished ? 0.f : r.speed_mps));
    } else {
      finished = now >= r.ends_at_s;
    }
    if (finished) {
      ActionResult result;
      result.agent = r.agent;
      result.intention = r.intention;
      result.outcome = r.too_steep ? ActionOutcome::kFailed : ActionOutcome::kCompleted;
      if (r.too_steep) result.reason = "too steep to climb";
      out.push_back({ClientId::kDaemon, 0, result});
    }
    return finished;
  };
  running_.erase(std::remove_if(running_.begin(), running_.end(), done), running_.end());
}

}  // namespace npc
