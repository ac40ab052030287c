// Daemon-side inventory actions (seed 004, Example 1 and "Action consequences"): Take puts
// an object within reach into the agent's inventory and out of the world, Drop and Give
// change inventories; each failure says why.
#include <catch2/catch.hpp>

#include "inventory_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

constexpr EntityId kFlowers{2}, kGertrude{3}, kFar{4}, kNoSpecies{5}, kRock{6};

ActionArg at(EntityId id) { return ActionArg::ofEntity(id, ArgRole::kReceiver); }

}  // namespace

TEST_CASE("Inventory removes all or nothing and reuses emptied slots", "[intent][inventory]") {
  Inventory inv;
  REQUIRE(inv.add(ItemId{1}, 3));
  SECTION("Should refuse to remove more than it holds, changing nothing") {
    REQUIRE_FALSE(inv.remove(ItemId{1}, 4));
    REQUIRE(inv.count(ItemId{1}) == 3);
    REQUIRE_FALSE(inv.remove(ItemId{2}, 1));  // never held
    REQUIRE_FALSE(inv.remove(ItemId{1}, 0));
    REQUIRE(inv.remove(ItemId{1}, 3));
    REQUIRE(inv.count(ItemId{1}) == 0);
  }
  SECTION("Should give an emptied slot to a new item once every slot is taken") {
    for (uint16_t i = 2; i <= Inventory::kSlots; ++i) REQUIRE(inv.add(ItemId{i}, 1));
    REQUIRE_FALSE(inv.fits(ItemId{100}));
    REQUIRE_FALSE(inv.add(ItemId{100}, 1));
    REQUIRE(inv.fits(ItemId{1}));  // an item it holds always fits
    REQUIRE(inv.remove(ItemId{3}, 1));
    REQUIRE(inv.fits(ItemId{100}));
    REQUIRE(inv.add(ItemId{100}, 2));
    REQUIRE(inv.count(ItemId{100}) == 2);
    REQUIRE(inv.count(ItemId{3}) == 0);
    REQUIRE(inv.size() == Inventory::kSlots);
  }
}

TEST_CASE("Take: an object within reach goes from the world into the inventory",
          "[intent][inventory]") {
  InventoryFixture f;
  f.model.add(kFlowers, EntityKind::kObject, {1.5f, 0.f, 0.f}, "flowers");

  SECTION("Should take the flowers in 1 s and name them in the completed event") {
    REQUIRE(f.run(f.take, {at(kFlowers)}) == Lines{"started Take", "completed Take"});
    REQUIRE(f.model.count(f.agent_id, "flowers") == 1);
    REQUIRE(f.model.world.entities().get(kFlowers) == nullptr);  // gone from the place
    REQUIRE(f.seen.back().subject == kFlowers);
    REQUIRE(f.seen.back().time_s == Approx(1.0));
  }
  SECTION("Should read the object from an entity parameter too") {
    REQUIRE(f.run(f.take, {ActionArg::ofEntity(kFlowers)}) == Lines{"started Take", "completed Take"});
    REQUIRE(f.model.count(f.agent_id, "flowers") == 1);
  }
  SECTION("Should fail with item_gone once someone took them") {
    f.run(f.take, {at(kFlowers)});
    REQUIRE(f.run(f.take, {at(kFlowers)}) == Lines{"started Take", "failed Take (perform_failed)"});
    REQUIRE(f.detail() == "item_gone");
    REQUIRE(f.seen.back().subject == kFlowers);
    REQUIRE(f.model.count(f.agent_id, "flowers") == 1);
  }
  SECTION("Should fail with item_gone for an object the game took out of play") {
    f.model.world.entities().get(kFlowers)->active = false;
    f.run(f.take, {at(kFlowers)});
    REQUIRE(f.detail() == "item_gone");
  }
  SECTION("Should fail with out_of_reach, leaving the object where it is") {
    f.model.add(kFar, EntityKind::kObject, {3.f, 0.f, 10.f}, "flowers");  // up a cliff
    REQUIRE(f.run(f.take, {at(kFar)}) == Lines{"started Take", "failed Take (perform_failed)"});
    REQUIRE(f.detail() == "out_of_reach");
    REQUIRE(describeEvent(f.seen.back(), f.names) ==
            "agent 1: intention 1 \"Take\" failed: the action failed (out_of_reach)");
    REQUIRE(f.model.world.entities().get(kFar) != nullptr);
    REQUIRE(f.model.count(f.agent_id, "flowers") == 0);
  }
  SECTION("Should fail with not_takeable for agents, players and unnamed objects") {
    f.model.add(kGertrude, EntityKind::kNpc, {1.f, 0.f, 0.f}, "human");
    f.model.add(kNoSpecies, EntityKind::kObject, {1.f, 0.f, 0.f});
    f.model.add(kRock, EntityKind::kPlayer, {1.f, 0.f, 0.f}, "human");
    for (EntityId id : {kGertrude, kNoSpecies, kRock}) {
      f.run(f.take, {at(id)});
      REQUIRE(f.detail() == "not_takeable");
      REQUIRE(f.model.world.entities().get(id) != nullptr);
    }
  }
  SECTION("Should fail with inventory_full and leave the object in the world") {
    Inventory& inv = *f.model.inventoryOf(f.agent_id);
    for (uint16_t i = 0; i < Inventory::kSlots; ++i) {
      inv.add(f.model.items.intern("thing" + std::to_string(i)), 1);
    }
    f.run(f.take, {at(kFlowers)});
    REQUIRE(f.detail() == "inventory_full");
    REQUIRE(f.model.world.entities().get(kFlowers) != nullptr);
  }
  SECTION("Should fail to initialise without an object to take") {
    REQUIRE(f.run(f.take, {f.item("flowers")}) == Lines{"failed Take (init_failed)"});
  }
}

TEST_CASE("The seed's flowers: Go then Take, the climb too hard, both fail", "[intent][inventory]") {
  // The daemon-side Take judges reach itself: after a failed climb Raoul is still at the
  // foot of the cliff.
  InventoryFixture f;
  f.model.add(kFar, EntityKind::kObject, {3.f, 0.f, 10.f}, "flowers");
  f.registry.addTo(f.own, "Go", std::make_unique<TimedAction>(3.f, nullptr, true));
  REQUIRE(f.tree().program(f.now, f.name("Go"), std::vector{at(kFar)}).ok());
  REQUIRE(f.tree().program(f.now, f.take, std::vector{at(kFar)}).ok());
  f.tick();
  REQUIRE(f.drain() == Lines{"started Go", "failed Go (perform_failed)", "started Take",
                             "failed Take (perform_failed)"});
  REQUIRE(f.detail() == "out_of_reach");
  REQUIRE(f.seen.back().time_s == Approx(3.0));  // after giving up the climb
  REQUIRE(f.agent.queue.empty());
}

TEST_CASE("Drop and Give change inventories inside the daemon", "[intent][inventory]") {
  InventoryFixture f;
  f.model.add(kGertrude, EntityKind::kNpc, {1.f, 1.f, 0.f}, "human");
  const ItemId bread = f.model.items.intern("bread");
  f.model.inventoryOf(f.agent_id)->add(bread, 3);

  SECTION("Should drop two breads in 0.5 s") {
    REQUIRE(f.run(f.drop, {f.item("bread"), ActionArg::ofValue(2, ActionNameId::kNone)}) ==
            Lines{"started Drop", "completed Drop"});
    REQUIRE(f.model.count(f.agent_id, "bread") == 1);
    REQUIRE(f.seen.back().time_s == Approx(0.5));
  }
  SECTION("Should refuse to drop what it does not carry, changing nothing") {
    f.run(f.drop, {f.item("bread"), ActionArg::ofValue(4, ActionNameId::kNone)});
    REQUIRE(f.detail() == "not_carried");
    f.run(f.drop, {f.item("cake")});
    REQUIRE(f.detail() == "not_carried");
    REQUIRE(f.model.count(f.agent_id, "bread") == 3);
  }
  SECTION("Should fail to initialise without an item or with a bad count") {
    REQUIRE(f.run(f.drop, {}) == Lines{"failed Drop (init_failed)"});
    REQUIRE(f.run(f.drop, {f.item("bread"), ActionArg::ofValue(1.5, ActionNameId::kNone)}) ==
            Lines{"failed Drop (init_failed)"});
  }
  SECTION("Should give a bread to Gertrude within reach, naming her") {
    REQUIRE(f.run(f.give, {at(kGertrude), f.item("bread")}) ==
            Lines{"started Give", "completed Give"});
    REQUIRE(f.model.count(f.agent_id, "bread") == 2);
    REQUIRE(f.model.count(kGertrude, "bread") == 1);
    REQUIRE(f.seen.back().subject == kGertrude);
  }
  SECTION("Should refuse to give out of reach, to a non-agent, or more than it has") {
    f.model.world.entities().get(kGertrude)->position = {5.f, 0.f, 0.f};
    f.run(f.give, {at(kGertrude), f.item("bread")});
    REQUIRE(f.detail() == "out_of_reach");
    f.model.add(kRock, EntityKind::kObject, {1.f, 0.f, 0.f}, "rock");
    f.run(f.give, {at(kRock), f.item("bread")});
    REQUIRE(f.detail() == "receiver_gone");
    f.run(f.give, {at(EntityId{99}), f.item("bread")});
    REQUIRE(f.detail() == "receiver_gone");
    f.model.world.entities().get(kGertrude)->position = {1.f, 0.f, 0.f};
    f.run(f.give, {at(kGertrude), f.item("bread"), ActionArg::ofValue(5, ActionNameId::kNone)});
    REQUIRE(f.detail() == "not_carried");
    REQUIRE(f.model.count(f.agent_id, "bread") == 3);
    REQUIRE(f.model.count(kGertrude, "bread") == 0);
  }
  SECTION("Should refuse when the receiver has no room, keeping the bread") {
    Inventory& hers = *f.model.inventoryOf(kGertrude);
    for (uint16_t i = 0; i < Inventory::kSlots; ++i) {
      hers.add(f.model.items.intern("thing" + std::to_string(i)), 1);
    }
    f.run(f.give, {at(kGertrude), f.item("bread")});
    REQUIRE(f.detail() == "inventory_full");
    REQUIRE(f.model.count(f.agent_id, "bread") == 3);
  }
  SECTION("Should not give to itself") {
    REQUIRE(f.run(f.give, {at(f.agent_id), f.item("bread")}) == Lines{"failed Give (init_failed)"});
  }
}
