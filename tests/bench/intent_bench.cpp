// Action scheduler: 10,000 agents with a few intentions each.
// Target (issue 06): under 200 ns per agent per tick when nothing changes.
// Figures: items_per_second = agent turns per second; per_agent = seconds per agent turn;
// intentions_per_s (churn cases) = intentions programmed, started and ended per second.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "intent/action_registry.h"
#include "intent/action_scheduler.h"
#include "intent/action_tree.h"
#include "intent/decision_tree.h"

using namespace npc;

namespace {

constexpr int kAgents = 10000;

// A daemon-side action taking a fixed time (its state: the time left).
class Timed final : public ActionImpl {
 public:
  explicit Timed(float s) : s_(s) {}
  bool initialize(ActionContext&, Intention& in) const override {
    in.state.set(s_);
    return true;
  }
  PerformResult perform(ActionContext& ctx, Intention& in) const override {
    float left = in.state.get<float>();
    if (left <= ctx.time_left_s) return PerformResult::completed(left);
    left -= ctx.time_left_s;
    in.state.set(left);
    return PerformResult::continuing(1.f - left / s_);
  }

 private:
  float s_;
};

struct Bench {
  NameTable<ActionNameId> names;
  ActionRegistry registry{names};
  ActionScheduler scheduler{registry};
  IntentionIdSource ids;
  std::vector<IntentAgentState> agents = std::vector<IntentAgentState>(kAgents);
  std::vector<IntentionEvent> event_storage = std::vector<IntentionEvent>(4096);
  std::vector<ClientActionStart> start_storage = std::vector<ClientActionStart>(kAgents);
  BoundedBuffer<IntentionEvent> events{event_storage};
  BoundedBuffer<ClientActionStart> starts{start_storage};
  ActionListId own = registry.createOwnList("Worker");
  ActionListId spell = registry.createInfluence("spell", 1);
  ActionNameId step, work, move, fly;
  double now = 0.0;
  static constexpr float kDt = 0.1f;

  Bench() {
    registry.addTo(own, "Step", std::make_unique<Timed>(0.02f));      // 5 per tick
    registry.addTo(own, "Work", std::make_unique<Timed>(1e9f));       // never ends
    registry.addTo(own, "MoveTo", std::make_unique<ClientAction>(1e9f));
    registry.addTo(spell, "Fly", std::make_unique<Timed>(1e9f));
    step = names.find("Step");
    work = names.find("Work");
    move = names.find("MoveTo");
    fly = names.find("Fly");
    for (IntentAgentState& a : agents) {
      a.access.setOwn(own);
      registry.addInfluence(a.access, spell);
    }
  }
  EntityId id(int i) const { return EntityId{static_cast<uint64_t>(i + 1)}; }
  TreeContext ctx() { return {&registry, &ids, &events, now}; }
  // Programs `action` then `count - 1` Steps on every agent.
  void programAll(ActionNameId action, int count) {
    for (int i = 0; i < kAgents; ++i) {
      DecisionTree tree(agents[i].queue, id(i), ctx());
      tree.program(now, action);
      for (int k = 1; k < count; ++k) tree.program(now, step);
    }
  }
  // One scheduling phase over every agent.
  void tick() {
    events.clear();
    starts.clear();
    AgentTurn turn;
    turn.quantum_s = kDt;
    turn.now_s = now;
    for (int i = 0; i < kAgents; ++i) {
      if (events.room() < ActionScheduler::kMaxEventsPerTurn) events.clear();  // "delivered"
      turn.agent = id(i);
      scheduler.update(agents[i], turn, starts, events);
    }
    now += kDt;
  }
};

void report(benchmark::State& state, double intentions = 0) {
  state.SetItemsProcessed(state.iterations() * kAgents);
  state.counters["per_agent"] = benchmark::Counter(
      kAgents, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  if (intentions > 0) {
    state.counters["intentions_per_s"] =
        benchmark::Counter(intentions, benchmark::Counter::kIsRate);
  }
}

// Nothing changes: each agent waits for the client's result (+2 queued intentions behind).
void BM_WaitingForClient(benchmark::State& state) {
  Bench b;
  b.programAll(b.move, 3);
  b.tick();
  for (auto _ : state) b.tick();
  report(state);
}
BENCHMARK(BM_WaitingForClient)->Unit(benchmark::kMicrosecond);

// Nothing new: each agent performs a long daemon-side action (MayContinue + perform +
// progress every tick), 2 intentions queued behind it.
void BM_LongDaemonAction(benchmark::State& state) {
  Bench b;
  b.programAll(b.work, 3);
  b.tick();
  for (auto _ : state) b.tick();
  report(state);
}
BENCHMARK(BM_LongDaemonAction)->Unit(benchmark::kMicrosecond);

// Long action through an influence (lookup at start, influence check on version change).
void BM_LongInfluenceAction(benchmark::State& state) {
  Bench b;
  b.programAll(b.fly, 3);
  b.tick();
  for (auto _ : state) b.tick();
  report(state);
}
BENCHMARK(BM_LongInfluenceAction)->Unit(benchmark::kMicrosecond);

// Churn: every tick each agent's controller programs 5 short actions, all five run within
// the quantum (started + completed events), the queue empties.
void BM_ShortActionChurn(benchmark::State& state) {
  Bench b;
  double intentions = 0;
  for (auto _ : state) {
    b.programAll(b.step, 5);
    b.tick();
    intentions += 5.0 * kAgents;
  }
  report(state, intentions);
}
BENCHMARK(BM_ShortActionChurn)->Unit(benchmark::kMicrosecond);

// Client round trip: every agent's client-side action completes (ActionTree::clientResult,
// as ingest would), the next one is emitted; the controller keeps 3 queued.
void BM_ClientRoundTrip(benchmark::State& state) {
  Bench b;
  b.programAll(b.move, 3);
  b.tick();
  double intentions = 0;
  for (auto _ : state) {
    b.events.clear();
    for (int i = 0; i < kAgents; ++i) {
      ActionTree game(b.agents[i].queue, b.id(i), b.ctx());
      if (b.events.room() < 4) b.events.clear();
      game.clientResult(game.getCurrentIntention(), ClientOutcome::kCompleted);
      game.program(b.now, b.move);
    }
    b.tick();
    intentions += kAgents;
  }
  report(state, intentions);
}
BENCHMARK(BM_ClientRoundTrip)->Unit(benchmark::kMicrosecond);

}  // namespace
