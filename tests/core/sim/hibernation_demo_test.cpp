// Hibernation handed over by the controllers (seed 004, "In the bakery"): in the demo world
// the daemon starts no long action behind the trees' back. When the forest starts to drain,
// the woodcutters' selection tree (config/selection_trees/Villager.xml) hears
// OnPlaceHibernating and picks WindDown, whose long action is ChoppingWood; the place
// settles it in one step when it wakes, and OnPlaceAwake sends them back to Work.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "demo_world.h"

using namespace npc;

namespace {

constexpr EntityId kWoodcutter{1301}, kOtherWoodcutter{1302}, kWolf{1401}, kRaider{1502},
    kSkirmisher{1503};

// The demo world with a short quiet period and only the woodcutters in the forest (the wolf,
// the raider and the skirmisher would keep them watchful, and the forest awake).
struct QuietForest {
  test::DemoWorld demo;
  PlaceIndex forest;
  std::vector<std::string> behaviors;  // the first woodcutter's, in order
  std::vector<EventOut> place_events;  // the forest's
  double wound_down_at = -1;

  static SimConfig config() {
    SimConfig c;
    c.hibernation.quiet_s = 5.0;
    return c;
  }
  QuietForest()
      : demo(config(), [](WorldFile& w) {
          std::erase_if(w.entities, [](const EntityState& e) {
            return e.id == kWolf || e.id == kRaider || e.id == kSkirmisher;
          });
        }),
        forest(demo.sim->world().findPlace("forest")) {}

  Simulation& sim() { return *demo.sim; }
  void run(int ticks) {
    for (int t = 0; t < ticks; ++t) {
      sim().tick();
      for (const EventOut& e : sim().output().events) {
        if (e.kind == EventKind::kBehavior && e.agent == kWoodcutter) {
          behaviors.push_back(e.text);
          if (e.text.ends_with("-> WindDown")) wound_down_at = sim().timeS();
        }
        if ((e.kind == EventKind::kPlaceAwake || e.kind == EventKind::kPlaceAsleep) &&
            e.place == forest) {
          place_events.push_back(e);
        }
      }
    }
  }
  nlohmann::json view(EntityId id) {
    std::string text;
    REQUIRE(sim().describeAgent(id, text).isOk());
    return nlohmann::json::parse(text);
  }
  void wake() {
    WakePlace c;
    c.place = "forest";
    c.reply = [](const Status& s) { REQUIRE(s.isOk()); };
    REQUIRE(sim().submit({ClientId{1}, 0, c}));
  }
};

}  // namespace

TEST_CASE("The demo's woodcutters chop wood when the forest hibernates, by their own tree",
          "[sim][hibernation][demo]") {
  QuietForest f;
  f.run(80);  // 8 s: quiet for 5 s, drained, asleep

  SECTION("Should wind down on OnPlaceHibernating, then the forest sleeps") {
    REQUIRE(f.behaviors.size() >= 2);
    REQUIRE(f.behaviors.back() == "Work -> WindDown");
    REQUIRE(f.wound_down_at == Approx(5.0).margin(0.21));
    REQUIRE(f.sim().placeState(f.forest) == PlaceState::kAsleep);
    REQUIRE(f.place_events.size() == 1);
    REQUIRE(f.place_events[0].kind == EventKind::kPlaceAsleep);
  }
  SECTION("Should settle the chopping the tree started, and go back to work on waking") {
    f.run(600);  // 60 s asleep: two 30-s turns of ChoppingWood
    f.wake();
    f.run(3);
    REQUIRE(f.place_events.size() == 2);
    const EventOut& woke = f.place_events[1];
    REQUIRE(woke.kind == EventKind::kPlaceAwake);
    INFO(woke.text);
    REQUIRE(woke.text.find("woodcutter 1301 ChoppingWood 2 turns: +2 log") != std::string::npos);
    REQUIRE(woke.text.find("woodcutter 1302 ChoppingWood 2 turns: +2 log") != std::string::npos);
    REQUIRE(f.view(kWoodcutter).at("inventory") == nlohmann::json{{"log", 2}});
    REQUIRE(f.behaviors.back() == "WindDown -> Work");
    REQUIRE(f.view(kOtherWoodcutter).at("inventory") == nlohmann::json{{"log", 2}});
  }
}

TEST_CASE("Activity while a place drains sends its agents back to work", "[sim][hibernation][demo]") {
  QuietForest f;
  for (int t = 0; t < 80 && f.wound_down_at < 0; ++t) f.run(1);
  REQUIRE(f.wound_down_at > 0);
  // A player walks into the forest far from both woodcutters (out of their sight): the
  // place is active again before it could sleep.
  EntityState player;
  player.id = EntityId{7};
  player.kind = EntityKind::kPlayer;
  player.species = "human";
  player.position = Vec3{-85, 38, 0};
  REQUIRE(f.sim().submit({ClientId{1}, 0, UpsertEntity{player}}));
  f.run(3);

  REQUIRE(f.sim().placeState(f.forest) == PlaceState::kAwake);
  REQUIRE(f.place_events.empty());  // it never slept
  REQUIRE(f.behaviors.back() == "WindDown -> Work");
  // The long action the tree started was settled when it left WindDown: nothing is owed.
  REQUIRE(f.view(kWoodcutter).at("inventory").value("log", 0) == 0);
}
