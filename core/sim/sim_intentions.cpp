// Simulation: actions and intentions (core/intent, seed 004). Behaviors program intentions
// on their agent's queue; the scheduler starts them, runs daemon-side ones, emits
// client-side ones to the agent's owner and times them out; client results come back
// through ingest; intention events become EventOuts, BST signals (OnIntentionStarted...)
// and behavior bookkeeping. Daemon-side actions change the daemon's inventories through
// SimInventories. Also: actions defined in data (archetypes' "actions",
// influences) and the intention commands (ProgramIntention, CancelIntention,
// ExternalAction, GameAction, Add/RemoveInfluence). Split from simulation.cpp to keep one
// concept per file.
#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "intent/action_out.h"
#include "intent/action_tree.h"
#include "intent/inventory_actions.h"
#include "sim/sim_messages.h"
#include "sim/simulation.h"

namespace npc {

namespace {

EventKind toEventKind(IntentionEventKind kind) {
  switch (kind) {
    case IntentionEventKind::kStarted: return EventKind::kIntentionStarted;
    case IntentionEventKind::kCompleted: return EventKind::kIntentionCompleted;
    case IntentionEventKind::kFailed: return EventKind::kIntentionFailed;
    case IntentionEventKind::kInterrupted: return EventKind::kIntentionInterrupted;
  }
  return EventKind::kIntentionFailed;
}

// The daemon-side "signal" kind (Talk): posts a signal to the intention's first entity
// argument (receivers first), named by the definition or by the first message / type
// parameter, carrying the first value parameter. Initialisation fails when the receiver is
// not in the world (unknown, or asleep) or there is no name; completes at once, its event
// naming the receiver (subject).
class SignalAction final : public ActionImpl {
 public:
  SignalAction(PerceptionSystem& perception, NameTable<ActionNameId>& names,
               SignalId fixed)  // interns once
      : perception_(perception), names_(names), fixed_(fixed),
        queue_full_(names.intern("signal_queue_full")) {}

  bool initialize(ActionContext& ctx, Intention& intention) const override {
    const ActionArg* to = receiver(intention.args());
    if (!to || !ctx.world || !ctx.world->entities().get(to->entity)) return false;
    SignalId id = fixed_;
    if (id == SignalId::kNone) {
      const ActionArg* text = nthParam(intention.args(), ArgType::kMessage);
      if (!text) text = nthParam(intention.args(), ArgType::kEntityType);
      if (!text) return false;
      const std::string& name = names_.name(text->text());
      id = perception_.signalNames().find(name);
      if (id == SignalId::kNone) id = perception_.signalNames().intern(name);  // once per name
      if (id == SignalId::kNone) return false;
    }
    intention.state.set(id);
    return true;
  }

  PerformResult perform(ActionContext& ctx, Intention& intention) const override {
    SignalRequest request;
    request.id = intention.state.get<SignalId>();
    request.scope = SignalScope::kAgent;
    request.sender = ctx.agent;
    request.target = receiver(intention.args())->entity;
    if (const ActionArg* value = nthParam(intention.args(), ArgType::kValue)) {
      request.value = static_cast<float>(value->value);
    }
    if (!perception_.postSignal(request)) {
      return PerformResult::failed(0.f, queue_full_, request.target);
    }
    return PerformResult::completed(0.f, request.target);  // the event names the listener
  }

 private:
  static const ActionArg* receiver(std::span<const ActionArg> args) {
    if (const ActionArg* r = nthArg(args, ArgRole::kReceiver)) {
      if (r->type == ArgType::kEntity) return r;
    }
    return nthParam(args, ArgType::kEntity);
  }

  PerceptionSystem& perception_;
  const NameTable<ActionNameId>& names_;
  SignalId fixed_;
  ActionNameId queue_full_;
};

// Command parameters -> action arguments, interning names. At most kMaxActionArgs.
Status toArgs(const std::vector<IntentionParam>& params, NameTable<ActionNameId>& names,
              PlaceIndex place, std::array<ActionArg, kMaxActionArgs>& out, uint8_t& count,
              EntityId agent) {
  if (params.size() > kMaxActionArgs) {
    return toStatus(IntentStatus::kTooManyArgs, agent, IntentionId::kNone);
  }
  auto intern = [&](const std::string& text, ActionNameId& id) {
    id = text.empty() ? ActionNameId::kNone : names.intern(text);
    return text.empty() || id != ActionNameId::kNone;
  };
  count = 0;
  for (const IntentionParam& p : params) {
    ActionNameId name, unit, text;  // kNone unless given
    if (!intern(p.name, name) || !intern(p.unit, unit) || !intern(p.text, text)) {
      return {StatusCode::kResourceExhausted, entityLabel(agent) + ": too many distinct names"};
    }
    switch (p.type) {
      case IntentionParam::Type::kEntity:
        out[count++] = ActionArg::ofEntity(p.entity, ArgRole::kParam, name);
        break;
      case IntentionParam::Type::kNumber: out[count++] = ActionArg::ofValue(p.number, unit, name); break;
      case IntentionParam::Type::kPosition:
        out[count++] = ActionArg::ofPosition(p.position, place, name);
        break;
      case IntentionParam::Type::kText: out[count++] = ActionArg::ofMessage(text, name); break;
    }
  }
  return {};
}

// The daemon owns inventories, so taking, dropping and giving things happen here, on its
// world model, as does waiting. An archetype whose game performs one of them itself defines
// that name in its "actions" (client side); those were added first and win.
void addBuiltinDaemonActions(ActionRegistry& registry, NameTable<ActionNameId>& names,
                             ActionListId list) {
  auto add = [&](const char* name, auto make) {
    if (registry.findInList(list, names.intern(name)) == ActionImplId::kNone) {
      registry.addTo(list, name, make());
    }
  };
  add("Wait", [&] { return std::make_unique<WaitAction>(names); });
  add("Take", [&] { return std::make_unique<TakeAction>(names); });
  add("Drop", [&] { return std::make_unique<DropAction>(names); });
  add("Give", [&] { return std::make_unique<GiveAction>(names); });
}

// delay_s from a command as an absolute date; NaN for a bad delay.
double dateAfter(double now_s, double delay_s) {
  return std::isfinite(delay_s) && delay_s >= 0.0 ? now_s + delay_s : std::nan("");
}

}  // namespace

// The daemon's inventories as daemon-side actions see them: awake agents' inventories, items
// named in the long actions' item table (what GetAgent shows), objects in the world.
class SimInventories final : public InventoryModel {
 public:
  explicit SimInventories(Simulation& sim) : sim_(sim) {}

  Inventory* inventoryOf(EntityId agent) override {
    Agent* a = sim_.agents_.get(agent);
    return a ? &a->inventory : nullptr;
  }
  ItemId findItem(ActionNameId name) const override {
    if (name == ActionNameId::kNone) return ItemId::kNone;
    return sim_.long_actions_.items().find(sim_.names_.name(name));
  }
  ItemId internItem(ActionNameId name) override {
    if (name == ActionNameId::kNone) return ItemId::kNone;
    return sim_.long_actions_.items().intern(sim_.names_.name(name));
  }
  ItemId itemOf(const Entity& object) override {
    if (object.species == SpeciesId::kNone) return ItemId::kNone;
    return sim_.long_actions_.items().intern(sim_.world_.species().name(object.species));
  }
  void removeFromWorld(EntityId object) override { sim_.removeEntity(object, false); }
  bool remembers(EntityId agent, const Entity& object) const override {
    // Objects of a species perception does not track cannot be seen: known by definition.
    if (object.species == SpeciesId::kNone ||
        !sim_.perception_.visibility().find(object.species)) {
      return true;
    }
    const Agent* a = sim_.agents_.get(agent);
    if (!a) return false;
    const int track = findTrack(a->perception, object.id);
    return track >= 0 &&
           a->perception.tracks[static_cast<size_t>(track)].state != TrackState::kPotential;
  }
  EntityId placeInWorld(ItemId item, Vec3 position) override {
    return sim_.placeDroppedObject(item, position);
  }

 private:
  Simulation& sim_;
};

void Simulation::registerActions() {
  // Each archetype's own list holds the client-side actions its behaviors can program
  // (with its action timeout) and the daemon-side Wait, Take, Drop and Give.
  inventories_ = std::make_unique<SimInventories>(*this);
  scheduler_.setEnv({&world_, nullptr, inventories_.get()});
  own_actions_.clear();
  for (size_t a = 0; a < archetypes_.size(); ++a) {
    const Archetype& type = archetypes_.at(static_cast<uint16_t>(a));
    const ActionListId list = registry_.createOwnList(type.name);
    std::set<ActionNameId> names{vocabulary_.move_to, vocabulary_.turn_to, vocabulary_.look_around,
                             vocabulary_.greet_action[a]};
    for (size_t d = 0; d < type.behaviors.size(); ++d) {
      if (type.behaviors[d].mode != BehaviorMode::kLongAction) {
        names.insert(vocabulary_.behavior_action[a][d]);
      }
    }
    // Actions defined in data come first and replace built-ins of the same name. Only a
    // full registry (65534 implementations) can refuse one; nothing is left to report it to.
    std::vector<std::string> ignored;
    addDataActions(list, type.actions, ignored);
    for (ActionNameId name : names) {
      if (registry_.findInList(list, name) != ActionImplId::kNone) continue;
      registry_.addTo(list, names_.name(name), std::make_unique<ClientAction>(type.action_timeout_s));
    }
    addBuiltinDaemonActions(registry_, names_, list);
    registerTreeActions(list, type);
    own_actions_.push_back(list);
  }
  // Intention events reach selection trees as these signals (by IntentionEventKind).
  intention_signals_ = {trees_.internSignal("OnIntentionStarted"),
                        trees_.internSignal("OnIntentionCompleted"),
                        trees_.internSignal("OnIntentionFailed"),
                        trees_.internSignal("OnIntentionInterrupted")};
  // Sized for the worst turn, so update() never reports kNoRoom; flushed as needed.
  start_storage_.resize(1024);
  event_storage_.resize(4096);
  starts_ = BoundedBuffer<ClientActionStart>(start_storage_);
  intention_events_ = BoundedBuffer<IntentionEvent>(event_storage_);
  resolveActionStimuli();
}

TreeContext Simulation::treeContext() {
  return TreeContext{&registry_, &intention_ids_, &intention_events_, timeS()};
}

bool Simulation::endedRecently(const Agent& agent, IntentionId intention) const {
  for (const Agent::Outcome& o : agent.recent_outcomes) {
    if (o.intention == intention) return true;
  }
  return false;
}

Status Simulation::applyActionResult(const ActionResult& r, ClientId origin, uint32_t item) {
  Agent* agent = agents_.get(r.agent);
  if (!agent && findDormant(r.agent)) return noAwakeAgent(r.agent, true);
  if (!agent) {
    return {StatusCode::kNotFound, "action result: " + entityLabel(r.agent) + " is not an agent"};
  }
  if (r.intention == IntentionId::kNone) {
    return {StatusCode::kInvalidArgument, "action result: intention must not be 0"};
  }
  if (Status s = checkResultSender(*agent, r.intention, origin, item); !s.isOk()) return s;
  ClientOutcome outcome = ClientOutcome::kCompleted;
  if (r.outcome == ActionOutcome::kFailed) outcome = ClientOutcome::kFailed;
  if (r.outcome == ActionOutcome::kProgress) outcome = ClientOutcome::kProgress;
  const TreeContext ctx = treeContext();
  ActionTree tree(agent->intent.queue, agent->id, ctx);
  const IntentStatus status = tree.clientResult(r.intention, outcome, r.progress);
  if (status == IntentStatus::kUnknownIntention && endedRecently(*agent, r.intention)) {
    // The daemon ended it first (interrupted, timed out) while the result was in flight:
    // nothing is wrong on the client's side, so this is counted, not reported.
    ++totals_.late_results;
    return {};
  }
  if (status != IntentStatus::kOk) {
    Status s = toStatus(status, r.agent, r.intention);
    return {s.code(), "action result: " + s.message()};
  }
  flushIntentions(r.reason.empty() ? nullptr : &r.reason);
  return {};
}

void Simulation::schedule() {
  scheduling_phase_.run({agents_.rows(), world_, archetypes_, scheduler_, starts_, intention_events_,
                         profile_, timeS(), static_cast<float>(config_.tick_dt_s),
                         [this](ClientId owner) { return addresseeOf(owner); },
                         [this] { flushIntentions(); }, pool_.get()});
}

void Simulation::queueRestoredInterruption(EntityId agent, IntentionId intention,
                                           ActionNameId action, float progress,
                                           IntentionId handle) {
  if (intention_events_.room() == 0) flushIntentions();
  IntentionEvent event;
  event.agent = agent;
  event.intention = intention;
  event.handle = handle == IntentionId::kNone ? intention : handle;
  event.time_s = timeS();
  event.progress = progress;
  event.action = action;
  event.kind = IntentionEventKind::kInterrupted;
  event.reason = IntentionReason::kRestored;
  intention_events_.push(event);  // flushed (to clients, trees, plan steps) by this tick
}

void Simulation::interruptInFlight() {
  // Every connection is gone: an anonymous client's entities are nobody's now.
  std::vector<ClientId> anonymous;
  auto note = [&](ClientId owner) {
    if (ClientDirectory::isClientId(owner) && !clients_.isBound(owner)) anonymous.push_back(owner);
  };
  for (const Entity& e : world_.entities().rows()) note(e.owner);
  for (const auto& place : dormant_) {
    for (const DormantAgent& d : place) note(d.body.owner);
  }
  std::sort(anonymous.begin(), anonymous.end());
  anonymous.erase(std::unique(anonymous.begin(), anonymous.end()), anonymous.end());
  for (ClientId client : anonymous) releaseClient(client, false);
  for (Agent& agent : agents_.rows()) {
    if (agent.intent.queue.empty()) continue;
    if (const Intention* running = agent.intent.queue.current()) {
      queueRestoredInterruption(agent.id, running->id, running->action, running->progress,
                                running->handle);
    }
    agent.intent.queue = IntentionQueue{};
  }
}

void Simulation::flushIntentions(const std::string* client_reason) {
  for (const ClientActionStart& item : starts_.items()) {
    ClientActionStart start = item;
    if (!navigateMove(start)) continue;
    ActionOut out;
    toActionOut(start, registry_.clientParamNames(), out);
    recordSent(start.agent, start.intention, start.owner);
    output_.actions.push_back(out);
    ++totals_.actions_emitted;
  }
  starts_.clear();
  for (const IntentionEvent& event : intention_events_.items()) onIntentionEvent(event, client_reason);
  intention_events_.clear();
  failRefusedMoves();
}

void Simulation::onIntentionEvent(const IntentionEvent& e, const std::string* client_reason) {
  Agent* agent = agents_.get(e.agent);
  const Entity* body = agent ? world_.entities().get(agent->entity) : nullptr;
  EventOut ev;
  ev.kind = toEventKind(e.kind);
  ev.agent = e.agent;
  ev.place = body ? body->place : PlaceIndex::kNone;
  ev.subject = e.subject;
  ev.value = e.progress;
  ev.intention = e.intention;
  if (e.kind == IntentionEventKind::kFailed || e.kind == IntentionEventKind::kInterrupted) {
    ev.text = output_.takeText();
    appendEventText(e, names_, ev.text);
    if (client_reason && e.reason == IntentionReason::kClientFailed) {
      ev.text.append(": ").append(*client_reason);
    }
  }
  output_.events.push_back(std::move(ev));
  if (agent) trees_.applySignal(agent->bst, intention_signals_[static_cast<size_t>(e.kind)]);
  if (!agent || e.kind == IntentionEventKind::kStarted) return;
  const bool completed = e.kind == IntentionEventKind::kCompleted;
  if (completed) emitActionStimuli(*agent, e);
  agent->recent_outcomes[agent->next_outcome] = {
      e.intention, e.handle, completed};
  agent->next_outcome = static_cast<uint8_t>((agent->next_outcome + 1) % agent->recent_outcomes.size());
  onPlanIntentionEnded(*agent, e.intention, completed);
  if (completed) {
    ++agent->actions_completed;
    ++totals_.actions_completed;
  } else {
    ++agent->actions_failed;
    ++totals_.actions_failed;
  }
  if (behaviors_.onActionEnded(*agent, e.action, timeS(), completed)) {
    for (const DoneAssignment& d : done_assignments_) {
      if (d.archetype == agent->archetype && d.behavior_def == agent->behavior_def) {
        trees_.setVariable(agent->bst, d.variable, d.value);
      }
    }
  }
}

// --- Actions in data and influences -------------------------------------------------------

void Simulation::addDataActions(ActionListId list, const std::vector<ActionDef>& actions,
                                std::vector<std::string>& errors) {
  for (const ActionDef& def : actions) {
    std::unique_ptr<ActionImpl> impl;
    if (def.side == ActionSide::kClient) {
      // Client-side actions need no code of their own: the traits say it all.
      impl = std::make_unique<ActionImpl>(
          ActionTraits{ActionSide::kClient, def.game_only, def.coercive, def.timeout_s});
    } else if (def.kind == DaemonActionKind::kWait) {
      impl = std::make_unique<WaitAction>(names_);
    } else {
      const SignalId fixed =
          def.signal.empty() ? SignalId::kNone : perception_.signalNames().intern(def.signal);
      impl = std::make_unique<SignalAction>(perception_, names_, fixed);
    }
    if (registry_.addTo(list, def.name, std::move(impl)) == ActionImplId::kNone) {
      errors.push_back("action list \"" + registry_.listName(list) + "\": action \"" + def.name +
                       "\" cannot be registered (duplicate name or registry full)");
    }
  }
}

std::vector<std::string> Simulation::setInfluences(const InfluenceSet& influences) {
  std::vector<std::string> errors;
  for (const InfluenceDef& def : influences.all()) {
    const ActionListId list = registry_.createInfluence(def.name, def.priority);
    if (list == ActionListId::kNone) {
      errors.push_back("influence \"" + def.name +
                       "\": the name is already used by an archetype or an influence");
      continue;
    }
    addDataActions(list, def.actions, errors);
    influences_.push_back(def);
  }
  return errors;
}

DefinitionReport Simulation::reloadInfluences(const InfluenceSet& fresh, const std::string& source) {
  DefinitionReport report;
  std::vector<std::string> errors;
  auto named = [](const std::vector<InfluenceDef>& defs, const std::string& name) {
    const auto at = std::find_if(defs.begin(), defs.end(),
                                 [&](const InfluenceDef& d) { return d.name == name; });
    return at == defs.end() ? nullptr : &*at;
  };
  for (const InfluenceDef& was : influences_) {
    if (!named(fresh.all(), was.name)) {
      errors.push_back("influence \"" + was.name +
                       "\" is gone: removing an influence takes a restart (agents may be under it)");
    }
  }
  for (const InfluenceDef& def : fresh.all()) {
    if (!named(influences_, def.name) && registry_.findList(def.name) != ActionListId::kNone) {
      errors.push_back("influence \"" + def.name + "\": the name is already used by an archetype");
    }
  }
  size_t impls = 0, lists = 0;  // what the changed and new influences will register
  for (const InfluenceDef& def : fresh.all()) {
    const InfluenceDef* was = named(influences_, def.name);
    if (was && *was == def) continue;
    impls += def.actions.size();
    lists += was == nullptr;
  }
  if (impls > registry_.implRoom() || lists > registry_.listRoom()) {
    errors.push_back("the action registry is full (" + std::to_string(impls) +
                     " implementations to register); a restart empties it");
  }
  if (!errors.empty()) {
    for (const std::string& e : errors) report.errors.push_back(source + ": " + e);
    report.refused.push_back("influences");
    return report;
  }
  std::vector<std::string> changed, added;
  std::vector<ActionListId> reprioritised;
  for (const InfluenceDef& def : fresh.all()) {
    const InfluenceDef* was = named(influences_, def.name);
    if (was && *was == def) continue;
    ActionListId list = registry_.findList(def.name);
    if (was) {
      registry_.resetInfluence(list, def.priority);
      if (was->priority != def.priority) reprioritised.push_back(list);
      changed.push_back(def.name);
    } else {
      list = registry_.createInfluence(def.name, def.priority);
      added.push_back(def.name);
    }
    addDataActions(list, def.actions, report.errors);  // room was checked above
  }
  const size_t moved = reprioritiseInfluences(reprioritised);
  influences_ = fresh.all();
  report.outcome("influences", true,
                 std::to_string(influences_.size()) + " influences (changed: " +
                     nameList(changed) + "; new: " + nameList(added) + "; " +
                     std::to_string(moved) + " agents under a new priority)");
  return report;
}

// Agents under `lists`, awake or asleep, take each one's registered priority again (an
// ActionAccess keeps its influences in priority order). Returns how many agents.
size_t Simulation::reprioritiseInfluences(std::span<const ActionListId> lists) {
  if (lists.empty()) return 0;
  size_t agents = 0;
  auto update = [&](ActionAccess& access) {
    bool touched = false;
    for (ActionListId list : lists) {
      if (!access.removeInfluence(list)) continue;
      access.addInfluence(list, registry_.priority(list));
      touched = true;
    }
    agents += touched;
  };
  auto holds = [&](const ActionAccess& access) {
    return std::any_of(lists.begin(), lists.end(), [&](ActionListId l) { return access.has(l); });
  };
  for (Agent& agent : agents_.rows()) update(agent.intent.access);
  for (SleeperList& place : dormant_) {
    if (std::none_of(place.begin(), place.end(), [&](const DormantAgent& d) { return holds(d.actions); })) {
      continue;  // shared rows stay shared
    }
    for (DormantAgent& d : place.edit()) update(d.actions);
  }
  return agents;
}

// --- Intention commands -----------------------------------------------------------------

Agent* Simulation::awakeAgent(EntityId id, Status& error) {
  if (Agent* agent = agents_.get(id)) return agent;
  error = noAwakeAgent(id, findDormant(id).has_value());
  return nullptr;
}

Status Simulation::programOn(EntityId agent_id, const std::string& name,
                             const std::vector<IntentionParam>& params, double delay_s,
                             std::optional<bool> game_coercive, IntentionId depends_on,
                             IntentionId& id) {
  Status error;
  Agent* agent = awakeAgent(agent_id, error);
  if (!agent) return error;
  const ActionNameId action = registry_.findAction(name);
  if (!registry_.known(action)) {
    const char* what = game_coercive ? ": game action \"" : ": action \"";
    return {StatusCode::kNotFound, entityLabel(agent_id) + what + name + "\" is not registered"};
  }
  const Entity* body = world_.entities().get(agent->entity);
  std::array<ActionArg, kMaxActionArgs> args;
  uint8_t count = 0;
  if (Status s = toArgs(params, names_, body ? body->place : PlaceIndex::kNone, args, count,
                        agent_id);
      !s.isOk()) {
    return s;
  }
  const std::span<const ActionArg> used{args.data(), count};
  // The implementation the agent would use now checks its arguments (Wait's duration, a
  // Drop count); the one used when the intention starts may differ, and fails it then.
  if (const ActionResolution r = registry_.resolve(agent->intent.access, action); r.found()) {
    if (std::string problem = registry_.impl(r.impl).checkArgs(used, names_); !problem.empty()) {
      return {StatusCode::kInvalidArgument, std::move(problem)};
    }
  }
  const double date = dateAfter(timeS(), delay_s);
  ActionTree tree(agent->intent.queue, agent->id, treeContext());
  const Programmed p = game_coercive ? tree.programGame(date, action, used, *game_coercive)
                                     : tree.program(date, action, used, depends_on);
  if (p.status == IntentStatus::kUnknownIntention) {
    return {StatusCode::kNotFound, "agent " + std::to_string(raw(agent_id)) + ": depends_on: intention " +
                                       std::to_string(raw(depends_on)) +
                                       " is not in the agent's queue (it ended, or never was)"};
  }
  if (!p.ok()) return toStatus(p.status, agent_id, p.id);
  id = p.id;
  flushIntentions();
  return {};
}

Status Simulation::programIntention(const ProgramIntention& c, IntentionId& id) {
  return programOn(c.agent, c.action, c.params, c.delay_s, std::nullopt, c.depends_on, id);
}

Status Simulation::gameAction(const GameAction& c, IntentionId& id) {
  return programOn(c.agent, c.action, c.params, c.delay_s, c.coercive, IntentionId::kNone, id);
}

Status Simulation::externalAction(const ExternalAction& c) {
  Status error;
  Agent* agent = awakeAgent(c.agent, error);
  if (!agent) return error;
  bool coercive = c.coercive;
  if (!c.action.empty()) {
    const ActionNameId action = registry_.findAction(c.action);
    if (!registry_.known(action)) {
      return {StatusCode::kNotFound, entityLabel(c.agent) + ": external action \"" + c.action +
                                         "\" is not registered"};
    }
    coercive = coercive || registry_.coercive(action);
  }
  ActionTree tree(agent->intent.queue, agent->id, treeContext());
  tree.receiveExternal(c.from, coercive);
  flushIntentions();
  signalExternalAction(c.agent, c.from, c.action);
  return {};
}

Status Simulation::cancelIntention(const CancelIntention& c) {
  Status error;
  Agent* agent = awakeAgent(c.agent, error);
  if (!agent) return error;
  DecisionTree tree(agent->intent.queue, agent->id, treeContext());
  const Intention* in = tree.getIntention(c.intention);
  IntentStatus status = IntentStatus::kUnknownIntention;
  if (in) status = in->started() ? tree.cancel(c.intention) : tree.deprogram(c.intention);
  if (status != IntentStatus::kOk) return toStatus(status, c.agent, c.intention);
  flushIntentions();
  return {};
}

Status Simulation::changeInfluence(EntityId id, const std::string& influence, bool add) {
  Status error;
  Agent* agent = awakeAgent(id, error);
  if (!agent) return error;
  const ActionListId list = registry_.findList(influence);
  if (list == ActionListId::kNone || !registry_.isInfluence(list)) {
    return {StatusCode::kNotFound, "influence \"" + influence + "\" is not defined"};
  }
  if (!add) {
    // The scheduler interrupts an action taken from it at the agent's next turn.
    if (agent->intent.access.removeInfluence(list)) return {};
    return {StatusCode::kNotFound,
            entityLabel(id) + " is not under influence \"" + influence + "\""};
  }
  if (registry_.addInfluence(agent->intent.access, list) == IntentStatus::kQueueFull) {
    return {StatusCode::kResourceExhausted,
            entityLabel(id) + ": already under " + std::to_string(kMaxInfluences) +
                " influences; remove one first"};
  }
  return {};
}

}  // namespace npc
