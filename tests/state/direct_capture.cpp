// The snapshot capture as it was before the tick thread only copied (state/sim_state_copy.h):
// the messages built straight from the simulation, kept frozen here as the reference the
// copy-then-build path must match byte for byte (sim_state_copy_test.cpp).
#include "direct_capture.h"

#include <optional>
#include <string>
#include <type_traits>

#include "agent/archetype.h"
#include "goap_codec.h"
#include "hibernation_codec.h"
#include "hibernation/long_action.h"
#include "mbt_codec.h"
#include "mbt/tree.h"
#include "perception/perception_system.h"
#include "perception_codec.h"
#include "sim/simulation.h"
#include "world/world.h"
#include "world_codec.h"
#include "zero_runs.h"

namespace npc::direct {

namespace {

void encodeEntity(const Entity& e, const NameTable<SpeciesId>& species, pb::EntityState& out) {
  out.set_id(raw(e.id));
  out.set_kind(static_cast<uint32_t>(e.kind));
  if (e.species != SpeciesId::kNone) out.set_species(species.name(e.species));
  out.set_place(raw(e.place));
  out.set_active(e.active);
  out.set_place_from_client(e.place_from_client);
  out.set_owner(static_cast<uint32_t>(e.owner));
  encodeVec3(e.position, *out.mutable_position());
  encodeVec3(e.forward, *out.mutable_forward());
  encodeVec3(e.velocity, *out.mutable_velocity());
  out.set_eye_height_m(e.eye_height_m);
  out.set_takeable(e.takeable);
  out.set_expires_s(e.expires_s);
}

void encodeWorld(const SimStateAccess& access, pb::WorldState& out) {
  const World& world = access.world();
  for (const Entity& e : world.entities().rows()) {
    if (e.kind == EntityKind::kNpc) continue;  // agents carry their body (AgentState)
    encodeEntity(e, world.species(), *out.add_entities());
  }
  for (const Obstacle& o : world.obstacles()) {
    pb::ObstacleState& s = *out.add_obstacles();
    s.set_id(raw(o.id));
    encodeVec3(o.box.min, *s.mutable_min());
    encodeVec3(o.box.max, *s.mutable_max());
    s.set_cover(static_cast<uint32_t>(o.cover));
  }
  out.set_next_dropped_object(access.nextDroppedObject());
  std::vector<nav::NavObstacleChange> held, queued;
  if (access.navObstacles(held, queued)) encodeNavObstacles(held, queued, *out.mutable_navmesh());
  std::vector<nav::SlicedPathRequest> waiting;
  int open_iterations = 0;
  access.navLongSearches(waiting, open_iterations);
  if (!waiting.empty()) encodeNavLongSearches(waiting, open_iterations, *out.mutable_long_searches());
}

void encodeBst(const BstAgentState& s, uint8_t behavior_def, const SelectionTreeLibrary& trees,
               pb::BstState& out) {
  for (uint64_t word : s.values.words) out.add_variables(word);
  out.set_tree(raw(s.tree));
  out.set_behavior(raw(s.behavior));
  out.set_leaf(raw(s.leaf));
  out.set_dirty(s.dirty);
  out.set_behavior_name(std::string(trees.behaviorName(s.behavior)));
  out.set_behavior_def(behavior_def);
}

void encodeMbt(const MbtInstance& instance, bool runs, pb::MbtState& out) {
  if (!runs || !instance.bound()) return;
  out.set_tree(instance.tree()->name());
  for (uint64_t word : instance.variables().words) out.add_variables(word);
  for (size_t i = 0; i < instance.tree()->timestamps().size(); ++i) {
    const MbtTimestamp& t = instance.timestamp(i);
    pb::MbtTimestampState& o = *out.add_timestamps();
    o.set_time_s(t.time_s);
    o.set_valid(t.valid);
    o.set_ever_set(t.ever_set);
  }
  out.set_stopped(instance.stopped());
  MbtInstance::RunImage image;
  instance.captureRun(image);
  pb::MbtRunState& run = *out.mutable_run();
  run.set_rng_state(image.rng_state);
  for (const Vec3& r : image.registers) {
    run.add_registers(r.x);
    run.add_registers(r.y);
    run.add_registers(r.z);
  }
  run.set_registers_set(image.registers_set);
  run.set_changed(image.changed);
  run.set_changed_before_tick(image.changed_before_tick);
  run.set_root_finishes(image.root_finishes);
  for (const MbtInstance::RunImage::Running& r : image.running) {
    pb::MbtRunningNode& node = *run.add_running();
    node.set_slot(r.slot);
    node.set_node(r.node);
    node.set_data(r.data);
  }
  LuaEnvImage lua;
  if (instance.saveLua(lua)) npc::encodeLua(lua, *out.mutable_lua());
}

void encodeIntent(const Agent& agent, const NameTable<ActionNameId>& actions,
                  pb::IntentState& out) {
  for (ActionListId list : agent.intent.access.influences()) {
    out.add_influences(static_cast<uint32_t>(list));
  }
  const IntentionQueue& queue = agent.intent.queue;
  for (uint8_t i = 0; i < queue.size(); ++i) {
    const Intention& in = queue.at(i);
    pb::IntentionState& o = *out.add_queue();
    o.set_id(raw(in.id));
    o.set_action(actions.name(in.action));
    o.set_started(in.started());
    o.set_date_s(in.date_s);
    o.set_started_s(in.started_s);
    o.set_flags(in.flags);
    o.set_progress(in.progress);
  }
  out.set_actions_completed(agent.actions_completed);
  out.set_actions_failed(agent.actions_failed);
  static_assert(std::is_trivially_copyable_v<IntentionQueue>, "the queue is copied as bytes");
  pb::IntentRunState& run = *out.mutable_run();
  static const std::string fresh = freshBytes<IntentionQueue>();
  run.set_queue(packAgainst({reinterpret_cast<const char*>(&queue), sizeof queue}, fresh));
  run.set_access_version(agent.intent.access.version());
  run.set_access_refused(agent.intent.access.refused());
  for (const Agent::Outcome& o : agent.recent_outcomes) {
    pb::IntentionOutcome& e = *run.add_recent_outcomes();
    e.set_intention(raw(o.intention));
    if (o.handle != o.intention) e.set_handle(raw(o.handle));
    e.set_succeeded(o.succeeded);
  }
  run.set_next_outcome(agent.next_outcome);
  for (const Agent::SentAction& a : agent.sent_actions) {
    pb::SentAction& e = *run.add_sent_actions();
    e.set_intention(raw(a.intention));
    e.set_to(static_cast<uint32_t>(a.to));
  }
  run.set_next_sent(agent.next_sent);
}

void encodeInventory(const Inventory& inventory, const LongActionLibrary& library,
                     pb::InventoryState& out) {
  for (uint8_t slot = 0; slot < inventory.size(); ++slot) {
    pb::ItemCount& item = *out.add_items();
    item.set_item(library.items().name(inventory.itemAt(slot)));
    item.set_count(inventory.countAt(slot));
  }
}

void encodeLongAction(const LongActionRun& run, bool for_hibernation,
                      const LongActionLibrary& library, pb::LongActionState& out) {
  if (!run.running()) return;
  out.set_action(library.at(run.action).name);
  out.set_started_s(run.started_s);
  out.set_turns_done(run.turns_done);
  out.set_for_hibernation(for_hibernation);
}

void encodeHibernation(const SimStateAccess& access, pb::HibernationState& out) {
  const World& world = access.world();
  const PlaceDispatcher& places = access.places();
  for (size_t i = 0; i < places.size(); ++i) {
    const auto p = static_cast<PlaceIndex>(i);
    pb::PlaceState& o = *out.add_places();
    o.set_index(static_cast<uint32_t>(i));
    if (const Place* place = world.place(p)) o.set_name(place->name);
    o.set_state(static_cast<uint32_t>(places.state(p)));
    o.set_last_activity_s(places.lastActivity(p));
    o.set_asleep_since_s(places.asleepSince(p));
    o.set_wake_at_s(places.wakeAt(p));
    o.set_held(access.custody().leased() && access.custody().held(p));
    o.set_epoch(access.custody().epoch(p));
    if (!access.custody().holder(p).empty()) o.set_holder(access.custody().holder(p));
  }
  // Sleepers in format 2 (flat records, indices): encodeDormant is the product's, what
  // is checked here is which sleepers the copy holds, in which order, with which tables.
  for (size_t i = 0; i < access.archetypes().size(); ++i) {
    out.add_archetype_names(access.archetypes().at(static_cast<uint16_t>(i)).name);
  }
  for (size_t i = 0; i < access.longActions().size(); ++i) {
    out.add_long_action_names(access.longActions().at(static_cast<uint16_t>(i)).name);
  }
  uint64_t previous_id = 0;
  for (const SleeperList& sleepers : access.dormant()) {
    for (const DormantAgent& d : sleepers) {
      encodeDormant(d, previous_id, access.archetypeGroup(d.archetype), *out.add_dormant());
      previous_id = raw(d.body.id);
    }
  }
}

void encodePerceptionSystem(const SimStateAccess& access, pb::PerceptionSystemState& out) {
  const PerceptionSystem& perception = access.perception();
  out.set_som_speed(perception.config().som_speed);
  out.set_decay_per_update(perception.config().decay_per_update);
  out.set_suspicious_threshold(perception.config().suspicious_threshold);
  const NameTable<SpeciesId>& species = access.world().species();
  perception.visibility().forEachType([&](SpeciesId type, const VisibilityType& settings) {
    pb::VisibilityTypeState& t = *out.add_visibility_types();
    t.set_species(species.name(type));
    t.set_multiplier(settings.multiplier);
    t.set_use_coefficient(settings.use_coefficient);
    t.set_neutral(settings.neutral);
  });
  for (const auto& [attribute, principal] : perception.visibility().principals()) {
    pb::AttributePrincipalState& link = *out.add_principals();
    link.set_attribute(raw(attribute));
    link.set_principal(raw(principal));
  }
  const StealthMeter& stealth = perception.stealth();
  for (size_t i = 0; i < stealth.readings().size(); ++i) {
    const StealthReading& r = stealth.readings()[i];
    pb::StealthReadingState& o = *out.add_stealth();
    o.set_player(raw(r.player));
    o.set_agent(raw(r.agent));
    o.set_value(r.value);
    o.set_reported(i < stealth.reported().size() ? stealth.reported()[i] : 0.f);
  }
  for (const SignalRequest& r : perception.pendingSignals()) {
    pb::PendingSignalState& o = *out.add_pending_signals();
    o.set_signal(raw(r.id));
    o.set_scope(static_cast<uint32_t>(r.scope));
    o.set_sender(raw(r.sender));
    o.set_target(raw(r.target));
    o.set_group(raw(r.group));
    o.set_species(raw(r.species));
    o.set_radius_m(r.radius_m);
    o.set_place(raw(r.place));
    encodeVec3(r.position, *o.mutable_position());
    o.set_value(r.value);
    o.set_subject(raw(r.subject));
    o.set_action(raw(r.action));
    o.set_include_sender(r.include_sender);
  }
  for (const Sound& sound : perception.pendingSounds()) {
    pb::PendingSoundState& o = *out.add_pending_sounds();
    encodeVec3(sound.position, *o.mutable_position());
    o.set_radius_m(sound.radius_m);
    o.set_kind(static_cast<uint32_t>(sound.kind));
    o.set_source(raw(sound.source));
    o.set_threat(sound.threat);
  }
}

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
    for (const std::string& row : access.plannerRuns(agent.id)) out.mutable_goap()->add_runs(packAgainst(row, SimStateAccess::freshPlannerRow()));
  }
  encodeLongAction(agent.work, agent.work_is_hibernation, access.longActions(), *out.mutable_work());
  encodeInventory(agent.inventory, access.longActions(), *out.mutable_inventory());
}

constexpr NameTableKind kNameTables[] = {NameTableKind::kActions, NameTableKind::kSpecies,
                                         NameTableKind::kItems, NameTableKind::kSignals,
                                         NameTableKind::kGroups};

google::protobuf::RepeatedPtrField<std::string>* namesOf(pb::SimState& s, NameTableKind kind) {
  switch (kind) {
    case NameTableKind::kActions: return s.mutable_action_names();
    case NameTableKind::kSpecies: return s.mutable_species_names();
    case NameTableKind::kItems: return s.mutable_item_names();
    case NameTableKind::kGroups: return s.mutable_group_names();
    case NameTableKind::kSignals: break;
  }
  return s.mutable_signal_names();
}


void encodeSquads(const SimStateAccess& access, pb::SimState& out) {
  for (const PlannerMemory& m : access.groupPlannerMemory()) encodeGoap(m, *out.add_squad_memory());
}

}  // namespace

void captureSimStateDirect(Simulation& sim, pb::SimState& out) {
  const SimStateAccess access(sim);
  out.Clear();
  for (NameTableKind kind : kNameTables) {
    auto& names = *namesOf(out, kind);
    for (std::string& name : access.names(kind)) names.Add()->assign(std::move(name));
  }
  out.set_runtime_layout(SimStateAccess::runtimeLayout());
  out.set_planning_cursor(access.planningCursor());
  for (ClientId client : access.awayClients()) out.add_away_clients(static_cast<uint32_t>(client));
  for (const ClientBinding& b : access.clients().bindings()) {
    pb::ClientBindingState& o = *out.add_client_bindings();
    o.set_name(b.name);
    o.set_id(raw(b.id));
  }
  out.set_highest_client_id(access.clients().highest());
  encodeSquads(access, out);
  out.set_tick(access.tick());
  out.set_next_intention_id(access.nextIntentionId());
  for (const Entity& e : access.world().entities().rows()) out.add_entity_order(raw(e.id));
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

}  // namespace npc::direct
