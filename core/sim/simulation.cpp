#include "sim/simulation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "agent/archetype_change.h"
#include "base/worker_pool.h"
#include "intent/intent_debug.h"
#include "nav/nav_tile_cache.h"
#include "perception/perception_debug.h"
#include "sim/sim_mbt_host.h"
#include "sim/sim_messages.h"
#include "sim/sim_navigation.h"
#include "sim/sim_planner.h"

namespace npc {

Simulation::Simulation(const SimConfig& config, ArchetypeSet archetypes)
    : config_(config),
      archetypes_(std::move(archetypes)),
      world_(config.world),
      behaviors_(archetypes_, vocabulary_),
      registry_(names_),
      scheduler_(registry_, {&world_, nullptr}),
      perception_(config.perception, world_.species()),
      trees_(perception_.signalNames()),
      mbt_(perception_.signalNames(), names_),
      mbt_host_(std::make_unique<SimMbtHost>(*this)),
      planning_(std::make_unique<SimPlanning>()),
      places_(config.hibernation),
      custody_(config.leased_places),
      inbox_(config.max_queued_commands) {
  if (config_.threads > 1) pool_ = std::make_unique<WorkerPool>(config_.threads);
  // A game streaming in its NPCs would otherwise wait 0.3-0.7 s at each doubling of the
  // agent table past 65,536 agents (4 KiB rows), and every later tick run that late.
  agents_.reserveWhenLarge(4096, std::min<size_t>(config_.max_agents, size_t{1} << 20));
  vocabulary_.intern(names_, archetypes_);
  registerActions();
  setLongActions(LongActionLibrary{});
  for (size_t a = 0; a < archetypes_.size(); ++a) {
    const auto& defs = archetypes_.at(static_cast<uint16_t>(a)).behaviors;
    for (size_t d = 0; d < defs.size(); ++d) {
      for (const auto& [name, value] : defs[d].set_when_done) {
        done_assignments_.push_back({static_cast<uint16_t>(a), static_cast<uint8_t>(d),
                                     trees_.internVariable(name), value});
      }
    }
  }
}

Simulation::~Simulation() {
  // Trees leave cleanly (group scopes released) before the library goes.
  for (Agent& agent : agents_.rows()) leaveTree(agent);
}

void Simulation::setDefinitionSources(DefinitionSources sources) {
  definitions_ = std::make_unique<DefinitionSet>(std::move(sources));
}

DefinitionReport Simulation::loadDefinitions(DefinitionLoad how) {
  if (!definitions_) return {};
  return definitions_->load(*this, how);
}

namespace {

std::string archetypeLabel(const Archetype& a) {
  return (a.file.empty() ? std::string("archetypes") : a.file) + ": archetype \"" + a.name + "\"";
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace

DefinitionReport Simulation::reloadArchetypes(const ArchetypeSet& fresh) {
  DefinitionReport report;
  ArchetypeSet next;  // in the running order: agents address archetypes by index
  std::vector<std::string> changed(archetypes_.size());
  for (uint16_t i = 0; i < archetypes_.size(); ++i) {
    const Archetype& was = archetypes_.at(i);
    const std::optional<uint16_t> found = fresh.find(was.name);
    if (!found) {
      report.errors.push_back(archetypeLabel(was) + " is gone: removing an archetype takes a restart");
      continue;
    }
    const Archetype& now = fresh.at(*found);
    const ArchetypeChange change = compareArchetypes(was, now);
    if (!change.restart.empty()) {
      report.errors.push_back(archetypeLabel(now) + ": " + joined(change.restart) +
                              " changed: that takes a restart");
    }
    changed[i] = joined(change.live);
    next.add(now);
  }
  for (uint16_t i = 0; i < fresh.size(); ++i) {
    if (!archetypes_.find(fresh.at(i).name)) {
      report.errors.push_back(archetypeLabel(fresh.at(i)) + " is new: adding an archetype takes a restart");
    }
  }
  if (!report.ok()) {
    report.outcome("archetypes", false, "");
    return report;
  }
  // Awake agents take the new sensors now; sleepers take them from the archetype on waking.
  std::vector<size_t> awake(archetypes_.size(), 0);
  for (Agent& agent : agents_.rows()) {
    ++awake[agent.archetype];
    const SensorConfig& was = archetypes_.at(agent.archetype).sensors;
    const SensorConfig& now = next.at(agent.archetype).sensors;
    if (!(was == now)) agent.perception.sensors = retunedSensors(agent.perception.sensors, was, now);
  }
  std::string what;
  for (uint16_t i = 0; i < archetypes_.size(); ++i) {
    if (changed[i].empty()) continue;
    what += (what.empty() ? "" : "; ") + archetypes_.at(i).name + " (" + changed[i] + ", " +
            std::to_string(awake[i]) + " awake agents)";
  }
  archetypes_ = std::move(next);
  report.outcome("archetypes", true, what.empty() ? "no change" : what);
  return report;
}

DefinitionReport Simulation::loadSelectionTrees(const std::vector<BstSourceFile>& files) {
  const BstLoadReport r = finishTreeLoad(trees_.loadSources(files));
  DefinitionReport report;
  report.errors = r.errors;
  report.warnings = r.warnings;
  // The library swaps a set in when it has no errors, or on a first load with some trees.
  report.outcome("selection trees", r.ok() || r.trees > 0, std::to_string(r.trees) + " trees");
  report.selection_trees = trees_.treeCount();
  return report;
}

BstLoadReport Simulation::finishTreeLoad(BstLoadReport report) {
  for (size_t i = 0; i < archetypes_.size(); ++i) {
    const Archetype& type = archetypes_.at(static_cast<uint16_t>(i));
    if (type.selection_tree.empty()) continue;
    const SelectionTree* tree = trees_.tree(trees_.findTree(type.selection_tree));
    // A tree missing after a load with errors is most likely in the broken file, which
    // the report names already: one cause, one message.
    if (!tree && !report.ok()) continue;
    if (!tree) {
      report.errors.push_back("archetype \"" + type.name + "\": selection_tree \"" +
                              type.selection_tree + "\" is not loaded");
      continue;
    }
    for (const BstNode& node : tree->nodes) {
      if (node.kind != BstNodeKind::kLeaf || node.behavior == BehaviorId::kNone) continue;
      const std::string_view behavior = trees_.behaviorName(node.behavior);
      if (type.findBehavior(behavior) < 0) {
        report.warnings.push_back("archetype \"" + type.name + "\": behavior \"" +
                                  std::string(behavior) + "\" of tree \"" + tree->name +
                                  "\" is not in its behaviors (agents will face their target)");
      }
    }
  }
  for (Agent& agent : agents_.rows()) bindBehavior(agent);
  return report;
}

bool Simulation::submit(Command command) { return inbox_.push(std::move(command)); }

bool Simulation::submit(std::vector<Command>& commands) { return inbox_.push(commands); }

bool Simulation::submitExchanging(std::vector<Command>& commands,
                                  std::vector<CommandDigest>& digests) {
  return inbox_.pushExchanging(commands, digests);
}

size_t Simulation::queuedCommands() const { return inbox_.size(); }

void Simulation::tick() {
  output_.clear();
  ++tick_;
  output_.tick = tick_;
  output_.sim_time_s = timeS();

  planning_->budget = config_.max_plans_per_tick;  // trees' <Plan> (step 5) and step 6
  profile_.beginTick(tick_);      //    every phase timed (tick_profile.h)
  ingest();                       // 1. client updates, admin commands, action results
  profile_.enter(TickPhase::kPlaces);
  updateNavMesh();                //    obstacle changes rebuild navmesh tiles, on a budget
  searchLongPaths();              //    long MoveTo checks go on, a slice per tick
  expireEntities();               //    attributes whose lifetime ended vanish
  updatePlaces();                 // 2. quiet places sleep, woken ones settle (hibernation)
  world_.refreshSpatialIndex();   //    neighbour index reflects this tick's positions
  profile_.enter(TickPhase::kPerception);
  perceive();                     // 3. sight, hearing, signals; stealth meter (PerceptionPhase)
  profile_.enter(TickPhase::kSelection);
  select();                       // 4. signals set selection variables; trees pick behaviors
  profile_.enter(TickPhase::kBehavior);
  decide();                       // 5. behavior trees tick, idle agents' behaviors program
  profile_.enter(TickPhase::kPlanning);
  planning();                     // 6. planners choose goals, search, program plan steps
  profile_.enter(TickPhase::kScheduling);
  schedule();                     // 7. intentions start, run, time out; client actions out
  profile_.endTick();
}

void Simulation::ingest() {
  const std::span<CommandInbox::Batch> batches = inbox_.take();
  const bool coalescing = config_.coalesce_upserts;
  if (coalescing) {
    digests_.clear();
    for (const CommandInbox::Batch& batch : batches) digests_.emplace_back(batch.digests);
    coalescer_.plan(digests_, world_);
  }
  auto may_coalesce = [this](const UpsertCoalescer::Chain& chain) { return mayCoalesce(chain); };
  size_t at = 0;  // the command's index in the drain
  for (CommandInbox::Batch& batch : batches) {
    const std::span<Command> commands(batch.commands);
    for (size_t i = 0; i < commands.size(); ++i, ++at) {
      // Recorded one by one, each just before it applies (apply moves from it): a recorder
      // that looks the command's agent up sees the world the command meets (a skipped
      // upsert's entity is in the same place: recorders see places).
      if (coalescing && coalescer_.skip(at, may_coalesce)) {
        for (const CommandRecorder& record : recorders_) record(tick_, commands[i]);
        // Not read otherwise: its sender is noted when its chain's last upsert applies,
        // before any command that is not an upsert.
        ++totals_.upserts_coalesced;
        continue;
      }
      // Commands were written on the submitting threads' cores: each is a few lines to fetch
      // from another cache, so ask for those to apply a few commands ahead (base/prefetch.h).
      if (!coalescing || coalescer_.mayApply(at + kPrefetchRows)) prefetchRowAhead(commands, i);
      for (const CommandRecorder& record : recorders_) record(tick_, commands[i]);
      clients_.noteUsed(commands[i].origin);
      apply(commands[i]);
    }
  }
  totals_.commands_applied += at;
  inbox_.recycle();
}

bool Simulation::mayCoalesce(const UpsertCoalescer::Chain& chain) const {
  const Entity* e = world_.entities().get(chain.id);
  // Awake (a sleeping agent's updates go to its body), and each upsert would pass
  // checkOwner and upsertEntity's checks: no error is lost by skipping one.
  if (e == nullptr || !mayChange(*e, chain.origin) || e->kind != chain.entity_kind) return false;
  // (A visitor, a relayed player, is the sender's after its first update, and its last
  // makes it so as well.) Its place stays the one it is in, so no custody change, no
  // leaving; and it is not asleep, or a player's passing `active` might have woken it.
  if (places_.asleep(e->place)) return false;
  if (custody_.leased() && !custody_.held(e->place)) return false;
  if (!e->place_from_client && chain.moves_before_last &&
      (chain.places_differ || chain.place_before_last != e->place)) {
    return false;
  }
  return true;
}

void Simulation::apply(Command& command) {
  const ClientId origin = command.origin;
  const uint64_t seq = command.seq;
  auto report = [&](const Status& status, EntityId agent) {
    if (!status.isOk()) emitError(origin, seq, agent, status.message());
  };
  // A command with a reply answers there; one without (sent on a stream, or by the daemon
  // itself) still applies, and an error goes to its origin as an error event.
  auto answer = [&](auto& c, const Status& status, EntityId agent) {
    if (c.reply) {
      c.reply(status);
    } else {
      report(status, agent);
    }
  };
  std::visit(
      [&](auto& c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, UpsertEntity>) {
          const EntityHandle awake = world_.entities().find(c.state.id);
          Status s = checkOwner(c.state.id, awake, origin, "upserts", command.item);
          report(s.isOk() ? upsertEntity(c.state, origin, false, awake) : s, c.state.id);
        } else if constexpr (std::is_same_v<T, RemoveEntity>) {
          Status s = checkOwner(c.id, origin, "removals", command.item);
          report(s.isOk() ? removeEntity(c.id, false) : s, c.id);
        } else if constexpr (std::is_same_v<T, UpsertObstacle>) {
          if (c.obstacle.id == ObstacleId::kNone || !c.obstacle.box.isValid()) {
            report({StatusCode::kInvalidArgument, "obstacle " + std::to_string(raw(c.obstacle.id)) +
                                                      ": needs a non-zero id and min <= max"},
                   EntityId::kNone);
          } else {
            world_.upsertObstacle(c.obstacle);
            perception_.markObstaclesChanged();
            report(navigateObstacle(c.obstacle), EntityId::kNone);
          }
        } else if constexpr (std::is_same_v<T, RemoveObstacle>) {
          if (!world_.removeObstacle(c.id)) {
            report({StatusCode::kNotFound, "obstacle " + std::to_string(raw(c.id)) + ": unknown"},
                   EntityId::kNone);
          } else {
            perception_.markObstaclesChanged();
            navigateObstacleRemoval(c.id);
          }
        } else if constexpr (std::is_same_v<T, SoundEvent>) {
          report(addSound(c), EntityId::kNone);
        } else if constexpr (std::is_same_v<T, SignalEvent>) {
          Status s = postSignal(c);
          if (c.reply) {
            c.reply(s);
          } else {
            report(s, c.target);
          }
        } else if constexpr (std::is_same_v<T, SetSensors>) {
          answer(c, setSensors(c), c.agent);
        } else if constexpr (std::is_same_v<T, SetBehaviorVariable>) {
          answer(c, setBehaviorVariable(c), c.agent);
        } else if constexpr (std::is_same_v<T, RegisterVisibilityType>) {
          answer(c, registerVisibilityType(c), EntityId::kNone);
        } else if constexpr (std::is_same_v<T, SetPerceptionTuning>) {
          Status s = setPerceptionTuning(c);
          const PerceptionConfig& now = perception_.config();
          if (c.reply) {
            c.reply(s, {now.som_speed, now.decay_per_update, now.suspicious_threshold});
          } else {
            report(s, EntityId::kNone);
          }
        } else if constexpr (std::is_same_v<T, SetAttributePrincipal>) {
          answer(c, perception_.visibility().setPrincipal(world_, c.attribute, c.principal),
                 c.attribute);
        } else if constexpr (std::is_same_v<T, GetStealth>) {
          const Entity* player = world_.entities().get(c.player);
          if (!player || player->kind != EntityKind::kPlayer) {
            if (c.reply) {
              c.reply({StatusCode::kNotFound, entityLabel(c.player) + ": no such player"},
                      EntityId::kNone, 0.f);
            }
          } else if (c.reply) {
            const StealthReading r = perception_.stealth().reading(c.player);
            c.reply({}, r.agent, r.value);
          }
        } else if constexpr (std::is_same_v<T, ReloadDefinitions>) {
          if (!definitions_ || definitions_->sources().empty()) {
            if (c.reply) {
              c.reply({StatusCode::kFailedPrecondition, "no definitions directory configured"},
                      {});
            }
          } else {
            const DefinitionReport r = loadDefinitions(DefinitionLoad::kAll);
            const std::string text = r.text();
            if (c.reply) c.reply(r.ok() ? Status{} : Status{StatusCode::kInvalidArgument, text}, text);
          }
        } else if constexpr (std::is_same_v<T, ActionResult>) {
          report(applyActionResult(c, origin, command.item), c.agent);
        } else if constexpr (std::is_same_v<T, SpawnAgent>) {
          Status s = c.state.kind == EntityKind::kNpc
                         ? upsertEntity(c.state, origin, true)
                         : Status{StatusCode::kInvalidArgument, "SpawnAgent: kind must be npc"};
          if (c.reply) c.reply(s);
        } else if constexpr (std::is_same_v<T, DespawnAgent>) {
          Status s = checkOwner(c.id, origin, nullptr, 0);
          if (s.isOk()) s = removeEntity(c.id, true);
          if (c.reply) c.reply(s);
        } else if constexpr (std::is_same_v<T, DescribeAgent>) {
          std::string json;
          Status s = describeAgent(c.id, json);
          if (c.reply) c.reply(s, json);
        } else if constexpr (std::is_same_v<T, WakePlace>) {
          Status s = wakePlaceCommand(c);
          if (c.reply) c.reply(s);
        } else if constexpr (std::is_same_v<T, HoldPlace>) {
          Status s = holdPlaceCommand(c);
          if (c.reply) c.reply(s);
        } else if constexpr (std::is_same_v<T, NotePlaceHolder>) {
          report(notePlaceHolder(c), EntityId::kNone);
        } else if constexpr (std::is_same_v<T, HandOver>) {
          report(handOver(c), c.id);
        } else if constexpr (std::is_same_v<T, ProgramIntention> ||
                             std::is_same_v<T, GameAction>) {
          IntentionId id = IntentionId::kNone;
          Status s;
          if constexpr (std::is_same_v<T, ProgramIntention>) {
            s = programIntention(c, id);
          } else {
            s = checkOwner(c.agent, origin, "game_actions", command.item);
            if (s.isOk()) {
              s = locateArgumentError(gameAction(c, id), "game_actions", command.item, c.agent);
            }
          }
          if (c.reply) {
            c.reply(s, id);
          } else {
            report(s, c.agent);
          }
        } else if constexpr (std::is_same_v<T, ExternalAction> ||
                             std::is_same_v<T, CancelIntention> ||
                             std::is_same_v<T, AddInfluence> ||
                             std::is_same_v<T, RemoveInfluence> ||
                             std::is_same_v<T, SetPlannerValue>) {
          Status s;
          if constexpr (std::is_same_v<T, ExternalAction>) {
            s = externalAction(c);
          } else if constexpr (std::is_same_v<T, CancelIntention>) {
            s = cancelIntention(c);
          } else if constexpr (std::is_same_v<T, SetPlannerValue>) {
            s = setPlannerValue(c);
          } else {
            s = changeInfluence(c.agent, c.influence, std::is_same_v<T, AddInfluence>);
          }
          if (c.reply) {
            c.reply(s);
          } else {
            report(s, c.agent);
          }
        } else if constexpr (std::is_same_v<T, GetPlanTrace>) {
          std::string json;
          Status s = planTrace(c.agent, c.planner, c.trace, json);
          if (c.reply) c.reply(s, json);
        } else if constexpr (std::is_same_v<T, DescribeWorld>) {
          std::string json;
          Status s = describeWorld(c, json);
          if (c.reply) c.reply(s, json);
        } else if constexpr (std::is_same_v<T, ClientGone>) {
          releaseClient(origin, c.keeps_ownership);
        } else if constexpr (std::is_same_v<T, ClientBack>) {
          clientBack(origin);
        } else if constexpr (std::is_same_v<T, InterruptInFlight>) {
          interruptInFlight();
        } else if constexpr (std::is_same_v<T, BindClient>) {
          clients_.bind(c.name, origin);
        }
      },
      command.body);
}

Status Simulation::upsertEntity(const EntityState& s, ClientId origin, bool must_be_new,
                                EntityHandle handle) {
  if (Status v = validateState(s); !v.isOk()) return v;
  EntityTable& entities = world_.entities();
  if (s.relayed) {
    if (s.kind != EntityKind::kPlayer) return invalidField(s.id, "relayed", "is for players only");
    // The game sends this player here too: its own updates are fresher than a relay's.
    const Entity* current = entities.get(handle);
    if (current && current->kind == EntityKind::kPlayer && !isVisitor(*current)) return {};
  }
  // An entity is awake in the world or asleep with its place, never both.
  if (auto where = handle.isNull() ? findDormant(s.id) : std::nullopt) {
    if (must_be_new) return {StatusCode::kAlreadyExists, entityLabel(s.id) + ": already exists"};
    const Entity& body = dormant_[raw(where->first)][where->second].body;
    if (Status held = checkCustody(s, &body); !held.isOk()) return held;
    if (body.kind != s.kind) return invalidField(s.id, "kind", "cannot change while hibernating");
    PlaceIndex place = body.place;
    if (!s.place.empty()) {
      place = world_.findPlace(s.place);
      if (place == PlaceIndex::kNone) return invalidField(s.id, "place", "\"" + s.place + "\" is unknown");
    } else if (s.position && !body.place_from_client) {
      place = world_.placeAt(*s.position);
    }
    if (place == where->first) {
      // A sleeping agent's body follows the game's updates without waking its place.
      Entity& moved = dormant_[raw(where->first)].edit()[where->second].body;
      if (s.position) moved.position = *s.position;
      if (s.forward) moved.forward = *s.forward * (1.f / length(*s.forward));
      if (s.velocity) moved.velocity = *s.velocity;
      if (s.eye_height_m) moved.eye_height_m = *s.eye_height_m;
      if (s.active) moved.active = *s.active;
      return {};
    }
    // Moved to another place: its place wakes and the update applies to the awake agent.
    wakePlace(where->first, "an agent moved out");
    handle = entities.find(s.id);
  }
  const bool is_new = handle.isNull();
  if (!is_new && must_be_new) {
    return {StatusCode::kAlreadyExists, entityLabel(s.id) + ": already exists"};
  }
  if (Status held = checkCustody(s, entities.get(handle)); !held.isOk()) return held;
  if (!is_new && entities.get(handle)->kind != s.kind) {
    return invalidField(s.id, "kind", "cannot change from " +
                                     std::string(toString(entities.get(handle)->kind)) + " to " +
                                     std::string(toString(s.kind)));
  }
  PlaceIndex place = PlaceIndex::kNone;
  if (!s.place.empty()) {
    place = world_.findPlace(s.place);
    if (place == PlaceIndex::kNone) return invalidField(s.id, "place", "\"" + s.place + "\" is unknown");
  }
  if (s.lifetime_s && !(std::isfinite(*s.lifetime_s) && *s.lifetime_s > 0.f)) {
    return invalidField(s.id, "lifetime_s", "must be finite and > 0");
  }
  if (s.lifetime_s && s.kind != EntityKind::kAttribute) {
    return invalidField(s.id, "lifetime_s", "only attribute entities have a lifetime");
  }
  if (!s.group.empty() && s.kind != EntityKind::kNpc) {
    return invalidField(s.id, "group", "is for npcs only");
  }
  SpeciesId species = SpeciesId::kNone;
  std::optional<uint16_t> archetype;
  if (is_new) {
    if (!s.position) return invalidField(s.id, "position", "is required for a new entity");
    if (s.kind == EntityKind::kNpc) {
      if (s.archetype.empty()) return invalidField(s.id, "archetype", "is required for a new npc");
      archetype = archetypes_.find(s.archetype);
      if (!archetype) return invalidField(s.id, "archetype", "\"" + s.archetype + "\" is unknown");
      if (agents_.size() >= config_.max_agents) {
        return {StatusCode::kResourceExhausted,
                entityLabel(s.id) + ": agent limit " + std::to_string(config_.max_agents) +
                    " reached"};
      }
    }
  }
  GroupNumber group = GroupNumber::kNone;
  if (archetype) {
    const std::string& name = s.group.empty() ? archetypes_.at(*archetype).name : s.group;
    const GroupNameId at = groups_.intern(name);
    if (raw(at) >= 0xfffe) return invalidField(s.id, "group", "too many distinct groups");
    group = groupNumber(at);
  } else if (!s.group.empty()) {
    const Agent* agent = agents_.get(s.id);
    if (agent && groupName(agent->perception.group) != s.group) {
      return invalidField(s.id, "group",
                     "is set when the npc spawns (it is in \"" + groupName(agent->perception.group) + "\")");
    }
  }
  const std::string& species_name =
      !s.species.empty() ? s.species : (archetype ? archetypes_.at(*archetype).species : s.species);
  if (!species_name.empty()) {
    species = world_.species().intern(species_name);
    if (species == SpeciesId::kNone) return invalidField(s.id, "species", "too many distinct species");
  }

  if (is_new) {
    handle = entities.insert(s.id);
    Entity* e = entities.get(handle);
    e->kind = s.kind;
    e->owner = origin;
  }
  Entity* e = entities.get(handle);
  if (species != SpeciesId::kNone) e->species = species;
  if (s.position) e->position = *s.position;
  if (s.forward) e->forward = *s.forward * (1.f / length(*s.forward));
  if (s.velocity) e->velocity = *s.velocity;
  if (s.eye_height_m) e->eye_height_m = *s.eye_height_m;
  if (s.active) e->active = *s.active;
  if (s.takeable) e->takeable = *s.takeable;
  if (s.lifetime_s) {
    e->expires_s = timeS() + *s.lifetime_s;
    noteLifetime(*e);
  }
  if (s.relayed) {
    if (is_new) e->owner = ClientId::kUnowned;  // so that the game may take it over
    e->expires_s = timeS() + kVisitorLifetimeS;
    noteLifetime(*e);
  } else if (isVisitor(*e)) {
    // The game sends it here now: it stays, and is the sender's (when a client sent it).
    e->expires_s = std::numeric_limits<double>::infinity();
    if (origin != ClientId::kDaemon) e->owner = origin;
  }
  if (!s.place.empty()) {
    e->place = place;
    e->place_from_client = true;
  } else if (!e->place_from_client && (is_new || s.position)) {
    e->place = world_.placeAt(e->position);
  }
  if (!is_new) noteLeaving(*e);
  if (s.position || is_new) world_.markMoved();
  if (e->kind == EntityKind::kPlayer && e->active && places_.asleep(e->place)) {
    wakePlace(e->place, "a player entered");
  }

  if (archetype) {
    Agent* agent = agents_.get(agents_.insert(s.id));
    const Archetype& type = archetypes_.at(*archetype);
    agent->entity = handle;
    agent->archetype = *archetype;
    agent->home = e->position;
    agent->rng = Rng::forStream(config_.seed, raw(s.id));
    initPerceptionState(agent->perception, type.sensors, s.id, config_.seed);
    agent->intent.access.setOwn(own_actions_[*archetype]);
    // Its signal group: MBT group signals, GroupScope counts, squad planner memory.
    agent->perception.group = group;
    for (const auto& [item, count] : type.inventory) {
      agent->inventory.add(long_actions_.items().intern(item), count);
    }
    attachPlanner(*agent);
    bindBehavior(*agent);
    emitEvent(EventKind::kAgentSpawned, s.id, e->place, type.name);
  }
  return {};
}

Status Simulation::removeEntity(EntityId id, bool must_be_agent, bool announce) {
  if (auto where = findDormant(id)) {
    auto& list = dormant_[raw(where->first)].edit();
    list.erase(list.begin() + static_cast<ptrdiff_t>(where->second));
    dormant_index_.erase(std::lower_bound(dormant_index_.begin(), dormant_index_.end(),
                                          std::make_pair(raw(id), PlaceIndex{})));
    --dormant_count_;
    forgetSleepingPlanner(where->first, id);
    if (announce) emitEvent(EventKind::kAgentDespawned, id, where->first, {});
    return {};
  }
  const bool was_agent = agents_.remove(id);
  if (was_agent) detachPlanner(id);
  if (must_be_agent && !was_agent) {
    return {StatusCode::kNotFound, entityLabel(id) + ": no such agent"};
  }
  const Entity* e = world_.entities().get(id);
  const PlaceIndex place = e ? e->place : PlaceIndex::kNone;
  if (!world_.entities().remove(id)) return {StatusCode::kNotFound, entityLabel(id) + ": unknown"};
  perception_.visibility().forgetEntity(id);
  world_.markMoved();
  if (was_agent && announce) emitEvent(EventKind::kAgentDespawned, id, place, {});
  return {};
}

void Simulation::perceive() {
  detail_.update(world_, agents_.rows(), tick_, config_.detail);
  relayPlayers();
  perception_phase_.run({world_, agents_.rows(), detail_.runsByRow(), perception_, places_, tick_,
                         timeS(), config_.derive_footsteps, pool_.get(), signals_,
                         output_.events});
}

void Simulation::select() {
  totals_.signals_delivered += signals_.size();
  const std::span<Agent> agents = agents_.rows();
  // Behavior trees get signals as events before ticking.
  for (const BehaviorChange& change :
       selection_phase_.run({agents_, detail_.runsByRow(), trees_, profile_, pool_.get(),
                             signals_.signals(),
                             [this](Agent& agent, const Signal& signal) { treeEvent(agent, signal); }})) {
    Agent& agent = agents[change.row];
    const BehaviorSelection& selection = change.selection;
    profile_.atAgent(agent.id);
    std::string text = output_.takeText();
    text.append(trees_.behaviorName(selection.previous))
        .append(" -> ")
        .append(trees_.behaviorName(selection.current));
    emitEvent(EventKind::kBehavior, agent.id,
              world_.entities().get(agent.entity) ? world_.entities().get(agent.entity)->place
                                                  : PlaceIndex::kNone,
              std::move(text));
    enterBehavior(agent, selection.current);
  }
}

void Simulation::decide() {
  const unsigned workers = pool_ ? pool_->size() : 1u;
  if (worker_trees_.size() < workers) {
    behavior_phase_.reserveWorkers(workers, registry_, event_storage_.size());
    mbt_.reserveWorkspaces(workers);
    while (worker_trees_.size() < workers) {
      const auto w = static_cast<unsigned>(worker_trees_.size());
      worker_trees_.push_back(std::make_unique<SimMbtHost>(*this, &behavior_phase_.outbox(w), w));
    }
  }
  if (navigation_) navigation_->reserveWorkers(workers);  // rebuilt with every new mesh
  const TreeContext intentions = treeContext();
  behavior_phase_.run({agents_.rows(), detail_.runsByRow(), world_, places_, archetypes_, behaviors_,
                       *mbt_host_, worker_trees_, intentions, profile_, pool_.get(),
                       agents_.layoutVersion(), tick_, timeS(),
                       [this](ClientId owner, EntityId agent, std::string text) {
                         emitError(owner, 0, agent, std::move(text));
                       },
                       [this](const SignalRequest& signal) { perception_.postSignal(signal); },
                       [this](const MbtLogMessage& message) { tree_log_(message); }});
}

void Simulation::bindBehavior(Agent& agent) {
  const Archetype& type = archetypes_.at(agent.archetype);
  if (!type.selection_tree.empty()) {
    // An agent already on a tree keeps it: reloads migrate its variables lazily.
    const SelectionTreeId tree = trees_.findTree(type.selection_tree);
    if (agent.bst.tree == SelectionTreeId::kNone && tree != SelectionTreeId::kNone) {
      trees_.bind(agent.bst, tree);
    }
    return;
  }
  enterBehaviorDef(agent, type.findBehavior(type.behavior));
}

void Simulation::enterBehavior(Agent& agent, BehaviorId behavior) {
  // Leaving the old behavior needs nothing yet: built-in behaviors keep no resources. Its
  // running action finishes (interrupting it is the intention queue's job).
  enterBehaviorDef(agent, behavior == BehaviorId::kNone
                              ? -1
                              : archetypes_.at(agent.archetype)
                                    .findBehavior(trees_.behaviorName(behavior)));
  ++totals_.behavior_changes;
}

void Simulation::enterBehaviorDef(Agent& agent, int def) {
  leaveTree(agent);  // the old behavior's tree exits: its running actions are cancelled
  dropIntentions(agent);  // and so are whatever the old behavior had programmed
  resetPlanner(agent);    // its plan was the old behavior's
  agent.behavior_def = def < 0 ? Agent::kNoBehaviorDef : static_cast<uint8_t>(def);
  behaviors_.onBehaviorEntered(agent);
  bindTree(agent);
  // A long_action behavior starts (or carries on with) its long action; leaving it settles.
  const uint16_t work =
      def < 0 ? LongActionRun::kNone : behavior_long_action_[agent.archetype][static_cast<size_t>(def)];
  if (work != LongActionRun::kNone) {
    startWork(agent, work, false);
  } else if (agent.work.running()) {
    stopWork(agent, nullptr);
  }
}

void Simulation::dropIntentions(Agent& agent) {
  if (agent.intent.queue.empty()) return;
  const TreeContext ctx = treeContext();
  DecisionTree tree(agent.intent.queue, agent.id, ctx);
  // Collect first: cancelling and deprogramming reshape the queue.
  IntentionId ids[IntentionQueue::kCapacity];
  size_t n = 0;
  tree.iterateOnIntentions([&](const Intention& in) { ids[n++] = in.id; });
  for (size_t i = 0; i < n; ++i) {
    if (tree.cancel(ids[i]) != IntentStatus::kOk) tree.deprogram(ids[i]);
  }
  flushIntentions();
}

Status Simulation::addSound(const SoundEvent& c) {
  Sound sound;
  sound.position = c.position;
  sound.radius_m = c.radius_m;
  sound.source = c.source;
  sound.threat = c.threat;
  if (!c.kind.empty()) {
    auto kind = parseSoundKind(c.kind);
    if (!kind) {
      return {StatusCode::kInvalidArgument, "sound: \"" + c.kind + "\" is not a sound kind"};
    }
    sound.kind = *kind;
  }
  if (!isFinite(c.position) || !(std::isfinite(c.radius_m) && c.radius_m > 0.f)) {
    return {StatusCode::kInvalidArgument, "sound: needs a finite position and a radius > 0"};
  }
  if (c.threat > 1.f || std::isnan(c.threat)) {
    return {StatusCode::kInvalidArgument, "sound: threat must be within 0..1"};
  }
  wakePlacesReachedBy(sound.position, sound.radius_m, "a sound");
  if (!perception_.addSound(sound)) {
    return {StatusCode::kResourceExhausted, "sound: too many sounds this tick"};
  }
  if (!c.relayed) noteCrossing(sound);
  return {};
}

Status Simulation::postSignal(const SignalEvent& c) {
  SignalRequest request;
  request.id = perception_.signalNames().intern(c.name);
  if (request.id == SignalId::kNone) {
    return {StatusCode::kInvalidArgument, "signal: needs a name (or too many distinct names)"};
  }
  request.sender = c.sender;
  request.position = c.position;
  request.value = c.value;
  request.subject = c.subject;
  if (!c.action.empty()) request.action = names_.intern(c.action);
  if (c.target != EntityId::kNone) {
    wakeAgentPlace(c.target, "a signal");
    if (!agents_.get(c.target)) {
      return {StatusCode::kNotFound, "signal " + c.name + ": " + entityLabel(c.target) +
                                         " is not an agent"};
    }
    request.scope = SignalScope::kAgent;
    request.target = c.target;
  } else if (!c.place.empty()) {
    request.scope = SignalScope::kPlace;
    request.place = world_.findPlace(c.place);
    if (request.place == PlaceIndex::kNone) {
      return {StatusCode::kNotFound, "signal " + c.name + ": place \"" + c.place + "\" is unknown"};
    }
    if (places_.asleep(request.place)) wakePlace(request.place, "a signal");
    noteCrossing(c);
  } else if (!c.species.empty()) {
    request.scope = SignalScope::kSpecies;
    request.species = world_.species().find(c.species);
    if (request.species == SpeciesId::kNone) {
      return {StatusCode::kNotFound,
              "signal " + c.name + ": species \"" + c.species + "\" is unknown"};
    }
  } else if (c.group != GroupNumber::kNone) {
    request.scope = SignalScope::kGroup;
    request.group = c.group;
  } else if (!c.group_name.empty()) {
    request.scope = SignalScope::kGroup;
    const GroupNameId at = groups_.find(c.group_name);
    if (at == GroupNameId::kNone) {
      return {StatusCode::kNotFound,
              "signal " + c.name + ": group \"" + c.group_name + "\" is unknown"};
    }
    request.group = groupNumber(at);
  } else if (c.radius_m > 0.f && std::isfinite(c.radius_m) && isFinite(c.position)) {
    request.scope = SignalScope::kRadius;
    request.radius_m = c.radius_m;
    wakePlacesReachedBy(c.position, c.radius_m, "a signal");
    noteCrossing(c);
  } else {
    return {StatusCode::kInvalidArgument,
            "signal " + c.name + ": needs a target, place, species, group or radius"};
  }
  if (!perception_.postSignal(request)) {
    return {StatusCode::kResourceExhausted, "signal " + c.name + ": too many signals this tick"};
  }
  return {};
}

Status Simulation::setSensors(const SetSensors& c) {
  Agent* agent = agents_.get(c.agent);
  if (!agent) return noAwakeAgent(c.agent, findDormant(c.agent).has_value());
  SensorConfig sensors = agent->perception.sensors;
  if (c.vision) sensors.vision = *c.vision;
  if (c.hearing) sensors.hearing = *c.hearing;
  if (c.signals) sensors.signals = *c.signals;
  if (c.sight_range_m) sensors.sight_range_m = *c.sight_range_m;
  if (c.fov_deg) sensors.fov_deg = *c.fov_deg;
  if (c.hearing_scale) sensors.hearing_scale = *c.hearing_scale;
  if (!(std::isfinite(sensors.sight_range_m) && sensors.sight_range_m >= 0.f)) {
    return {StatusCode::kInvalidArgument, "sensors: sight_range must be finite and >= 0"};
  }
  if (!(sensors.fov_deg > 0.f && sensors.fov_deg <= 360.f)) {
    return {StatusCode::kInvalidArgument, "sensors: fov_deg must be within (0, 360]"};
  }
  if (!(std::isfinite(sensors.hearing_scale) && sensors.hearing_scale >= 0.f)) {
    return {StatusCode::kInvalidArgument, "sensors: hearing_scale must be finite and >= 0"};
  }
  agent->perception.sensors = sensors;
  return {};
}

Status Simulation::setBehaviorVariable(const SetBehaviorVariable& c) {
  Agent* agent = agents_.get(c.agent);
  if (!agent) return noAwakeAgent(c.agent, findDormant(c.agent).has_value());
  if (agent->bst.tree == SelectionTreeId::kNone) {
    return {StatusCode::kFailedPrecondition, entityLabel(c.agent) + " has no selection tree"};
  }
  return trees_.setVariable(agent->bst, c.name, c.value);
}

Status Simulation::setPerceptionTuning(const SetPerceptionTuning& c) {
  auto bad = [](const char* field, const char* rule) {
    return Status{StatusCode::kInvalidArgument,
                  std::string("perception tuning: ") + field + " must be " + rule};
  };
  if (c.som_speed && !(std::isfinite(*c.som_speed) && *c.som_speed > 0.f)) {
    return bad("som_speed", "finite and > 0");
  }
  if (c.decay_per_update && !(std::isfinite(*c.decay_per_update) && *c.decay_per_update >= 0.f)) {
    return bad("decay_per_update", "finite and >= 0");
  }
  if (c.suspicious_threshold &&
      !(*c.suspicious_threshold > 0.f && *c.suspicious_threshold <= kMaxCoefficient)) {
    return bad("suspicious_threshold", "within (0, 10]");
  }
  if (c.som_speed) perception_.setSomSpeed(*c.som_speed);
  if (c.decay_per_update) perception_.setDecayPerUpdate(*c.decay_per_update);
  if (c.suspicious_threshold) perception_.setSuspiciousThreshold(*c.suspicious_threshold);
  return {};
}

Status Simulation::registerVisibilityType(const RegisterVisibilityType& c) {
  if (c.type.empty()) return {StatusCode::kInvalidArgument, "visibility type: needs a name"};
  if (c.remove) {
    const SpeciesId type = world_.species().find(c.type);
    if (type == SpeciesId::kNone || !perception_.visibility().unregisterType(type)) {
      return {StatusCode::kNotFound, "visibility type \"" + c.type + "\" is not registered"};
    }
    return {};
  }
  if (!(c.multiplier > 0.f && std::isfinite(c.multiplier))) {
    return {StatusCode::kInvalidArgument, "visibility type: multiplier must be > 0"};
  }
  const SpeciesId type = world_.species().intern(c.type);
  if (type == SpeciesId::kNone) {
    return {StatusCode::kResourceExhausted, "visibility type: too many distinct species"};
  }
  perception_.visibility().registerType(type, {c.multiplier, c.use_coefficient, c.neutral});
  return {};
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
  s.agents = agents_.size() + dormant_count_;
  s.agents_awake = agents_.size();
  s.agents_reduced = detail_.reduced();
  s.agents_asleep = dormant_count_;
  s.places = world_.places().size();
  s.places_asleep = places_.count(PlaceState::kAsleep);
  s.places_awake = s.places - s.places_asleep;
  s.places_held = custody_.leased() ? custody_.heldCount() : s.places;
  s.obstacles = world_.obstacles().size();
  s.perception_rays = perception_.totals().rays;
  s.perception_full_updates = perception_.totals().full_updates;
  if (navigation_) {
    s.nav_tile_rebuilds = navigation_->tile_rebuilds;
    if (const nav::NavTileCache* cache = navigation_->mesh.tileCache())
      s.nav_obstacle_changes_waiting = cache->queuedChanges();
    s.nav_obstacle_changes_ignored = navigation_->ignored_obstacle_changes;
    s.nav_long_searches_waiting = navigation_->long_searches.size();
    s.nav_long_searches_done = navigation_->long_searches_done;
    s.nav_long_searches_refused = navigation_->long_searches_refused;
  }
  return s;
}

namespace {

nlohmann::json inventoryJson(const Inventory& inventory, const LongActionLibrary& lib) {
  nlohmann::json j = nlohmann::json::object();
  for (uint8_t i = 0; i < inventory.size(); ++i) {
    j[lib.items().name(inventory.itemAt(i))] = inventory.countAt(i);
  }
  return j;
}

// The influences an agent is under, in lookup order (priority first).
nlohmann::json influencesJson(const ActionAccess& access, const ActionRegistry& registry) {
  nlohmann::json j = nlohmann::json::array();
  for (ActionListId list : access.influences()) {
    j.push_back({{"name", registry.listName(list)}, {"priority", registry.priority(list)}});
  }
  return j;
}

nlohmann::json workJson(const LongActionRun& run, bool for_hibernation,
                        const LongActionLibrary& lib, double now) {
  if (!run.running()) return nullptr;
  return {{"action", lib.at(run.action).name},
          {"for_hibernation", for_hibernation},
          {"turns_settled", run.turns_done},
          {"turns_pending", lib.turnsBy(run, now) - run.turns_done}};
}

}  // namespace

Status Simulation::describeAgent(EntityId id, std::string& json_out) const {
  const Agent* agent = agents_.get(id);
  if (!agent) {
    const auto where = findDormant(id);
    if (!where) return {StatusCode::kNotFound, entityLabel(id) + ": no such agent"};
    const DormantAgent& d = dormant_[raw(where->first)][where->second];
    nlohmann::json j;
    j["id"] = raw(id);
    j["archetype"] = archetypes_.at(d.archetype).name;
    j["group"] = groupName(d.group);
    j["group_number"] = raw(d.group);
    j["asleep"] = true;
    j["place"] = world_.place(where->first)->name;
    j["asleep_for_s"] = timeS() - places_.asleepSince(where->first);
    j["position"] = {d.body.position.x, d.body.position.y, d.body.position.z};
    j["work"] = workJson(d.work, d.work_is_hibernation, long_actions_, timeS());
    j["inventory"] = inventoryJson(d.inventory, long_actions_);
    j["influences"] = influencesJson(d.actions, registry_);
    j["selection"] = trees_.describe(d.bst);
    j["tick"] = tick_;
    json_out = j.dump();
    return {};
  }
  const Entity* e = world_.entities().get(agent->entity);
  const double now = timeS();
  nlohmann::json j;
  j["id"] = raw(id);
  j["archetype"] = archetypes_.at(agent->archetype).name;
  j["group"] = groupName(agent->perception.group);
  j["group_number"] = raw(agent->perception.group);
  j["species"] = world_.species().name(e->species);
  j["kind"] = toString(e->kind);
  j["active"] = e->active;
  const Place* place = world_.place(e->place);
  j["place"] = place ? nlohmann::json(place->name) : nlohmann::json(nullptr);
  j["owner"] = raw(e->owner);
  j["position"] = {e->position.x, e->position.y, e->position.z};
  j["forward"] = {e->forward.x, e->forward.y, e->forward.z};
  j["home"] = {agent->home.x, agent->home.y, agent->home.z};
  j["intentions"] = describe(agent->intent, registry_, now);
  j["idle_for_s"] = std::max(0.0, agent->idle_until_s - now);
  const Archetype& type = archetypes_.at(agent->archetype);
  if (agent->behavior_def == Agent::kNoBehaviorDef) {
    j["behavior"] = {{"name", trees_.behaviorName(agent->bst.behavior)}, {"mode", "face_target"}};
  } else {
    const BehaviorDef& def = type.behaviors[agent->behavior_def];
    if (def.tree.empty()) {
      j["behavior"] = {{"name", def.name}, {"mode", toString(def.mode)}};
    } else {
      j["behavior"] = {{"name", def.name}, {"tree", def.tree}};
      j["mbt"] = mbt_.describe(agent->mbt, now);
    }
  }
  j["selection"] = trees_.describe(agent->bst);
  j["asleep"] = false;
  j["work"] = workJson(agent->work, agent->work_is_hibernation, long_actions_, now);
  j["inventory"] = inventoryJson(agent->inventory, long_actions_);
  j["influences"] = influencesJson(agent->intent.access, registry_);
  j["perception"] = describePerception(agent->perception, now);
  describePlanner(*agent, j);
  describeNavigation(*agent, j);
  j["actions_completed"] = agent->actions_completed;
  j["actions_failed"] = agent->actions_failed;
  j["tick"] = tick_;
  json_out = j.dump();
  return {};
}

}  // namespace npc
