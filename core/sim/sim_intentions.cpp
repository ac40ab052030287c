// Simulation: actions and intentions (core/intent, seed 004). Behaviors program intentions
// on their agent's queue; the scheduler starts them, runs daemon-side ones, emits
// client-side ones to the agent's owner and times them out; client results come back
// through ingest. Split from simulation.cpp to keep one concept per file.
#include <memory>
#include <set>

#include "intent/action_out.h"
#include "intent/action_tree.h"
#include "sim/sim_messages.h"
#include "sim/simulation.h"

namespace npc {

namespace {

ActionArg toArg(const ActionParam& p) {
  switch (p.type) {
    case ActionParam::Type::kEntity: return ActionArg::ofEntity(p.entity, ArgRole::kParam, p.name);
    case ActionParam::Type::kNumber: return ActionArg::ofValue(p.number, p.unit, p.name);
    case ActionParam::Type::kPosition:
      return ActionArg::ofPosition(p.position, PlaceIndex::kNone, p.name);
    case ActionParam::Type::kText: return ActionArg::ofMessage(p.text, p.name);
  }
  return {};
}

EventKind toEventKind(IntentionEventKind kind) {
  switch (kind) {
    case IntentionEventKind::kStarted: return EventKind::kIntentionStarted;
    case IntentionEventKind::kCompleted: return EventKind::kIntentionCompleted;
    case IntentionEventKind::kFailed: return EventKind::kIntentionFailed;
    case IntentionEventKind::kInterrupted: return EventKind::kIntentionInterrupted;
  }
  return EventKind::kIntentionFailed;
}

}  // namespace

void Simulation::registerActions() {
  // Each archetype's own list holds the client-side actions its behaviors can program
  // (with its action timeout) and the daemon-side Wait.
  own_actions_.clear();
  for (size_t a = 0; a < archetypes_.size(); ++a) {
    const Archetype& type = archetypes_.at(static_cast<uint16_t>(a));
    const ActionListId list = registry_.createOwnList(type.name);
    std::set<uint16_t> names{vocabulary_.move_to, vocabulary_.turn_to, vocabulary_.look_around,
                             vocabulary_.greet_action[a]};
    for (size_t d = 0; d < type.behaviors.size(); ++d) {
      if (type.behaviors[d].mode != BehaviorMode::kLongAction) {
        names.insert(vocabulary_.behavior_action[a][d]);
      }
    }
    for (uint16_t name : names) {
      registry_.addTo(list, names_.name(name), std::make_unique<ClientAction>(type.action_timeout_s));
    }
    registry_.addTo(list, "Wait", std::make_unique<WaitAction>(names_));
    own_actions_.push_back(list);
  }
  // Sized for the worst turn, so update() never reports kNoRoom; flushed as needed.
  start_storage_.resize(1024);
  event_storage_.resize(4096);
  starts_ = BoundedBuffer<ClientActionStart>(start_storage_);
  intention_events_ = BoundedBuffer<IntentionEvent>(event_storage_);
}

TreeContext Simulation::treeContext() {
  return TreeContext{&registry_, &intention_ids_, &intention_events_, timeS()};
}

Status Simulation::applyActionResult(const ActionResult& r) {
  Agent* agent = agents_.get(r.agent);
  if (!agent && findDormant(r.agent)) return noAwakeAgent(r.agent, true);
  if (!agent) {
    return {StatusCode::kNotFound, "action result: " + entityLabel(r.agent) + " is not an agent"};
  }
  if (r.intention == IntentionId::kNone) {
    return {StatusCode::kInvalidArgument, "action result: intention must not be 0"};
  }
  ClientOutcome outcome = ClientOutcome::kCompleted;
  if (r.outcome == ActionOutcome::kFailed) outcome = ClientOutcome::kFailed;
  if (r.outcome == ActionOutcome::kProgress) outcome = ClientOutcome::kProgress;
  const TreeContext ctx = treeContext();
  ActionTree tree(agent->intent.queue, agent->id, ctx);
  const IntentStatus status = tree.clientResult(r.intention, outcome, r.progress);
  if (status != IntentStatus::kOk) {
    Status s = toStatus(status, r.agent, r.intention);
    return {s.code(), "action result: " + s.message()};
  }
  flushIntentions(r.reason.empty() ? nullptr : &r.reason);
  return {};
}

void Simulation::decide() {
  const double now = timeS();
  const TreeContext ctx = treeContext();
  ActionOut request;
  ActionArg args[kMaxActionParams];
  for (Agent& agent : agents_.rows()) {
    const Entity* self = world_.entities().get(agent.entity);
    if (!self || places_.state(self->place) == PlaceState::kDraining) continue;  // winding down
    if (!behaviors_.decide(agent, *self, world_, now, request)) continue;
    for (uint8_t i = 0; i < request.param_count; ++i) args[i] = toArg(request.params[i]);
    DecisionTree tree(agent.intent.queue, agent.id, ctx);
    const Programmed p = tree.program(now, request.name, {args, request.param_count});
    if (!p.ok()) emitError(self->owner, 0, agent.id, toStatus(p.status, agent.id, p.id).message());
  }
}

void Simulation::schedule() {
  const double now = timeS();
  const auto quantum = static_cast<float>(config_.tick_dt_s);
  for (Agent& agent : agents_.rows()) {
    if (agent.intent.queue.empty()) continue;
    const Entity* self = world_.entities().get(agent.entity);
    if (!self) continue;
    if (intention_events_.room() < ActionScheduler::kMaxEventsPerTurn ||
        starts_.room() < ActionScheduler::kMaxStartsPerTurn) {
      flushIntentions();
    }
    AgentTurn turn;
    turn.agent = agent.id;
    turn.entity = agent.entity;
    turn.owner = self->owner;
    turn.place = self->place;
    turn.now_s = now;
    turn.quantum_s = quantum;
    turn.client_timeout_s = archetypes_.at(agent.archetype).action_timeout_s;
    scheduler_.update(agent.intent, turn, starts_, intention_events_);
  }
  flushIntentions();
}

void Simulation::flushIntentions(const std::string* client_reason) {
  for (const ClientActionStart& start : starts_.items()) {
    ActionOut out;
    toActionOut(start, registry_.clientParamNames(), out);
    output_.actions.push_back(out);
    ++totals_.actions_emitted;
  }
  starts_.clear();
  for (const IntentionEvent& event : intention_events_.items()) onIntentionEvent(event, client_reason);
  intention_events_.clear();
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
    ev.text = describeEvent(e, names_);  // failures are rare: text is worth its allocation
    if (client_reason && e.reason == IntentionReason::kClientFailed) ev.text += ": " + *client_reason;
  }
  output_.events.push_back(std::move(ev));
  if (!agent || e.kind == IntentionEventKind::kStarted) return;
  const bool completed = e.kind == IntentionEventKind::kCompleted;
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

}  // namespace npc
