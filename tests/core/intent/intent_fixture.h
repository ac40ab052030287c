// Shared set-up for the intention tests: a registry with small test actions, one agent's
// IntentAgentState, a scheduler and output buffers, and a clock driven by the test.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "intent/action_registry.h"
#include "intent/action_scheduler.h"
#include "intent/action_tree.h"
#include "intent/decision_tree.h"
#include "intent/intent_agent_state.h"

namespace npc::test {

// Test switches read by the test actions (actions are stateless; the game model is not).
struct Switches {
  bool may_start = true;
  bool may_continue = true;
  bool init_ok = true;
  int performs = 0;
};

// Daemon-side action taking `duration_s` of agent time (first kValue arg overrides it).
// Completes when done, continues with progress otherwise; fails instead when `fails`.
class TimedAction final : public ActionImpl {
 public:
  TimedAction(float duration_s, Switches* sw = nullptr, bool fails = false,
              ActionTraits traits = {})
      : ActionImpl(traits), duration_s_(duration_s), sw_(sw), fails_(fails) {}

  bool mayStart(const ActionContext&, const Intention&) const override {
    return !sw_ || sw_->may_start;
  }
  bool mayContinue(const ActionContext&, const Intention&) const override {
    return !sw_ || sw_->may_continue;
  }
  bool initialize(ActionContext&, Intention& in) const override {
    if (sw_ && !sw_->init_ok) return false;
    const ActionArg* d = nthParam(in.args(), ArgType::kValue);
    const double total = d ? d->value : duration_s_;
    in.state.set(State{total, total});
    return true;
  }
  PerformResult perform(ActionContext& ctx, Intention& in) const override {
    if (sw_) ++sw_->performs;
    State s = in.state.get<State>();
    if (fails_) return PerformResult::failed(static_cast<float>(s.remaining_s));
    if (s.remaining_s <= ctx.time_left_s) return PerformResult::completed(static_cast<float>(s.remaining_s));
    s.remaining_s -= ctx.time_left_s;
    in.state.set(s);
    return PerformResult::continuing(static_cast<float>(1.0 - s.remaining_s / s.total_s));
  }

 private:
  struct State {
    double total_s;
    double remaining_s;
  };
  float duration_s_;
  Switches* sw_;
  bool fails_;
};

struct IntentFixture {
  NameTable<ActionNameId> names;
  ActionRegistry registry{names};
  IntentionIdSource ids;
  std::vector<IntentionEvent> event_storage = std::vector<IntentionEvent>(256);
  BoundedBuffer<IntentionEvent> events{event_storage};
  std::vector<ClientActionStart> start_storage = std::vector<ClientActionStart>(16);
  BoundedBuffer<ClientActionStart> starts{start_storage};
  ActionScheduler scheduler{registry};
  IntentAgentState agent;
  EntityId agent_id = EntityId{7};
  EntityHandle agent_entity;  // the agent's body in a test world, for actions that need it
  double now = 0.0;
  float quantum = 1.f;
  float client_timeout = 30.f;
  std::vector<IntentionEvent> seen;  // every event drained so far

  ActionNameId name(std::string_view text) { return names.intern(text); }
  TreeContext ctx() { return {&registry, &ids, &events, now}; }
  DecisionTree tree() { return DecisionTree(agent.queue, agent_id, ctx()); }
  ActionTree game() { return ActionTree(agent.queue, agent_id, ctx()); }

  // Runs the agent's turn at `now`, then advances the clock by one quantum.
  TurnStatus tick() {
    AgentTurn t;
    t.agent = agent_id;
    t.entity = agent_entity;
    t.now_s = now;
    t.quantum_s = quantum;
    t.client_timeout_s = client_timeout;
    const TurnStatus s = scheduler.update(agent, t, starts, events);
    now += quantum;
    return s;
  }

  // Events since the last call as "started Go", "failed Take (perform_failed)", ...
  std::vector<std::string> drain() {
    std::vector<std::string> out;
    for (const IntentionEvent& e : events.items()) {
      std::string line = std::string(toString(e.kind)) + " " + names.name(e.action);
      if (e.reason != IntentionReason::kNone) line += " (" + std::string(toString(e.reason)) + ")";
      out.push_back(line);
      seen.push_back(e);
    }
    events.clear();
    return out;
  }
  std::vector<ClientActionStart> drainStarts() {
    std::vector<ClientActionStart> out(starts.items().begin(), starts.items().end());
    starts.clear();
    return out;
  }
  // Action names of the queue, chronological.
  std::vector<std::string> queued() const {
    std::vector<std::string> out;
    for (uint8_t i = 0; i < agent.queue.size(); ++i) out.push_back(names.name(agent.queue.at(i).action));
    return out;
  }
};

using Lines = std::vector<std::string>;

}  // namespace npc::test
