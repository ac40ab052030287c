#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "base/rng.h"
#include "hibernation/long_action.h"

using namespace npc;

namespace {

LongActionLibrary library(const std::string& text, std::vector<std::string>* errors = nullptr) {
  LongActionLibrary lib;
  JsonReader reader("long_actions.json");
  nlohmann::json j;
  REQUIRE(reader.parse(text, j));
  lib.loadObject(j, reader);
  if (errors) {
    *errors = reader.errors();
  } else {
    REQUIRE(reader.ok());
  }
  return lib;
}

const char* kBakery = R"({
  "ContinuousBaking": {
    "turn_s": 10,
    "recipes": [ { "every_turns": 3, "consumes": { "flour": 2 },
                   "produces": { "bread": 2, "sandwich": 1 } } ],
    "caps": { "bread": 30 } },
  "Harvest": {
    "turn_s": 1,
    "recipes": [ { "every_turns": 2, "consumes": { "seed": 1 }, "produces": { "wheat": 3 } },
                 { "every_turns": 5, "consumes": { "water": 2 }, "produces": { "flower": 1 } } ],
    "caps": { "wheat": 40, "flower": 7 } } })";

}  // namespace

TEST_CASE("ContinuousBaking settles the seed's example in one step", "[hibernation][long_action]") {
  LongActionLibrary lib = library(kBakery);
  const uint16_t baking = lib.find("ContinuousBaking");
  const ItemId flour = lib.items().find("flour"), bread = lib.items().find("bread"),
               sandwich = lib.items().find("sandwich");
  Inventory inventory;
  inventory.add(flour, 100);
  LongActionRun run = LongActionLibrary::start(baking, 1000.0);

  SECTION("Should bake 20 breads and 10 sandwiches in 30 turns") {
    Settlement s;
    lib.settle(run, 1000.0 + 30 * 10, inventory, &s);
    REQUIRE(s.turns == 30);
    REQUIRE(inventory.count(bread) == 20);
    REQUIRE(inventory.count(sandwich) == 10);
    REQUIRE(inventory.count(flour) == 80);
    REQUIRE(lib.describe(s) == "-20 flour, +20 bread, +10 sandwich");
  }
  SECTION("Should carry a partial turn over to the next settlement") {
    lib.settle(run, 1000.0 + 29.5 * 10, inventory);
    REQUIRE(run.turns_done == 29);
    lib.settle(run, 1000.0 + 30 * 10, inventory);
    REQUIRE(run.turns_done == 30);
    REQUIRE(inventory.count(bread) == 20);
  }
  SECTION("Should hold a capped output at its cap and stop when inputs run out") {
    lib.settle(run, 1000.0 + 1000 * 10, inventory);
    REQUIRE(inventory.count(bread) == 30);     // capped after 15 batches...
    REQUIRE(inventory.count(sandwich) == 50);  // ...but sandwiches are not: 50 batches
    REQUIRE(inventory.count(flour) == 0);      // until the flour ran out
  }
}

TEST_CASE("A reloaded long action carries a run on", "[hibernation][long_action][reload]") {
  const LongActionLibrary before = library(kBakery);
  const ItemId flour = before.items().find("flour"), bread = before.items().find("bread");
  Inventory inventory;
  inventory.add(flour, 100);
  LongActionRun run = LongActionLibrary::start(before.find("ContinuousBaking"), 0.0);
  // The reload's library starts from the running one's items, so numbers match.
  auto reloaded = [&](const std::string& text) {
    LongActionLibrary lib;
    lib.items() = before.items();
    JsonReader reader("long_actions.json");
    nlohmann::json j;
    REQUIRE(reader.parse(text, j));
    lib.loadObject(j, reader);
    REQUIRE(reader.ok());
    return lib;
  };

  SECTION("Should settle under the old turn and go on under the new one") {
    // Turns of 5 s instead of 10; a new action first (keys load sorted), so the baking's
    // index changes too.
    const LongActionLibrary after = reloaded(R"({
      "Brewing": { "turn_s": 1, "recipes": [ { "every_turns": 2, "produces": { "wheat": 3 } } ] },
      "ContinuousBaking": {
        "turn_s": 5,
        "recipes": [ { "every_turns": 3, "consumes": { "flour": 2 },
                       "produces": { "bread": 2, "sandwich": 1 } } ],
        "caps": { "bread": 30 } } })");
    REQUIRE(after.find("ContinuousBaking") == 1);
    Settlement settled;
    REQUIRE(after.adopt(run, inventory, before, 65.0, &settled));
    REQUIRE(run.action == 1);
    // 6 old turns (10 s) by 65 s: two batches, every 3 turns. The 5 s of the 7th stay.
    REQUIRE(settled.turns == 6);
    REQUIRE(run.turns_done == 6);
    REQUIRE(inventory.count(bread) == 4);
    // From 65 s, turns of 5 s: the 7th ends at once (5 s elapsed), 8th at 70, 9th at 75:
    // the 9th is the third batch, the phase of every_turns kept.
    after.settle(run, 74.0, inventory);
    REQUIRE(run.turns_done == 8);
    REQUIRE(inventory.count(bread) == 4);
    after.settle(run, 75.0, inventory);
    REQUIRE(run.turns_done == 9);
    REQUIRE(inventory.count(bread) == 6);
    REQUIRE(inventory.count(flour) == 94);
  }
  SECTION("Should only take the new index when the definition did not change") {
    const LongActionLibrary after = reloaded(kBakery);
    const LongActionRun was = run;
    REQUIRE(after.adopt(run, inventory, before, 65.0));
    REQUIRE(run.started_s == was.started_s);
    REQUIRE(run.turns_done == 0);  // nothing settled early
    REQUIRE(inventory.count(bread) == 0);
  }
  SECTION("Should refuse a run whose action the new library lacks, leaving it alone") {
    const LongActionLibrary after = reloaded(
        R"({ "Harvest": { "turn_s": 1, "recipes": [ { "every_turns": 2, "produces": { "wheat": 3 } } ] } })");
    const LongActionRun was = run;
    REQUIRE_FALSE(after.adopt(run, inventory, before, 65.0));
    REQUIRE(run.action == was.action);
    REQUIRE(inventory.count(bread) == 0);
  }
}

TEST_CASE("One-step settlement equals turn-by-turn simulation", "[hibernation][long_action]") {
  LongActionLibrary lib = library(kBakery);
  Rng rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const uint16_t action = trial % 2 ? lib.find("Harvest") : lib.find("ContinuousBaking");
    Inventory a;
    for (const char* item : {"flour", "seed", "water", "bread", "wheat"}) {
      a.add(lib.items().intern(item), static_cast<int32_t>(rng.next() % 40));
    }
    Inventory b = a;
    LongActionRun one = LongActionLibrary::start(action, 5.0), many = one;
    double now = 5.0;
    // Several interruptions at random times, as wakes would do.
    for (int wake = 0; wake < 4; ++wake) {
      now += rng.uniform() * 200.0;
      lib.settle(one, now, a);
      lib.settleTurnByTurn(many, now, b);
      REQUIRE(one.turns_done == many.turns_done);
      for (uint16_t i = 0; i < lib.items().size(); ++i) {
        const ItemId item{i};
        INFO("trial " << trial << " wake " << wake << " item " << lib.items().name(item));
        REQUIRE(a.count(item) == b.count(item));
      }
    }
  }
}

TEST_CASE("Long action definitions report located errors", "[hibernation][long_action]") {
  SECTION("Should name keys, types and bounds the schema fixes, in file order") {
    std::vector<std::string> errors;
    library(R"({ "A": { "turn_s": 0, "recipes": [ { "every_turns": 0, "produces": { "x": -1 } } ] },
                 "C": { "turn_s": 1, "speed": 2 } })",
            &errors);
    REQUIRE(errors == std::vector<std::string>{
                          "long_actions.json:1:20: /A/turn_s: must be > 0",
                          "long_actions.json:1:53: /A/recipes/0/every_turns: must be >= 1",
                          "long_actions.json:1:75: /A/recipes/0/produces/x: must be >= 1",
                          "long_actions.json:2:23: /C: missing required key \"recipes\"",
                          "long_actions.json:2:38: /C/speed: unknown key",
                      });
  }
  SECTION("Should name an item two recipes of one action share") {
    std::vector<std::string> errors;
    library(R"({
               "B": { "turn_s": 1, "recipes": [ { "consumes": { "x": 1 }, "produces": { "y": 1 } },
                                                { "consumes": { "y": 1 }, "produces": { "z": 1 } } ] } })",
            &errors);
    REQUIRE(errors == std::vector<std::string>{
                          "long_actions.json:3:49: /B/recipes/1: \"y\" is used by another recipe of this action",
                      });
  }
}

// Regression: a turn of 1e-300 s made the turn count of any sleep overflow (undefined
// behaviour converting it), and amounts up to 2^31 overflowed a settlement's sums.
TEST_CASE("Long action numbers are bounded", "[hibernation][long_action][bounds]") {
  std::vector<std::string> errors;
  library(R"({ "A": { "turn_s": 1e-300, "caps": { "x": 5000000 },
                      "recipes": [ { "every_turns": 4294967297, "produces": { "x": 2000000000 } } ] },
               "B": { "turn_s": 1e30, "recipes": [ { "produces": { "y": 1 } } ] } })",
          &errors);
  REQUIRE(errors == std::vector<std::string>{
                        "long_actions.json:1:20: /A/turn_s: must be at least 0.1 s (got 1e-300)",
                        "long_actions.json:1:43: /A/caps/x: must be at most 1000000 (got 5000000)",
                        "long_actions.json:2:53: /A/recipes/0/every_turns: must be at most 1000000 "
                        "(got 4294967297)",
                        "long_actions.json:2:84: /A/recipes/0/produces/x: must be at most 1000000 "
                        "(got 2000000000)",
                        "long_actions.json:3:33: /B/turn_s: must be at most 604800 s (got 1e+30)",
                    });
}

TEST_CASE("Inventory keeps fixed slots and never goes negative", "[hibernation][inventory]") {
  Inventory inv;
  for (uint16_t i = 0; i < Inventory::kSlots; ++i) REQUIRE(inv.add(ItemId{i}, 1));
  REQUIRE_FALSE(inv.add(ItemId{100}, 1));  // full: reported, nothing lost
  REQUIRE(inv.add(ItemId{3}, -5));
  REQUIRE(inv.count(ItemId{3}) == 0);
  REQUIRE(inv.count(ItemId{100}) == 0);
}
