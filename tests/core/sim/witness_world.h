// A small world for the tests of what actions change in the world model and what others
// perceive of them: Raoul (the actor, agent 1) facing +x, Gertrude (agent 2) 6 m away,
// both on the Witness selection tree, whose behavior names what the agent last noticed.
// The game client (client 7) completes every client-side action the tick after it came.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sim/simulation.h"

namespace npc::test {

constexpr EntityId kActor{1};
constexpr EntityId kWitness{2};

constexpr const char* kWitnessTree = R"(<SelectionTree name="Witness" type="BehaviorSelectionTree">
  <Variables>
    <Variable name="Touched"/>
    <Variable name="DoorOpened"/>
    <Variable name="SawDropping"/>
    <Variable name="SawTaking"/>
    <Variable name="Heard"/>
  </Variables>
  <SignalVariables>
    <Signal name="OnExternalAction" variable="Touched" value="true"/>
    <Signal name="OnDoorOpened" variable="DoorOpened" value="true"/>
    <Signal name="OnObjectTaken" variable="SawTaking" value="true"/>
    <Signal name="OnObjectDropped" variable="SawDropping" value="true"/>
    <Signal name="OnHearSound" variable="Heard" value="true"/>
  </SignalVariables>
  <Priority name="Root">
    <Leaf name="Touched" condition="Touched"/>
    <Leaf name="DoorOpened" condition="DoorOpened"/>
    <Leaf name="SawDropping" condition="SawDropping"/>
    <Leaf name="SawTaking" condition="SawTaking"/>
    <Leaf name="Heard" condition="Heard"/>
    <Leaf name="Idle"/>
  </Priority>
</SelectionTree>)";

class WitnessWorld {
 public:
  // `before_spawning`: set-up of the simulation before Raoul and Gertrude are sent (places).
  explicit WitnessWorld(SimConfig c = config(), std::function<void(Simulation&)> before_spawning = {})
      : sim_(c, archetypes()) {
    REQUIRE(sim_.loadSelectionTrees({{"Witness.xml", kWitnessTree}}).ok());
    if (before_spawning) before_spawning(sim_);
    spawn(kActor, {0, 0, 0});
    spawn(kWitness, {6, 0, 0});
    tick();
  }

  static SimConfig config() {
    SimConfig c;
    c.derive_footsteps = false;
    return c;
  }
  static ArchetypeSet archetypes() {
    ArchetypeSet set;
    Archetype villager;
    villager.name = "villager";
    villager.species = "human";
    villager.selection_tree = "Witness";
    for (const char* b : {"Touched", "DoorOpened", "SawDropping", "SawTaking", "Heard", "Idle"}) {
      villager.behaviors.push_back({b, BehaviorMode::kIdle});
    }
    ActionDef open;
    open.name = "Open";
    open.emits.sound_radius_m = 12.f;
    open.emits.signal = "OnDoorOpened";
    open.emits.signal_radius_m = 8.f;
    villager.actions.push_back(open);
    ActionDef push;
    push.name = "Push";
    villager.actions.push_back(push);
    set.add(villager);
    return set;
  }

  Simulation& sim() { return sim_; }

  void spawn(EntityId id, Vec3 at) {
    EntityState s;
    s.id = id;
    s.kind = EntityKind::kNpc;
    s.archetype = "villager";
    s.position = at;
    s.forward = Vec3{1, 0, 0};
    sim_.submit({ClientId{7}, 0, UpsertEntity{s}});
  }
  void put(EntityState s) { sim_.submit({ClientId{7}, 0, UpsertEntity{std::move(s)}}); }

  void tick(int n = 1) {
    for (int i = 0; i < n; ++i) {
      for (const ActionOut& a : pending_) {
        ActionResult r;
        r.agent = a.agent;
        r.intention = a.intention;
        sim_.submit({ClientId{7}, 0, r});
      }
      pending_.clear();
      sim_.tick();
      pending_.assign(sim_.output().actions.begin(), sim_.output().actions.end());
      events_.insert(events_.end(), sim_.output().events.begin(), sim_.output().events.end());
    }
  }

  // Programs `action` on the actor as its controller would; the reply's status.
  Status program(const std::string& action, std::vector<IntentionParam> params = {},
                 EntityId agent = kActor) {
    auto status = std::make_shared<std::optional<Status>>();
    ProgramIntention c{agent, action, 0.0, std::move(params), IntentionId::kNone,
                       [status](const Status& s, IntentionId) { *status = s; }};
    sim_.submit({ClientId{7}, 0, std::move(c)});
    tick();
    REQUIRE(status->has_value());
    return **status;
  }
  static IntentionParam entity(EntityId id) {
    IntentionParam p;
    p.type = IntentionParam::Type::kEntity;
    p.entity = id;
    return p;
  }
  static IntentionParam text(const char* value) {
    IntentionParam p;
    p.type = IntentionParam::Type::kText;
    p.text = value;
    return p;
  }

  // Behavior changes of `agent` ("Idle -> SawTaking"), in order.
  std::vector<std::string> behaviors(EntityId agent) const {
    std::vector<std::string> out;
    for (const EventOut& e : events_) {
      if (e.kind == EventKind::kBehavior && e.agent == agent) out.push_back(e.text);
    }
    return out;
  }
  // The last completed or failed event of the actor's intentions.
  std::optional<EventOut> lastOutcome() const {
    for (auto it = events_.rbegin(); it != events_.rend(); ++it) {
      if (it->agent == kActor && (it->kind == EventKind::kIntentionCompleted ||
                                  it->kind == EventKind::kIntentionFailed)) {
        return *it;
      }
    }
    return std::nullopt;
  }
  const std::vector<EventOut>& events() const { return events_; }

 private:
  Simulation sim_;
  std::vector<ActionOut> pending_;
  std::vector<EventOut> events_;
};

}  // namespace npc::test
