#include "sim/simulation.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace npc {

namespace {

std::string entityLabel(EntityId id) { return "entity " + std::to_string(raw(id)); }

Status invalid(EntityId id, std::string_view field, std::string_view problem) {
  return {StatusCode::kInvalidArgument,
          entityLabel(id) + ": " + std::string(field) + " " + std::string(problem)};
}

// Checks the fields a client may send; returns the first problem.
Status validateState(const EntityState& s) {
  if (s.id == EntityId::kNone) return {StatusCode::kInvalidArgument, "entity id must not be 0"};
  if (s.position && !isFinite(*s.position)) return invalid(s.id, "position", "must be finite");
  if (s.forward && (!isFinite(*s.forward) || lengthSq(*s.forward) < 1e-12f)) {
    return invalid(s.id, "forward", "must be a finite, non-zero direction");
  }
  if (s.velocity && !isFinite(*s.velocity)) return invalid(s.id, "velocity", "must be finite");
  if (s.eye_height_m && !(std::isfinite(*s.eye_height_m) && *s.eye_height_m >= 0.f)) {
    return invalid(s.id, "eye_height", "must be finite and >= 0");
  }
  return {};
}

}  // namespace

Simulation::Simulation(const SimConfig& config, ArchetypeSet archetypes)
    : config_(config),
      archetypes_(std::move(archetypes)),
      world_(config.world),
      reflexes_(archetypes_, vocabulary_) {
  vocabulary_.intern(names_, archetypes_);
}

bool Simulation::submit(Command command) {
  std::lock_guard lock(queue_mutex_);
  if (queue_.size() >= config_.max_queued_commands) return false;
  queue_.push_back(std::move(command));
  return true;
}

bool Simulation::submit(std::vector<Command>& commands) {
  std::lock_guard lock(queue_mutex_);
  if (queue_.size() + commands.size() > config_.max_queued_commands) return false;
  for (Command& c : commands) queue_.push_back(std::move(c));
  commands.clear();
  return true;
}

size_t Simulation::queuedCommands() const {
  std::lock_guard lock(queue_mutex_);
  return queue_.size();
}

void Simulation::tick() {
  output_.clear();
  ++tick_;
  output_.tick = tick_;
  output_.sim_time_s = timeS();

  ingest();                       // 1. client updates, admin commands, action results
  world_.refreshSpatialIndex();   // 2. neighbour index reflects this tick's positions
  expireActions();                // 3. actions the game never reported on fail
  decide();                       // 4. idle agents choose their next action
}

void Simulation::ingest() {
  {
    std::lock_guard lock(queue_mutex_);
    applying_.swap(queue_);
  }
  for (Command& command : applying_) apply(command);
  totals_.commands_applied += applying_.size();
  applying_.clear();
}

void Simulation::apply(Command& command) {
  const ClientId origin = command.origin;
  const uint64_t seq = command.seq;
  auto report = [&](const Status& status, EntityId agent) {
    if (!status.isOk()) emitError(origin, seq, agent, status.message());
  };
  std::visit(
      [&](auto& c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, UpsertEntity>) {
          report(upsertEntity(c.state, origin, false), c.state.id);
        } else if constexpr (std::is_same_v<T, RemoveEntity>) {
          report(removeEntity(c.id, false), c.id);
        } else if constexpr (std::is_same_v<T, UpsertObstacle>) {
          if (c.obstacle.id == ObstacleId::kNone || !c.obstacle.box.isValid()) {
            report({StatusCode::kInvalidArgument, "obstacle " + std::to_string(raw(c.obstacle.id)) +
                                                      ": needs a non-zero id and min <= max"},
                   EntityId::kNone);
          } else {
            world_.upsertObstacle(c.obstacle);
          }
        } else if constexpr (std::is_same_v<T, RemoveObstacle>) {
          if (!world_.removeObstacle(c.id)) {
            report({StatusCode::kNotFound, "obstacle " + std::to_string(raw(c.id)) + ": unknown"},
                   EntityId::kNone);
          }
        } else if constexpr (std::is_same_v<T, SoundEvent> || std::is_same_v<T, SignalEvent>) {
          // Accepted; perception and selection trees consume stimuli once they run.
        } else if constexpr (std::is_same_v<T, ActionResult>) {
          report(applyActionResult(c), c.agent);
        } else if constexpr (std::is_same_v<T, SpawnAgent>) {
          Status s = c.state.kind == EntityKind::kNpc
                         ? upsertEntity(c.state, origin, true)
                         : Status{StatusCode::kInvalidArgument, "SpawnAgent: kind must be npc"};
          if (c.reply) c.reply(s);
        } else if constexpr (std::is_same_v<T, DespawnAgent>) {
          Status s = removeEntity(c.id, true);
          if (c.reply) c.reply(s);
        } else if constexpr (std::is_same_v<T, DescribeAgent>) {
          std::string json;
          Status s = describeAgent(c.id, json);
          if (c.reply) c.reply(s, json);
        } else if constexpr (std::is_same_v<T, ClientGone>) {
          releaseClient(origin);
        }
      },
      command.body);
}

Status Simulation::upsertEntity(const EntityState& s, ClientId origin, bool must_be_new) {
  if (Status v = validateState(s); !v.isOk()) return v;
  EntityTable& entities = world_.entities();
  EntityHandle handle = entities.find(s.id);
  const bool is_new = handle.isNull();
  if (!is_new && must_be_new) {
    return {StatusCode::kAlreadyExists, entityLabel(s.id) + ": already exists"};
  }
  if (!is_new && entities.get(handle)->kind != s.kind) {
    return invalid(s.id, "kind", "cannot change from " +
                                     std::string(toString(entities.get(handle)->kind)) + " to " +
                                     std::string(toString(s.kind)));
  }
  PlaceIndex place = PlaceIndex::kNone;
  if (!s.place.empty()) {
    place = world_.findPlace(s.place);
    if (place == PlaceIndex::kNone) return invalid(s.id, "place", "\"" + s.place + "\" is unknown");
  }
  uint16_t species = NameTable::kNone;
  std::optional<uint16_t> archetype;
  if (is_new) {
    if (!s.position) return invalid(s.id, "position", "is required for a new entity");
    if (s.kind == EntityKind::kNpc) {
      if (s.archetype.empty()) return invalid(s.id, "archetype", "is required for a new npc");
      archetype = archetypes_.find(s.archetype);
      if (!archetype) return invalid(s.id, "archetype", "\"" + s.archetype + "\" is unknown");
      if (agents_.size() >= config_.max_agents) {
        return {StatusCode::kResourceExhausted,
                entityLabel(s.id) + ": agent limit " + std::to_string(config_.max_agents) +
                    " reached"};
      }
    }
  }
  const std::string& species_name =
      !s.species.empty() ? s.species : (archetype ? archetypes_.at(*archetype).species : s.species);
  if (!species_name.empty()) {
    species = world_.species().intern(species_name);
    if (species == NameTable::kNone) return invalid(s.id, "species", "too many distinct species");
  }

  if (is_new) {
    handle = entities.insert(s.id);
    Entity* e = entities.get(handle);
    e->kind = s.kind;
    e->owner = origin;
  }
  Entity* e = entities.get(handle);
  if (species != NameTable::kNone) e->species = species;
  if (s.position) e->position = *s.position;
  if (s.forward) e->forward = *s.forward * (1.f / length(*s.forward));
  if (s.velocity) e->velocity = *s.velocity;
  if (s.eye_height_m) e->eye_height_m = *s.eye_height_m;
  if (s.active) e->active = *s.active;
  if (!s.place.empty()) {
    e->place = place;
    e->place_from_client = true;
  } else if (!e->place_from_client && (is_new || s.position)) {
    e->place = world_.placeAt(e->position);
  }
  if (s.position || is_new) world_.markMoved();

  if (archetype) {
    Agent* agent = agents_.get(agents_.insert(s.id));
    agent->entity = handle;
    agent->archetype = *archetype;
    agent->home = e->position;
    agent->rng = Rng::forStream(config_.seed, raw(s.id));
    emitEvent(EventKind::kAgentSpawned, s.id, e->place, archetypes_.at(*archetype).name);
  }
  return {};
}

Status Simulation::removeEntity(EntityId id, bool must_be_agent) {
  const bool was_agent = agents_.remove(id);
  if (must_be_agent && !was_agent) {
    return {StatusCode::kNotFound, entityLabel(id) + ": no such agent"};
  }
  const Entity* e = world_.entities().get(id);
  const PlaceIndex place = e ? e->place : PlaceIndex::kNone;
  if (!world_.entities().remove(id)) return {StatusCode::kNotFound, entityLabel(id) + ": unknown"};
  world_.markMoved();
  if (was_agent) emitEvent(EventKind::kAgentDespawned, id, place, {});
  return {};
}

Status Simulation::applyActionResult(const ActionResult& r) {
  Agent* agent = agents_.get(r.agent);
  if (!agent) {
    return {StatusCode::kNotFound, "action result: " + entityLabel(r.agent) + " is not an agent"};
  }
  if (r.intention == IntentionId::kNone || r.intention != agent->intention) {
    return {StatusCode::kFailedPrecondition,
            "action result: intention " + std::to_string(raw(r.intention)) +
                " is not running on agent " + std::to_string(raw(r.agent))};
  }
  switch (r.outcome) {
    case ActionOutcome::kProgress:
      if (!(std::isfinite(r.progress) && r.progress >= 0.f && r.progress <= 1.f)) {
        return {StatusCode::kInvalidArgument, "action result: progress must be within 0..1"};
      }
      agent->action_progress = r.progress;
      break;
    case ActionOutcome::kCompleted: endAction(*agent, true, {}); break;
    case ActionOutcome::kFailed: endAction(*agent, false, r.reason); break;
  }
  return {};
}

void Simulation::releaseClient(ClientId client) {
  for (Entity& e : world_.entities().rows()) {
    if (e.owner == client) e.owner = ClientId::kUnowned;
  }
}

void Simulation::endAction(Agent& agent, bool completed, const std::string& reason) {
  const Entity* e = world_.entities().get(agent.entity);
  emitEvent(completed ? EventKind::kIntentionCompleted : EventKind::kIntentionFailed, agent.id,
            e ? e->place : PlaceIndex::kNone, reason);
  if (completed) {
    ++agent.actions_completed;
    ++totals_.actions_completed;
  } else {
    ++agent.actions_failed;
    ++totals_.actions_failed;
  }
  reflexes_.onActionEnded(agent, timeS(), completed);
  agent.intention = IntentionId::kNone;
  agent.action = NameTable::kNone;
  agent.action_progress = 0.f;
}

void Simulation::expireActions() {
  const double now = timeS();
  for (Agent& agent : agents_.rows()) {
    if (agent.busy() && now >= agent.action_deadline_s) {
      endAction(agent, false, "no result from the game within the action timeout");
    }
  }
}

void Simulation::decide() {
  const double now = timeS();
  ActionOut out;
  for (Agent& agent : agents_.rows()) {
    const Entity* self = world_.entities().get(agent.entity);
    if (!self || !reflexes_.decide(agent, *self, world_, now, out)) continue;
    out.intention = static_cast<IntentionId>(next_intention_++);
    out.owner = self->owner;
    out.place = self->place;
    agent.intention = out.intention;
    agent.action = out.name;
    agent.action_started_s = now;
    agent.action_deadline_s = now + archetypes_.at(agent.archetype).action_timeout_s;
    output_.actions.push_back(out);
    ++totals_.actions_emitted;
  }
}

void Simulation::emitError(ClientId to, uint64_t seq, EntityId agent, std::string text) {
  ++totals_.errors;
  EventOut ev;
  ev.kind = EventKind::kError;
  ev.to = to;
  ev.agent = agent;
  ev.seq = seq;
  ev.text = std::move(text);
  output_.events.push_back(std::move(ev));
}

void Simulation::emitEvent(EventKind kind, EntityId agent, PlaceIndex place, std::string text) {
  EventOut ev;
  ev.kind = kind;
  ev.agent = agent;
  ev.place = place;
  ev.text = std::move(text);
  output_.events.push_back(std::move(ev));
}

SimStats Simulation::stats() const {
  SimStats s = totals_;
  s.tick = tick_;
  s.sim_time_s = timeS();
  s.entities = world_.entities().size();
  s.agents = agents_.size();
  s.agents_awake = agents_.size();
  s.agents_asleep = 0;
  s.places = world_.places().size();
  s.obstacles = world_.obstacles().size();
  return s;
}

Status Simulation::describeAgent(EntityId id, std::string& json_out) const {
  const Agent* agent = agents_.get(id);
  if (!agent) return {StatusCode::kNotFound, entityLabel(id) + ": no such agent"};
  const Entity* e = world_.entities().get(agent->entity);
  const double now = timeS();
  nlohmann::json j;
  j["id"] = raw(id);
  j["archetype"] = archetypes_.at(agent->archetype).name;
  j["species"] = world_.species().name(e->species);
  j["kind"] = toString(e->kind);
  j["active"] = e->active;
  const Place* place = world_.place(e->place);
  j["place"] = place ? nlohmann::json(place->name) : nlohmann::json(nullptr);
  j["owner"] = raw(e->owner);
  j["position"] = {e->position.x, e->position.y, e->position.z};
  j["forward"] = {e->forward.x, e->forward.y, e->forward.z};
  j["home"] = {agent->home.x, agent->home.y, agent->home.z};
  j["noticed"] = agent->noticed == EntityId::kNone ? nlohmann::json(nullptr)
                                                   : nlohmann::json(raw(agent->noticed));
  if (agent->busy()) {
    j["action"] = {{"intention", raw(agent->intention)},
                   {"name", names_.name(agent->action)},
                   {"running_s", now - agent->action_started_s},
                   {"timeout_in_s", agent->action_deadline_s - now},
                   {"progress", agent->action_progress}};
  } else {
    j["action"] = nullptr;
  }
  j["idle_for_s"] = std::max(0.0, agent->idle_until_s - now);
  j["actions_completed"] = agent->actions_completed;
  j["actions_failed"] = agent->actions_failed;
  j["tick"] = tick_;
  json_out = j.dump();
  return {};
}

}  // namespace npc
