#include "bot_game.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace npc::bots {

namespace {

constexpr float kEyeHeightM = 1.7f;
// Gunshots and fights are full threats; footsteps keep the kind's default.
constexpr float kThreat = 1.f;

void setVec(v1::Vec3* out, Vec3 v) {
  out->set_x(v.x);
  out->set_y(v.y);
  out->set_z(v.z);
}

Vec3 fromProto(const v1::Vec3& v) { return {v.x(), v.y(), v.z()}; }

// Moves `from` toward `to` by at most `step` metres; true on arrival.
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

v1::Entity* addBody(v1::WorldUpdate& update, uint64_t id, v1::EntityKind kind, Vec3 position,
                    Vec3 velocity, std::optional<Vec3> forward) {
  v1::Entity* e = update.add_upserts();
  e->set_id(id);
  e->set_kind(kind);
  setVec(e->mutable_position(), position);
  setVec(e->mutable_velocity(), velocity);
  if (forward && lengthSq(*forward) > 1e-8f) setVec(e->mutable_forward(), *forward);
  return e;
}

void addSound(v1::WorldUpdate& update, uint64_t source, Vec3 position, float radius_m,
              const char* kind, std::optional<float> threat) {
  v1::Sound* s = update.add_sounds();
  s->set_source(source);
  setVec(s->mutable_position(), position);
  s->set_radius(radius_m);
  s->set_kind(kind);
  if (threat) s->set_threat(*threat);
}

void addResult(v1::WorldUpdate& update, uint64_t agent, uint64_t intention,
               v1::ActionResult::Outcome outcome, float progress, const char* reason) {
  v1::ActionResult* r = update.add_results();
  r->set_agent(agent);
  r->set_intention(intention);
  r->set_outcome(outcome);
  r->set_progress(progress);
  if (reason != nullptr) r->set_reason(reason);
}

}  // namespace

ActionOrder toOrder(const v1::Action& action) {
  ActionOrder o;
  o.agent = action.agent();
  o.intention = action.intention();
  o.name = action.name();
  for (const v1::Param& p : action.params()) {
    if (p.value_case() == v1::Param::kPosition && p.name() == "position") {
      o.position = fromProto(p.position());
    } else if (p.value_case() == v1::Param::kNumber && p.name() == "speed") {
      o.speed_mps = p.number();
    } else if (p.value_case() == v1::Param::kNumber && p.name() == "duration") {
      o.duration_s = p.number();
    }
  }
  return o;
}

FrameCounts& FrameCounts::operator+=(const FrameCounts& o) {
  upserts += o.upserts;
  removals += o.removals;
  sounds += o.sounds;
  signals += o.signals;
  completed += o.completed;
  failed += o.failed;
  progress += o.progress;
  return *this;
}

BotGame::BotGame(const Scenario& scenario, uint32_t client)
    : scenario_(scenario),
      base_(kIdBase + client * kIdsPerClient),
      rng_(scenario.seed * 0x9E3779B97F4A7C15ull + client + 1) {
  players_.resize(scenario.players.per_client);
  for (Player& p : players_) {
    p.position = randomPoint();
    pickLeg(p);
    p.next_footstep_s = nextEvent(0.0, scenario.players.footstep_hz);
    p.next_gunshot_s = nextEvent(0.0, scenario.players.gunshot_hz);
    p.next_fight_s = nextEvent(0.0, scenario.players.fight_hz);
  }
  npcs_.resize(scenario.npcs.countFor(client, scenario.clients));
  const size_t kinds = std::max<size_t>(1, scenario.npcs.archetypes.size());
  for (size_t i = 0; i < npcs_.size(); ++i) {
    npcs_[i].position = randomPoint();
    npcs_[i].archetype = static_cast<uint32_t>(i % kinds);
  }
}

size_t BotGame::runningActions() const {
  return static_cast<size_t>(std::count_if(npcs_.begin(), npcs_.end(), [](const Npc& n) {
    return n.action.intention != 0;
  }));
}

bool BotGame::start(const ActionOrder& order, double now_s) {
  if (order.agent < npcId(0) || order.agent >= npcId(0) + npcs_spawned_) return false;
  Npc& npc = npcs_[order.agent - npcId(0)];
  if (order.ended_by_daemon) {
    // Our own FAILED reports come back as the same event; their action is already gone.
    if (npc.action.intention != 0) ++ended_by_daemon_;
    npc.action = Running{};
    return true;
  }
  if (npc.action.intention != 0) ++superseded_;
  const ActionSpec& spec = scenario_.actions;
  Running r;
  r.intention = order.intention;
  r.started_s = now_s;
  r.move = order.name == "MoveTo" && order.position.has_value();
  if (r.move) {
    r.goal = *order.position;
    const double speed = order.speed_mps.value_or(spec.default_speed_mps);
    r.speed_mps = static_cast<float>(speed > 0.0 ? speed : spec.default_speed_mps);
    r.duration_s = length(r.goal - npc.position) / r.speed_mps;
  } else {
    const double d = order.duration_s.value_or(spec.default_duration_s);
    r.duration_s = std::isfinite(d) && d >= 0.0 ? d : spec.default_duration_s;
  }
  r.ends_s = now_s + r.duration_s;
  longest_action_s_ = std::max(longest_action_s_, r.duration_s);
  if (spec.failure_rate > 0.0 && uniform(0.0, 1.0) < spec.failure_rate) {
    r.fails_s = now_s + r.duration_s * uniform(0.2, 0.8);
  }
  r.next_progress_s = spec.progress_interval_s > 0.0
                          ? now_s + spec.progress_interval_s
                          : std::numeric_limits<double>::infinity();
  npc.action = r;
  return true;
}

void BotGame::frame(double now_s, double dt_s, v1::WorldUpdate& update, FrameCounts& counts) {
  if (!spawned_) {
    spawnPlayers(update, counts);
    spawnNpcs(update, counts);
    spawned_ = true;
    return;
  }
  stepPlayers(now_s, dt_s, update, counts);
  stepNpcs(now_s, dt_s, update, counts);
  spawnNpcs(update, counts);
}

void BotGame::spawnPlayers(v1::WorldUpdate& update, FrameCounts& counts) {
  for (size_t i = 0; i < players_.size(); ++i) {
    v1::Entity* e = addBody(update, playerId(static_cast<uint32_t>(i)), v1::ENTITY_KIND_PLAYER,
                            players_[i].position, Vec3{}, std::nullopt);
    e->set_species(scenario_.players.species);
    e->set_eye_height(kEyeHeightM);
    ++counts.upserts;
  }
}

void BotGame::spawnNpcs(v1::WorldUpdate& update, FrameCounts& counts) {
  const size_t batch = scenario_.npcs.spawn_per_frame;
  const size_t end = batch == 0 ? npcs_.size() : std::min(npcs_.size(), npcs_spawned_ + batch);
  for (size_t i = npcs_spawned_; i < end; ++i) {
    v1::Entity* e = addBody(update, npcId(static_cast<uint32_t>(i)), v1::ENTITY_KIND_NPC,
                            npcs_[i].position, Vec3{}, npcs_[i].forward);
    e->set_archetype(scenario_.npcs.archetypes[npcs_[i].archetype]);
    ++counts.upserts;
  }
  npcs_spawned_ = end;
}

void BotGame::stepPlayers(double now_s, double dt_s, v1::WorldUpdate& update,
                          FrameCounts& counts) {
  const PlayerSpec& spec = scenario_.players;
  for (size_t i = 0; i < players_.size(); ++i) {
    Player& p = players_[i];
    const uint64_t id = playerId(static_cast<uint32_t>(i));
    const Vec3 heading = p.goal - p.position;
    if (stepToward(p.position, p.goal, p.speed_mps * static_cast<float>(dt_s))) pickLeg(p);
    const float len = length(heading);
    const Vec3 forward = len > 1e-4f ? heading * (1.f / len) : Vec3{};
    addBody(update, id, v1::ENTITY_KIND_PLAYER, p.position, forward * p.speed_mps, forward);
    ++counts.upserts;

    // A stalled game loop must not fire a backlog of events in one frame.
    auto due = [&](double& next, double rate_hz) {
      if (now_s < next) return false;
      next = nextEvent(std::max(next, now_s - 1.0), rate_hz);
      return true;
    };
    if (due(p.next_footstep_s, spec.footstep_hz)) {
      const bool running = p.speed_mps > spec.walk_mps;
      addSound(update, id, p.position, spec.footstep_radius_m * (running ? 2.f : 1.f),
               "footstep", std::nullopt);
      ++counts.sounds;
    }
    if (due(p.next_gunshot_s, spec.gunshot_hz)) {
      addSound(update, id, p.position, spec.gunshot_radius_m, "gunshot", kThreat);
      ++counts.sounds;
    }
    if (due(p.next_fight_s, spec.fight_hz) && npcs_spawned_ > 0) {
      // The player engages one of this client's NPCs: everyone near it hears and is told.
      const Npc& foe =
          npcs_[static_cast<size_t>(uniform(0.0, 1.0) * npcs_spawned_) % npcs_spawned_];
      v1::Signal* s = update.add_signals();
      s->set_name(spec.fight_signal);
      s->set_sender(id);
      s->set_radius(spec.fight_radius_m);
      setVec(s->mutable_position(), foe.position);
      s->set_value(1.f);
      ++counts.signals;
      addSound(update, id, foe.position, spec.fight_radius_m, "bullet_impact", kThreat);
      ++counts.sounds;
    }
  }
}

void BotGame::stepNpcs(double now_s, double dt_s, v1::WorldUpdate& update, FrameCounts& counts) {
  const bool send_all = scenario_.npcs.updates == NpcSpec::Updates::kAll;
  const double interval = scenario_.actions.progress_interval_s;
  for (size_t i = 0; i < npcs_spawned_; ++i) {
    Npc& npc = npcs_[i];
    Running& r = npc.action;
    const uint64_t id = npcId(static_cast<uint32_t>(i));
    bool moved = false;
    bool arrived = false;
    Vec3 velocity{};
    if (r.intention != 0 && r.move) {
      const Vec3 heading = r.goal - npc.position;
      const float len = length(heading);
      if (len > 1e-4f) npc.forward = heading * (1.f / len);
      arrived = stepToward(npc.position, r.goal, r.speed_mps * static_cast<float>(dt_s));
      velocity = arrived ? Vec3{} : npc.forward * r.speed_mps;
      moved = true;
    }
    if (send_all || moved) {
      addBody(update, id, v1::ENTITY_KIND_NPC, npc.position, velocity, npc.forward);
      ++counts.upserts;
    }
    if (r.intention == 0) continue;

    if (r.fails_s >= 0.0 && now_s >= r.fails_s) {
      addResult(update, id, r.intention, v1::ActionResult::OUTCOME_FAILED, 0.f,
                r.move ? "path blocked (bots)" : "interrupted (bots)");
      ++counts.failed;
      if (moved && !send_all && !arrived) {
        // Stopped where it was: tell the daemon it no longer moves.
        update.mutable_upserts(update.upserts_size() - 1)->mutable_velocity()->Clear();
      }
      r = Running{};
      continue;
    }
    if (r.move ? arrived : now_s >= r.ends_s) {
      addResult(update, id, r.intention, v1::ActionResult::OUTCOME_COMPLETED, 1.f, nullptr);
      ++counts.completed;
      r = Running{};
      continue;
    }
    if (now_s >= r.next_progress_s) {
      const double done = r.duration_s > 0.0 ? (now_s - r.started_s) / r.duration_s : 1.0;
      addResult(update, id, r.intention, v1::ActionResult::OUTCOME_PROGRESS,
                static_cast<float>(std::clamp(done, 0.0, 1.0)), nullptr);
      ++counts.progress;
      r.next_progress_s = now_s + interval;
    }
  }
}

void BotGame::farewell(v1::WorldUpdate& update, FrameCounts& counts) {
  if (!spawned_) return;
  for (size_t i = 0; i < players_.size(); ++i) {
    update.add_removals(playerId(static_cast<uint32_t>(i)));
    ++counts.removals;
  }
  for (size_t i = 0; i < npcs_spawned_; ++i) {
    update.add_removals(npcId(static_cast<uint32_t>(i)));
    ++counts.removals;
    npcs_[i].action = Running{};
  }
  spawned_ = false;
  npcs_spawned_ = 0;
}

void BotGame::pickLeg(Player& p) {
  p.goal = randomPoint();
  const bool run = uniform(0.0, 1.0) < scenario_.players.run_fraction;
  p.speed_mps = run ? scenario_.players.run_mps : scenario_.players.walk_mps;
}

Vec3 BotGame::randomPoint() {
  const Aabb& a = scenario_.area;
  return {static_cast<float>(uniform(a.min.x, a.max.x)),
          static_cast<float>(uniform(a.min.y, a.max.y)), a.min.z};
}

double BotGame::nextEvent(double now_s, double rate_hz) {
  if (rate_hz <= 0.0) return std::numeric_limits<double>::infinity();
  std::exponential_distribution<double> gap(rate_hz);
  return now_s + gap(rng_);
}

double BotGame::uniform(double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng_);
}

}  // namespace npc::bots
