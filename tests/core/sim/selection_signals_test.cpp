// Signals reach selection trees in the order they were delivered, whether the receiver's
// row was handled by a worker (no behavior tree bound) or on the tick thread (a behavior
// tree bound, which takes each signal right after its selection tree), with any number of
// threads.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/simulation.h"
#include "sim_fixture.h"

using namespace npc;

namespace {

// OnArm copies Ready into Armed: it arms only an agent that was readied before it.
constexpr const char* kDrill = R"(<SelectionTree name="Drill" type="BehaviorSelectionTree">
  <Variables>
    <Variable name="Ready"/>
    <Variable name="Armed"/>
  </Variables>
  <SignalVariables>
    <Signal name="OnReady" variable="Ready" value="true"/>
    <Signal name="OnStandDown" variable="Ready" value="false"/>
    <Signal name="OnArm" variable="Armed" value="Ready"/>
  </SignalVariables>
  <Priority name="Root">
    <Leaf name="Fight" condition="Armed"/>
    <Leaf name="Wait"/>
  </Priority>
</SelectionTree>)";

constexpr const char* kListen = R"(<BehaviorTree>
  <Root>
    <Sequence>
      <WaitForEvent name="OnArm"/>
      <Animate name="Salute"/>
      <Halt/>
    </Sequence>
  </Root>
</BehaviorTree>)";

constexpr int kAgents = 40;  // even ids run behavior tree Listen, odd ones built-in behaviors

ArchetypeSet drillArchetypes() {
  ArchetypeSet set;
  Archetype drill;
  drill.name = "drill";
  drill.species = "human";
  drill.sensors.vision = false;
  drill.sensors.hearing = false;
  drill.selection_tree = "Drill";
  for (const char* b : {"Fight", "Wait"}) drill.behaviors.push_back({b, BehaviorMode::kIdle});
  set.add(drill);
  Archetype listener = drill;
  listener.name = "listener";
  for (BehaviorDef& b : listener.behaviors) b.tree = "Listen";
  set.add(listener);
  return set;
}

struct Drill {
  Simulation sim;
  std::vector<std::string> behaviors;  // behavior events, in order
  int salutes = 0;  // Animate actions sent (the listeners' Salute)

  explicit Drill(unsigned threads) : sim(config(threads), drillArchetypes()) {
    REQUIRE(sim.loadSelectionTrees({{"Drill.xml", kDrill}}).ok());
    const DefinitionReport r = sim.loadBehaviorTrees({{"Listen.xml", kListen}});
    INFO(r.text());
    REQUIRE(r.ok());
    for (int i = 1; i <= kAgents; ++i) {
      sim.submit(test::upsert(static_cast<uint64_t>(i), EntityKind::kNpc,
                              {static_cast<float>(i) * 3.f, 0, 0},
                              i % 2 == 0 ? "listener" : "drill"));
    }
    tick();
  }
  static SimConfig config(unsigned threads) {
    SimConfig c;
    c.threads = threads;
    c.tick_dt_s = 0.1;
    c.derive_footsteps = false;
    return c;
  }
  // Sends each signal to every agent, signal by signal, then ticks once.
  void signalAll(std::initializer_list<const char*> names) {
    for (const char* name : names) {
      for (int i = 1; i <= kAgents; ++i) {
        SignalEvent s;
        s.target = EntityId{static_cast<uint64_t>(i)};
        s.name = name;
        REQUIRE(sim.submit({ClientId{7}, 0, s}));
      }
    }
    tick();
  }
  void tick() {
    sim.tick();
    for (const EventOut& e : sim.output().events) {
      if (e.kind == EventKind::kBehavior) behaviors.push_back(std::to_string(raw(e.agent)) + " " + e.text);
    }
    for (const ActionOut& a : sim.output().actions) {
      if (sim.names().name(a.name) == "Animate") ++salutes;
    }
  }
  nlohmann::json variables(int id) {
    std::string json;
    REQUIRE(sim.describeAgent(EntityId{static_cast<uint64_t>(id)}, json).isOk());
    return nlohmann::json::parse(json).at("selection").at("variables");
  }
  int armed() {
    int n = 0;
    for (int i = 1; i <= kAgents; ++i) n += variables(i).at("Armed").get<bool>() ? 1 : 0;
    return n;
  }
};

}  // namespace

TEST_CASE("Signals set selection variables in delivery order, on the pool as on the tick thread",
          "[sim][selection][threads]") {
  std::vector<std::string> first_run;
  for (unsigned threads : {1u, 2u, 4u}) {
    INFO(threads << " threads");
    Drill d(threads);
    // Readied, then armed: every agent, tree-bound or not, fights.
    d.signalAll({"OnReady", "OnArm"});
    REQUIRE(d.armed() == kAgents);
    // Armed again while fighting: the behavior stays, and each listener's tree hears it.
    d.signalAll({"OnArm"});
    d.tick();
    REQUIRE(d.salutes == kAgents / 2);
    // Armed before being readied again: nobody is armed.
    d.signalAll({"OnStandDown", "OnArm", "OnReady"});
    REQUIRE(d.armed() == 0);
    REQUIRE(d.variables(1).at("Ready") == true);
    REQUIRE(d.variables(2).at("Ready") == true);
    REQUIRE(d.behaviors.size() == 3 * kAgents);  // none -> Wait -> Fight -> Wait
    if (threads == 1) {
      first_run = d.behaviors;
    } else {
      REQUIRE(d.behaviors == first_run);
    }
  }
}
