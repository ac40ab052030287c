// Behavior selection tree evaluation: 10,000 agents on a 30-leaf tree built from blocks
// (shared variables, signals and subtrees, a state machine, qualified translations).
// Target (issue 03): under 50 ns per agent evaluation when nothing changed.
// Figures: items_per_second = agent evaluations per second; per_agent = seconds per agent.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bst/selection_tree_library.h"

using namespace npc;

namespace {

constexpr int kAgents = 10000;

// 24 shared variables and their signals, two shared subtrees of 10 leaves each.
std::string blocksXml() {
  std::string xml = "<Blocks>\n<Block name=\"BaseVars\">\n";
  for (int i = 0; i < 24; ++i) xml += "<Variable name=\"V" + std::to_string(i) + "\"/>\n";
  xml += "</Block>\n<Block name=\"BaseSignals\">\n";
  for (int i = 0; i < 24; ++i) {
    xml += "<Signal name=\"On" + std::to_string(i) + "\" variable=\"V" + std::to_string(i) +
           "\" value=\"true\"/>\n";
    xml += "<Signal name=\"Off" + std::to_string(i) + "\" variable=\"V" + std::to_string(i) +
           "\" value=\"false\"/>\n";
  }
  xml += "</Block>\n";
  for (int t = 0; t < 2; ++t) {
    xml += "<Block name=\"Sub" + std::to_string(t) + "\">\n<Priority name=\"Group" +
           std::to_string(t) + "\" condition=\"V" + std::to_string(t) + " or V" +
           std::to_string(t + 2) + "\">\n";
    for (int i = 0; i < 10; ++i) {
      const int a = 4 + (t * 10 + i) % 20;
      const int b = 4 + (t * 10 + i * 3 + 1) % 20;
      xml += "<Leaf name=\"Leaf" + std::to_string(i) + "\" condition=\"V" + std::to_string(a) +
             " and !V" + std::to_string(b) + "\"/>\n";
    }
    xml += "</Priority>\n</Block>\n";
  }
  return xml + "</Blocks>\n";
}

// Root: two shared subtrees (20 leaves), a two-state machine (4 + 5 leaves) and the default
// leaf: 30 leaves.
std::string treeXml() {
  std::string xml = R"(<SelectionTree name="Bench" type="BehaviorSelectionTree">
<Variables><Ref name="BaseVars"/><Variable name="Alarm"/><Variable name="Calm"/></Variables>
<SignalVariables><Ref name="BaseSignals"/></SignalVariables>
<LeafTranslations>
  <Map node="Group0:Leaf0" target="FirstGroupLead"/>
  <Map node="Idle" target="BenchIdle"/>
</LeafTranslations>
<Priority name="Root">
  <Ref name="Sub0"/>
  <Ref name="Sub1"/>
  <StateMachine name="Mood">
    <State name="Relaxed">
      <Transition state="Tense" condition="Alarm and !Calm"/>
      <Priority name="RelaxedChoice">
)";
  for (int i = 0; i < 4; ++i) {
    xml += "<Leaf name=\"Relaxed" + std::to_string(i) + "\" condition=\"V" +
           std::to_string(20 + i) + " xor V" + std::to_string(10 + i) + "\"/>\n";
  }
  xml += R"(      </Priority>
    </State>
    <State name="Tense">
      <Transition state="Relaxed" condition="Calm"/>
      <Priority name="TenseChoice">
)";
  for (int i = 0; i < 5; ++i) {
    xml += "<Leaf name=\"Tense" + std::to_string(i) + "\" condition=\"V" +
           std::to_string(5 + i) + " == V" + std::to_string(15 + i) + "\"/>\n";
  }
  xml += R"(      </Priority>
    </State>
  </StateMachine>
  <Leaf name="Idle"/>
</Priority>
</SelectionTree>
)";
  return xml;
}

struct Fixture {
  SelectionTreeLibrary library;
  std::vector<BstAgentState> agents;
  std::vector<SignalId> on, off;

  Fixture() {
    const BstLoadReport report =
        library.loadSources({{"Blocks.xml", blocksXml()}, {"Bench.xml", treeXml()}});
    if (!report.ok() || library.tree(library.findTree("Bench"))->leafCount() != 30) {
      fprintf(stderr, "bench tree failed to load:\n%s", report.text().c_str());
      std::abort();
    }
    for (int i = 0; i < 24; ++i) {
      on.push_back(library.internSignal("On" + std::to_string(i)));
      off.push_back(library.internSignal("Off" + std::to_string(i)));
    }
    agents.resize(kAgents);
    uint64_t seed = 12345;
    for (BstAgentState& agent : agents) {
      library.bind(agent, library.findTree("Bench"));
      for (int v = 0; v < 24; ++v) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        library.applySignal(agent, (seed >> 33) & 1 ? on[v] : off[v]);
      }
      library.evaluate(agent);
    }
  }
};

void report(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kAgents);
  // Seconds per agent evaluation, printed with an SI prefix (e.g. "1.2n" = 1.2 ns).
  state.counters["per_agent"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kAgents,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The common case: nothing changed since the last update.
void BM_EvaluateUnchanged(benchmark::State& state) {
  Fixture f;
  for (auto _ : state) {
    for (BstAgentState& agent : f.agents) {
      benchmark::DoNotOptimize(f.library.evaluate(agent));
    }
  }
  report(state);
}
BENCHMARK(BM_EvaluateUnchanged)->Unit(benchmark::kMicrosecond);

// Same, with the state embedded in 256-byte agent rows (as in the simulation's agent
// table): one cache line touched per agent instead of half of one.
void BM_EvaluateUnchangedInAgentRows(benchmark::State& state) {
  struct Row {
    uint8_t before[96];
    BstAgentState bst;
    uint8_t after[128];
  };
  Fixture f;
  std::vector<Row> rows(f.agents.size());
  for (size_t i = 0; i < rows.size(); ++i) rows[i].bst = f.agents[i];
  for (auto _ : state) {
    for (Row& row : rows) benchmark::DoNotOptimize(f.library.evaluate(row.bst));
  }
  report(state);
}
BENCHMARK(BM_EvaluateUnchangedInAgentRows)->Unit(benchmark::kMicrosecond);

// Worst case: every agent receives a signal that flips a variable, then re-evaluates.
void BM_SignalThenEvaluate(benchmark::State& state) {
  Fixture f;
  size_t tick = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < f.agents.size(); ++i) {
      const size_t v = (i + tick) % 24;
      f.library.applySignal(f.agents[i], (tick & 1) ? f.on[v] : f.off[v]);
      benchmark::DoNotOptimize(f.library.evaluate(f.agents[i]));
    }
    ++tick;
  }
  report(state);
}
BENCHMARK(BM_SignalThenEvaluate)->Unit(benchmark::kMicrosecond);

// A realistic mix: 5% of agents get a signal per update.
void BM_FivePercentSignalled(benchmark::State& state) {
  Fixture f;
  size_t tick = 0;
  for (auto _ : state) {
    for (size_t i = tick % 20; i < f.agents.size(); i += 20) {
      const size_t v = (i + tick) % 24;
      f.library.applySignal(f.agents[i], (tick & 1) ? f.on[v] : f.off[v]);
    }
    for (BstAgentState& agent : f.agents) benchmark::DoNotOptimize(f.library.evaluate(agent));
    ++tick;
  }
  report(state);
}
BENCHMARK(BM_FivePercentSignalled)->Unit(benchmark::kMicrosecond);

// Loading (and swapping in) the whole set, as a reload does.
void BM_LoadTreeSet(benchmark::State& state) {
  const std::vector<BstSourceFile> files{{"Blocks.xml", blocksXml()}, {"Bench.xml", treeXml()}};
  SelectionTreeLibrary library;
  for (auto _ : state) benchmark::DoNotOptimize(library.loadSources(files).ok());
}
BENCHMARK(BM_LoadTreeSet)->Unit(benchmark::kMicrosecond);

}  // namespace
