// DescribeWorld: the debug page's bounded map of places, obstacles, agents and players.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

struct WorldViewFixture {
  Simulation sim;

  static SimConfig config() {
    SimConfig c;
    c.hibernation.quiet_s = 1.0;
    c.derive_footsteps = false;
    return c;
  }

  WorldViewFixture() : sim(config(), testArchetypes()) {
    REQUIRE(sim.world().addPlace("square", {{0, 0, -1}, {20, 20, 10}}));
    REQUIRE(sim.world().addPlace("cellar", {{100, 100, -1}, {110, 110, 10}}));
    sim.world().upsertObstacle({ObstacleId{5}, {{2, 2, 0}, {3, 3, 1}}, Cover::kSoft});
    sim.submit(upsert(1, EntityKind::kNpc, {5, 5, 0}, "statue"));
    sim.submit(upsert(2, EntityKind::kNpc, {15, 15, 0}, "statue"));
    sim.submit(upsert(3, EntityKind::kNpc, {105, 105, 0}, "statue"));
    sim.submit(upsert(50, EntityKind::kPlayer, {10, 10, 0}));
    sim.submit(upsert(60, EntityKind::kObject, {12, 3, 0}));
  }
  // Ticks as the game would, completing every client action at once.
  void run(int ticks) {
    for (int t = 0; t < ticks; ++t) {
      sim.tick();
      for (const ActionOut& a : sim.output().actions) {
        sim.submit(result(raw(a.agent), a.intention, ActionOutcome::kCompleted));
      }
    }
  }
  nlohmann::json view(DescribeWorld query = {}) {
    std::string json;
    REQUIRE(sim.describeWorld(query, json).isOk());
    return nlohmann::json::parse(json);
  }
};

}  // namespace

TEST_CASE("DescribeWorld maps places, obstacles, agents, players and objects", "[sim][debug]") {
  WorldViewFixture f;
  f.run(1);
  const nlohmann::json w = f.view();
  SECTION("Should list places with bounds and state") {
    REQUIRE(w["places"].size() == 2);
    REQUIRE(w["places"][0]["name"] == "square");
    REQUIRE(w["places"][0]["state"] == "awake");
    REQUIRE(w["places"][0]["bounds"]["max"] == nlohmann::json::array({20.0, 20.0, 10.0}));
  }
  SECTION("Should list obstacles with their cover") {
    REQUIRE(w["obstacles"].size() == 1);
    REQUIRE(w["obstacles"][0]["id"] == 5);
    REQUIRE(w["obstacles"][0]["cover"] == "soft");
  }
  SECTION("Should list agents with position, behavior and place") {
    REQUIRE(w["agents"].size() == 3);
    REQUIRE(w["agents"][0]["id"] == 1);
    REQUIRE(w["agents"][0]["archetype"] == "statue");
    REQUIRE(w["agents"][0]["behavior"] == "Ambient");
    REQUIRE(w["agents"][0]["place"] == "square");
    REQUIRE(w["agents"][0]["position"] == nlohmann::json::array({5.0, 5.0, 0.0}));
    REQUIRE(w["agents"][0]["asleep"] == false);
  }
  SECTION("Should list players and objects apart") {
    REQUIRE(w["players"].size() == 1);
    REQUIRE(w["players"][0]["id"] == 50);
    REQUIRE(w["objects"].size() == 1);
    REQUIRE(w["objects"][0]["id"] == 60);
  }
}

TEST_CASE("DescribeWorld keeps to its viewport and limits", "[sim][debug]") {
  WorldViewFixture f;
  f.run(1);
  SECTION("Should keep only what the x/y viewport holds") {
    DescribeWorld q;
    q.viewport = Aabb{{0, 0, -1e9f}, {10, 10, 1e9f}};
    const nlohmann::json w = f.view(q);
    REQUIRE(w["places"].size() == 1);
    REQUIRE(w["agents"].size() == 1);
    REQUIRE(w["agents"][0]["id"] == 1);
    REQUIRE(w["players"].size() == 1);
    REQUIRE(w["objects"].size() == 0);
    REQUIRE(w["obstacles"].size() == 1);
  }
  SECTION("Should stop at max_agents and say how many matched") {
    DescribeWorld q;
    q.max_agents = 2;
    q.max_entities = 1;
    const nlohmann::json w = f.view(q);
    REQUIRE(w["agents"].size() == 2);
    REQUIRE(w["agents_matched"] == 3);
    REQUIRE(w["players"].size() + w["objects"].size() == 1);
    REQUIRE(w["entities_matched"] == 2);
  }
}

TEST_CASE("DescribeWorld shows sleeping places and their agents", "[sim][debug][hibernation]") {
  WorldViewFixture f;
  f.run(40);  // the cellar has no player: it sleeps after quiet_s
  const nlohmann::json w = f.view();
  REQUIRE(w["places"][1]["name"] == "cellar");
  REQUIRE(w["places"][1]["state"] == "asleep");
  REQUIRE(w["places"][1]["sleeping_agents"] == 1);
  REQUIRE(w["places"][1]["asleep_for_s"].get<double>() > 0.0);
  REQUIRE(w["agents"].size() == 3);
  const nlohmann::json& sleeper = w["agents"][2];
  REQUIRE(sleeper["id"] == 3);
  REQUIRE(sleeper["asleep"] == true);
  REQUIRE(sleeper["place"] == "cellar");
  REQUIRE(sleeper["position"] == nlohmann::json::array({105.0, 105.0, 0.0}));
}

TEST_CASE("DescribeWorld answers as a command on the tick thread", "[sim][debug]") {
  WorldViewFixture f;
  std::string answer;
  DescribeWorld q;
  q.reply = [&](const Status& s, const std::string& json) {
    REQUIRE(s.isOk());
    answer = json;
  };
  f.sim.submit({ClientId::kDaemon, 0, std::move(q)});
  REQUIRE(answer.empty());
  f.run(1);
  REQUIRE(nlohmann::json::parse(answer)["agents"].size() == 3);
}
