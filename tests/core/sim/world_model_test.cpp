// The world model's own changes and what inventory actions check in it
// (core/sim/sim_world_model.cpp, the SimInventories of sim_intentions.cpp): Take needs an
// object the agent sees or remembers and that may be taken; Drop puts objects down at the
// agent's feet; attribute entities vanish when their lifetime ends.
#include <catch2/catch.hpp>

#include "sim/simulation.h"
#include "witness_world.h"

using namespace npc;
using namespace npc::test;

namespace {

constexpr EntityId kFlowers{60};
constexpr EntityId kOven{61};
constexpr EntityId kFootprint{70};

EntityState thing(EntityId id, EntityKind kind, Vec3 at, const char* species) {
  EntityState s;
  s.id = id;
  s.kind = kind;
  s.species = species;
  s.position = at;
  return s;
}

bool inWorld(WitnessWorld& w, EntityId id) { return w.sim().world().entities().get(id) != nullptr; }

std::string errorText(const WitnessWorld& w) {
  for (const EventOut& e : w.events()) {
    if (e.kind == EventKind::kError) return e.text;
  }
  return "";
}

}  // namespace

TEST_CASE("Take works only on objects the agent sees or remembers", "[sim][world_model]") {
  WitnessWorld w;
  RegisterVisibilityType flowers;
  flowers.type = "flowers";
  flowers.reply = [](const Status& s) { REQUIRE(s.isOk()); };
  w.sim().submit({ClientId{7}, 0, flowers});

  SECTION("Should fail with not_seen for flowers behind the agent's back") {
    w.put(thing(kFlowers, EntityKind::kObject, {-1, 0, 0}, "flowers"));
    w.tick(20);
    REQUIRE(w.program("Take", {WitnessWorld::entity(kFlowers)}).isOk());
    w.tick(15);
    REQUIRE(w.lastOutcome()->kind == EventKind::kIntentionFailed);
    REQUIRE(w.lastOutcome()->text.find("\"Take\" failed: the action failed (not_seen)") !=
            std::string::npos);
    REQUIRE(inWorld(w, kFlowers));
  }
  SECTION("Should take flowers the agent has seen") {
    w.put(thing(kFlowers, EntityKind::kObject, {1, 0, 0}, "flowers"));
    w.tick(20);
    REQUIRE(w.program("Take", {WitnessWorld::entity(kFlowers)}).isOk());
    w.tick(15);
    REQUIRE(w.lastOutcome()->kind == EventKind::kIntentionCompleted);
    REQUIRE_FALSE(inWorld(w, kFlowers));
  }
}

TEST_CASE("Objects marked not takeable stay where they are", "[sim][world_model]") {
  WitnessWorld w;
  EntityState oven = thing(kOven, EntityKind::kObject, {1, 0, 0}, "oven");
  oven.takeable = false;
  w.put(oven);
  w.tick();
  REQUIRE(w.program("Take", {WitnessWorld::entity(kOven)}).isOk());
  w.tick(15);
  REQUIRE(w.lastOutcome()->text.find("\"Take\" failed: the action failed (not_takeable)") !=
          std::string::npos);
  REQUIRE(inWorld(w, kOven));
}

TEST_CASE("Drop puts the items down as objects at the agent's feet", "[sim][world_model]") {
  WitnessWorld w;
  w.put(thing(kFlowers, EntityKind::kObject, {1, 0, 0}, "flowers"));
  w.tick();
  REQUIRE(w.program("Take", {WitnessWorld::entity(kFlowers)}).isOk());
  w.tick(15);
  EntityState moved;
  moved.id = kActor;
  moved.kind = EntityKind::kNpc;
  moved.position = Vec3{2, 3, 0};
  w.put(moved);
  REQUIRE(w.program("Drop", {WitnessWorld::text("flowers")}).isOk());
  w.tick(10);

  const std::optional<EventOut> dropped = w.lastOutcome();
  REQUIRE(dropped->kind == EventKind::kIntentionCompleted);
  const Entity* object = w.sim().world().entities().get(dropped->subject);
  REQUIRE(object != nullptr);  // the event names the new object for the game
  REQUIRE(object->kind == EntityKind::kObject);
  REQUIRE(w.sim().world().species().name(object->species) == "flowers");
  REQUIRE(object->position.x == 2.f);
  REQUIRE(object->position.y == 3.f);
  SECTION("Should let the witness notice the drop") {
    REQUIRE(w.behaviors(kWitness).back() == "SawTaking -> SawDropping");
  }
  SECTION("Should let the dropped object be taken again") {
    REQUIRE(w.program("Take", {WitnessWorld::entity(dropped->subject)}).isOk());
    w.tick(15);
    REQUIRE(w.lastOutcome()->kind == EventKind::kIntentionCompleted);
    REQUIRE_FALSE(inWorld(w, dropped->subject));
  }
}

TEST_CASE("Attribute entities vanish when their lifetime ends", "[sim][world_model]") {
  WitnessWorld w;
  EntityState footprint = thing(kFootprint, EntityKind::kAttribute, {5, 5, 0}, "footprint");
  footprint.lifetime_s = 1.5f;
  w.put(footprint);
  w.tick(14);  // 1.4 s after it was made
  REQUIRE(inWorld(w, kFootprint));

  SECTION("Should remove it once its lifetime has passed") {
    w.tick(2);
    REQUIRE_FALSE(inWorld(w, kFootprint));
  }
  SECTION("Should keep it while the game renews its lifetime") {
    EntityState renewed;
    renewed.id = kFootprint;
    renewed.kind = EntityKind::kAttribute;
    renewed.lifetime_s = 1.f;
    w.put(renewed);
    w.tick(5);
    REQUIRE(inWorld(w, kFootprint));
    w.tick(6);
    REQUIRE_FALSE(inWorld(w, kFootprint));
  }
  SECTION("Should refuse a lifetime on anything but an attribute, naming the field") {
    EntityState oven = thing(kOven, EntityKind::kObject, {1, 0, 0}, "oven");
    oven.lifetime_s = 3.f;
    w.put(oven);
    w.tick();
    REQUIRE(errorText(w) == "entity 61: lifetime_s only attribute entities have a lifetime");
    REQUIRE_FALSE(inWorld(w, kOven));
  }
}
