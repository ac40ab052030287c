// Actions make stimuli (core/sim/sim_action_stimuli.cpp): a completed action is heard and
// seen by the agents near it, and the receiver of an external action is told who did what.
#include <catch2/catch.hpp>

#include "sim/simulation.h"
#include "witness_world.h"

using namespace npc;
using namespace npc::test;

namespace {

constexpr EntityId kDoor{50};
constexpr EntityId kFarListener{3};
constexpr EntityId kFlowers{60};

EntityState object(EntityId id, Vec3 at, const char* species) {
  EntityState s;
  s.id = id;
  s.kind = EntityKind::kObject;
  s.species = species;
  s.position = at;
  return s;
}

}  // namespace

TEST_CASE("A completed action is heard and seen as its definition says", "[sim][stimuli]") {
  WitnessWorld w;
  w.put(object(kDoor, {1, 0, 0}, "door"));
  w.spawn(kFarListener, {-10, 0, 0});  // beyond the signal (8 m), within the sound (12 m)
  w.tick();
  REQUIRE(w.program("Open", {WitnessWorld::entity(kDoor)}).isOk());
  w.tick(4);

  SECTION("Should signal the agents within the signal radius") {
    REQUIRE(w.behaviors(kWitness) == std::vector<std::string>{"No Behavior -> Idle",
                                                              "Idle -> DoorOpened"});
  }
  SECTION("Should let agents farther away hear it") {
    REQUIRE(w.behaviors(kFarListener) == std::vector<std::string>{"No Behavior -> Idle",
                                                                  "Idle -> Heard"});
  }
  SECTION("Should not signal the actor, who hears its door like everyone else") {
    REQUIRE(w.behaviors(kActor) == std::vector<std::string>{"No Behavior -> Idle",
                                                            "Idle -> Heard"});
  }
}

TEST_CASE("Take tells the agents around that the object is gone", "[sim][stimuli]") {
  WitnessWorld w;
  w.put(object(kFlowers, {1, 0, 0}, "flowers"));
  w.tick();
  REQUIRE(w.program("Take", {WitnessWorld::entity(kFlowers)}).isOk());
  w.tick(15);
  REQUIRE(w.lastOutcome()->kind == EventKind::kIntentionCompleted);
  REQUIRE(w.behaviors(kWitness) == std::vector<std::string>{"No Behavior -> Idle",
                                                            "Idle -> SawTaking"});
}

TEST_CASE("An action's signal that reaches a place held elsewhere goes there with its subject and action",
          "[sim][stimuli][custody]") {
  SimConfig c = WitnessWorld::config();
  c.leased_places = true;  // a cluster node holding "here" only
  WitnessWorld w(c, [](Simulation& sim) {
    REQUIRE(sim.world().addPlace("here", {{-20, -20, -1}, {4, 20, 10}}));
    REQUIRE(sim.world().addPlace("there", {{4, -20, -1}, {40, 20, 10}}));
    sim.submit({ClientId::kDaemon, 0, HoldPlace{"here", true, 1, nullptr}});
  });
  w.put(object(kFlowers, {1, 0, 0}, "flowers"));
  w.tick();
  std::vector<std::pair<PlaceIndex, SignalEvent>> crossing;
  w.sim().takeCrossingSignals(crossing);
  REQUIRE(w.program("Take", {WitnessWorld::entity(kFlowers)}).isOk());
  w.tick(15);
  REQUIRE(w.lastOutcome()->kind == EventKind::kIntentionCompleted);
  crossing.clear();
  w.sim().takeCrossingSignals(crossing);
  // Taken 3 m from the border: the witnesses within 10 m include "there"'s agents.
  REQUIRE(crossing.size() == 1);
  CHECK(crossing[0].first == w.sim().world().findPlace("there"));
  const SignalEvent& s = crossing[0].second;
  CHECK(s.name == "OnObjectTaken");
  CHECK(s.sender == kActor);
  CHECK(s.subject == kFlowers);
  CHECK(s.action == "Take");
  CHECK(s.radius_m == 10.f);
}

TEST_CASE("The receiver of an external action hears of it, naming actor and action",
          "[sim][stimuli]") {
  WitnessWorld w;
  ExternalAction push;
  push.agent = kWitness;
  push.from = kActor;
  push.action = "Push";
  w.sim().submit({ClientId{7}, 0, push});
  w.tick(2);

  SECTION("Should reach the receiver's selection tree as OnExternalAction") {
    REQUIRE(w.behaviors(kWitness) == std::vector<std::string>{"No Behavior -> Idle",
                                                              "Idle -> Touched"});
    REQUIRE(w.behaviors(kActor) == std::vector<std::string>{"No Behavior -> Idle"});
  }
}

TEST_CASE("External actions carry actor and action into behavior trees", "[sim][stimuli][mbt]") {
  ArchetypeSet set;
  Archetype guard;
  guard.name = "guard";
  guard.species = "human";
  BehaviorDef feel;
  feel.name = "Feel";
  feel.tree = "Feel";
  guard.behaviors.push_back(feel);
  guard.behavior = "Feel";
  ActionDef push;
  push.name = "Push";
  guard.actions.push_back(push);
  set.add(guard);
  Simulation sim(SimConfig{}, std::move(set));
  std::vector<std::string> logs;
  sim.setTreeLogSink([&](const MbtLogMessage& m) { logs.emplace_back(m.text); });
  REQUIRE(sim.loadBehaviorTrees({{"Feel.xml", R"xml(<BehaviorTree>
  <Root>
    <OnSignal name="OnExternalAction" code="entity:Log(signal.action .. ' by ' .. signal.sender)"/>
  </Root>
</BehaviorTree>)xml"}})
              .ok());
  for (uint64_t id : {7, 8}) {
    EntityState s;
    s.id = EntityId{id};
    s.kind = EntityKind::kNpc;
    s.archetype = "guard";
    s.position = Vec3{static_cast<float>(id), 0, 0};
    sim.submit({ClientId{1}, 0, UpsertEntity{s}});
  }
  sim.tick();
  ExternalAction c;
  c.agent = EntityId{7};
  c.from = EntityId{8};
  c.action = "Push";
  sim.submit({ClientId{1}, 0, c});
  sim.tick();
  sim.tick();
  REQUIRE(logs == std::vector<std::string>{"Push by 8"});
}
