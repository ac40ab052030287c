// Modular behavior trees: ticks of a 42-node combat tree (state machine, priority on
// variables, parallel with a timeout, timestamps, random gate, events, action nodes) for
// 10,000 agents, and the bytes each agent holds. Target (issue 04): under 1 µs per agent
// tick. Figures: agent_ticks = agent ticks per second; bytes_per_agent = MbtInstance plus
// its blocks (fixed block, running nodes' data, log history), averaged over the agents.
//
// The host is a stand-in for the simulation: one object re-targeted to each agent, actions
// complete 0.3-2 s after they start (deterministically), 2% of agents get a signal per tick.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "mbt/library.h"

using namespace npc;

namespace {

constexpr int kAgents = 10000;

const char* kCombatTree = R"(<BehaviorTree>
  <Variables>
    <Variable name="TargetVisible"/>
    <Variable name="UnderFire"/>
  </Variables>
  <SignalVariables>
    <Signal name="OnEnemySeen" variable="TargetVisible" value="true"/>
    <Signal name="OnLostSightOfTarget" variable="TargetVisible" value="false"/>
    <Signal name="OnBulletRain" variable="UnderFire" value="true"/>
    <Signal name="OnCalm" variable="UnderFire" value="false"/>
  </SignalVariables>
  <Timestamps>
    <Timestamp name="TargetSpotted" setOnEvent="OnEnemySeen" exclusiveTo="TargetLost"/>
    <Timestamp name="TargetLost" setOnEvent="OnLostSightOfTarget" exclusiveTo="TargetSpotted"/>
    <Timestamp name="EnteredCombat" setOnEvent="EnteredCombat"/>
  </Timestamps>
  <Root>
    <StateMachine>
      <State name="Idle">
        <Transitions><Transition onEvent="OnEnemySeen" to="Combat"/></Transitions>
        <BehaviorTree>
          <Loop>
            <Sequence>
              <Animate name="Idle"/>
              <Wait duration="1" variation="1"/>
              <Move to="InitialPosition" speed="Walk"/>
            </Sequence>
          </Loop>
        </BehaviorTree>
      </State>
      <State name="Combat">
        <Transitions><Transition onEvent="GoTo_Search" to="Search"/></Transitions>
        <BehaviorTree>
          <Sequence>
            <SetAlertness value="2"/>
            <SendEvent name="EnteredCombat"/>
            <Loop>
              <Sequence>
                <SuppressFailure>
                <Priority>
                  <Case condition="UnderFire">
                    <Sequence>
                      <QueryTPS name="Cover" register="Cover"/>
                      <Move to="Cover" speed="Run"/>
                      <ShootFromCover duration="2"/>
                    </Sequence>
                  </Case>
                  <Case condition="TargetVisible">
                    <Selector>
                      <Sequence>
                        <AssertCondition condition="TargetVisible"/>
                        <Parallel successMode="any">
                          <Move to="Target" stopWithinDistance="10"/>
                          <Sequence>
                            <WaitUntilTime since="EnteredCombat" isMoreThan="1" succeedIfNeverBeenSet="1"/>
                            <Shoot at="Target" duration="2"/>
                          </Sequence>
                          <Timeout duration="5"/>
                        </Parallel>
                      </Sequence>
                      <Shoot at="Target" duration="1"/>
                    </Selector>
                  </Case>
                  <Case>
                    <SuppressFailure>
                      <IfTime since="TargetLost" isMoreThan="3">
                        <SendTransitionEvent name="GoTo_Search"/>
                      </IfTime>
                    </SuppressFailure>
                  </Case>
                </Priority>
                </SuppressFailure>
                <SuppressFailure>
                  <RandomGate opensWithChance="0.3">
                    <Communicate name="Taunt" waitUntilFinished="0"/>
                  </RandomGate>
                </SuppressFailure>
              </Sequence>
            </Loop>
          </Sequence>
        </BehaviorTree>
      </State>
      <State name="Search">
        <Transitions><Transition onEvent="OnEnemySeen" to="Combat"/></Transitions>
        <BehaviorTree>
          <Sequence>
            <QueryTPS name="RandomSearchSpot" query="random" register="RefPoint"/>
            <Move to="RefPoint" speed="Walk"/>
            <Parallel successMode="any">
              <Animate name="LookAround" loop="1"/>
              <WaitForEvent name="OnEnemySeen"/>
              <Wait duration="3"/>
            </Parallel>
            <Move to="InitialPosition"/>
            <Halt/>
          </Sequence>
        </BehaviorTree>
      </State>
    </StateMachine>
  </Root>
</BehaviorTree>
)";

// The simulation's part: agent views, actions that finish after a while, time.
class BenchHost final : public MbtHost {
 public:
  explicit BenchHost(int agents) : views_(static_cast<size_t>(agents)), done_at_(kRing, 0.0) {
    for (size_t i = 0; i < views_.size(); ++i) {
      MbtAgentView& v = views_[i];
      v.id = static_cast<EntityId>(i + 1);
      v.position = {static_cast<float>(i % 100), static_cast<float>(i / 100), 0.f};
      v.home = v.position;
      v.group = i / 8;
      v.target_class = MbtTargetClass::kVisible;
      v.target = EntityId{1000000};
      v.target_position = {50.f, 50.f, 0.f};
    }
    obstacles_.push_back({ObstacleId{1}, {{20, 20, 0}, {22, 22, 2}}, Cover::kHard});
  }
  void bind(size_t agent) { current_ = &views_[agent]; }

  double nowS() const override { return now_; }
  const MbtAgentView& agent() const override { return *current_; }
  MbtActionHandle startAction(const MbtActionRequest& request) override {
    const uint64_t h = ++next_;
    // 0.3 .. 2.0 s, spread by handle: deterministic, no shared RNG.
    done_at_[h & (kRing - 1)] = now_ + 0.3 + static_cast<double>((h * 2654435761u) % 18) * 0.1;
    return static_cast<MbtActionHandle>(h);
  }
  MbtActionState pollAction(MbtActionHandle handle) override {
    return now_ >= done_at_[raw(handle) & (kRing - 1)] ? MbtActionState::kSucceeded
                                                        : MbtActionState::kRunning;
  }
  void cancelAction(MbtActionHandle) override { ++cancelled_; }
  void sendSignal(SignalId, MbtSignalScope) override { ++signals_; }
  std::span<const Obstacle> obstacles() const override { return obstacles_; }

  double now_ = 0.0;
  uint64_t cancelled_ = 0;
  uint64_t signals_ = 0;

 private:
  static constexpr size_t kRing = size_t{1} << 20;
  std::vector<MbtAgentView> views_;
  const MbtAgentView* current_ = nullptr;
  std::vector<double> done_at_;
  std::vector<Obstacle> obstacles_;
  uint64_t next_ = 0;
};

struct World {
  MbtLibrary library;
  BenchHost host{kAgents};
  std::vector<MbtInstance> agents;
  std::vector<SignalId> events;
  uint64_t tick = 0;

  World() {
    const MbtLoadReport report = library.loadSources({{"Combat.xml", kCombatTree}});
    if (!report.ok()) {
      std::fprintf(stderr, "%s", report.text().c_str());
      std::abort();
    }
    agents.resize(kAgents);
    for (int i = 0; i < kAgents; ++i) {
      library.bind(agents[static_cast<size_t>(i)], "Combat", static_cast<EntityId>(i + 1), 7);
    }
    for (const char* e : {"OnEnemySeen", "OnBulletRain", "OnCalm", "OnLostSightOfTarget"}) {
      events.push_back(library.signals().intern(e));
    }
  }
  // One simulation tick: 2% of the agents get a signal, then every agent ticks.
  void step(bool with_events) {
    ++tick;
    host.now_ += 0.1;
    for (size_t i = 0; i < agents.size(); ++i) {
      host.bind(i);
      if (with_events && (i + tick) % 50 == 0) {
        agents[i].handleEvent(events[(i / 50 + tick / 30) % events.size()], host);
      }
      agents[i].tick(host);
    }
  }
  double bytesPerAgent() const {
    double total = 0;
    for (const MbtInstance& a : agents) total += static_cast<double>(a.bytesUsed());
    return total / static_cast<double>(agents.size());
  }
};

void report(benchmark::State& state, World& world) {
  state.counters["agent_ticks"] =
      benchmark::Counter(kAgents, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["bytes_per_agent"] = world.bytesPerAgent();
  state.counters["nodes"] = static_cast<double>(world.library.findTree("Combat")->nodeCount());
  state.counters["tree_shared_bytes"] =
      static_cast<double>(world.library.findTree("Combat")->sharedBytes());
  double running = 0;
  for (const MbtInstance& a : world.agents) running += static_cast<double>(a.activeNodes());
  state.counters["running_nodes_per_agent"] = running / kAgents;
  double finishes = 0;
  for (const MbtInstance& a : world.agents) finishes += a.rootFinishes();
  state.counters["root_finishes"] = finishes;
}

// The typical case: agents fighting, searching and idling, 2% signalled each tick.
void BM_CombatTree10kAgents(benchmark::State& state) {
  World world;
  for (int i = 0; i < 100; ++i) world.step(true);  // spread agents over the states
  for (auto _ : state) world.step(true);
  report(state, world);
}
BENCHMARK(BM_CombatTree10kAgents)->Unit(benchmark::kMillisecond);

// No signals: only time and action results move the trees.
void BM_CombatTree10kAgentsNoEvents(benchmark::State& state) {
  World world;
  for (int i = 0; i < 100; ++i) world.step(true);
  for (auto _ : state) world.step(false);
  report(state, world);
}
BENCHMARK(BM_CombatTree10kAgentsNoEvents)->Unit(benchmark::kMillisecond);

// Binding 10,000 agents (instance creation) and loading the tree.
void BM_LoadAndBind10kAgents(benchmark::State& state) {
  for (auto _ : state) {
    World world;
    benchmark::DoNotOptimize(world.agents.data());
  }
}
BENCHMARK(BM_LoadAndBind10kAgents)->Unit(benchmark::kMillisecond);

}  // namespace
