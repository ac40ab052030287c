// Navigation in the simulation (core/sim/sim_navigation.cpp, issue 23): a world file's
// navmesh block builds the mesh at start-up; MoveTo targets are snapped onto it, and a
// MoveTo no path reaches fails with the reason instead of going out; one whose check ran out
// of nodes goes out and is searched on over ticks; GetAgent shows the last check.
#include <cstring>
#include <memory>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "../nav/nav_test_support.h"
#include "sim/sim_navigation.h"
#include "sim/simulation.h"
#include "sim/world_file.h"
#include "sim_fixture.h"

using namespace npc;

namespace {

// The navigation tests' level (floor A with a wall, island B) as the world's geometry.
std::string levelDir() { return nav::test::writeLevel("npcd_nav_world"); }

struct NavWorld {
  Simulation sim{SimConfig{}, test::testArchetypes()};

  explicit NavWorld(const std::string& navmesh_block) {
    WorldFile w;
    std::vector<std::string> errors;
    const std::string text = R"({ "places": [ { "name": "field", "min": [-5, -5, -2], "max": [65, 45, 10] } ],
                                  "navmesh": )" + navmesh_block + " }";
    REQUIRE(parseWorldFile(levelDir() + "/world.json", text, w, errors));
    REQUIRE(applyWorldFile(w, sim, errors));
    REQUIRE(errors.empty());
    sim.submit(test::upsert(1, EntityKind::kNpc, {10, 5, 0}, "statue"));
    sim.tick();
  }

  // Programs a MoveTo to `to`; returns the tick's output.
  const TickOutput& moveTo(Vec3 to) {
    IntentionParam p;
    p.type = IntentionParam::Type::kPosition;
    p.name = "position";
    p.position = to;
    ProgramIntention c{EntityId{1}, "MoveTo", 0.0, {p}, IntentionId::kNone, [](const Status& s, IntentionId) {
                         REQUIRE(s.isOk());
                       }};
    sim.submit({ClientId{7}, 0, std::move(c)});
    sim.tick();
    return sim.output();
  }

  nlohmann::json view() {
    std::string json;
    REQUIRE(sim.describeAgent(EntityId{1}, json).isOk());
    return nlohmann::json::parse(json);
  }
};

}  // namespace

TEST_CASE("A world file's navmesh block builds the mesh when the world is applied") {
  NavWorld w(R"({ "geometry": "level.obj", "build": { "agent_radius_m": 0.5 } })");
  REQUIRE(w.sim.navigation() != nullptr);
  CHECK(w.sim.navigation()->mesh.tileCount() > 0);

  SECTION("Should refuse the world when the geometry is missing, naming the file") {
    WorldFile bad;
    std::vector<std::string> errors;
    REQUIRE(parseWorldFile("/nonexistent/world.json", R"({ "navmesh": { "geometry": "gone.obj" } })",
                           bad, errors));
    Simulation sim(SimConfig{}, test::testArchetypes());
    CHECK_FALSE(applyWorldFile(bad, sim, errors));
    CHECK(errors == std::vector<std::string>{
                        "/nonexistent/world.json: /navmesh: /nonexistent/gone.obj: cannot read"});
    CHECK(sim.navigation() == nullptr);
  }
  SECTION("Should refuse a bad block with the world file's name and the JSON path") {
    WorldFile bad;
    std::vector<std::string> errors;
    CHECK_FALSE(parseWorldFile("world.json", R"({ "navmesh": { "geometry": "a.obj", "build": { "cell_size_m": 9 } } })",
                               bad, errors));
    CHECK(errors == std::vector<std::string>{
                        "world.json:1:63: /navmesh/build/cell_size_m: must be in [0.05, 2] (got 9)"});
  }
}

TEST_CASE("A MoveTo goes out with its target snapped onto the navmesh") {
  NavWorld w(R"({ "geometry": "level.obj" })");
  const TickOutput& out = w.moveTo({30, 35, 1.5f});  // 1.5 m above the floor
  const ActionOut* move = test::findAction(out, 1);
  REQUIRE(move != nullptr);
  REQUIRE(move->params[0].type == ActionParam::Type::kPosition);
  CHECK(move->params[0].position.x == Approx(30.f).margin(0.01f));
  CHECK(move->params[0].position.y == Approx(35.f).margin(0.01f));
  CHECK(move->params[0].position.z == Approx(0.f).margin(0.3f));
  const nlohmann::json nav = w.view()["navigation"]["last_move_to"];
  CHECK(nav["result"] == "ok");
  // Round the wall's end: from (10, 5) to (30, 35) is longer than the 36 m straight line.
  CHECK(nav["length_m"].get<float>() > 36.f);
  // The corners to draw: from where the agent stood to the snapped target.
  const nlohmann::json& corners = nav["corners"];
  REQUIRE(corners.size() >= 3);
  CHECK(corners[0][0].get<float>() == Approx(10.f).margin(0.1f));
  CHECK(corners.back()[0].get<float>() == Approx(30.f).margin(0.1f));
  CHECK(corners.back()[1].get<float>() == Approx(35.f).margin(0.1f));
}

TEST_CASE("A MoveTo no path reaches fails with the reason and is not sent") {
  NavWorld w(R"({ "geometry": "level.obj" })");
  SECTION("Should fail a target on an island") {
    const TickOutput& out = w.moveTo({55, 5, 0});
    CHECK(test::findAction(out, 1) == nullptr);
    const auto failed = test::eventsOf(out, EventKind::kIntentionFailed);
    REQUIRE(failed.size() == 1);
    CHECK(failed[0].text.ends_with(
        ": unreachable: no path on the navmesh from (10.0, 5.0, 0.0) to (55.0, 5.0, 0.0)"));
    CHECK(w.view()["navigation"]["last_move_to"]["result"] == "unreachable");
  }
  SECTION("Should fail a target off the mesh (a roof 8 m up)") {
    const TickOutput& out = w.moveTo({30, 35, 8});
    CHECK(test::findAction(out, 1) == nullptr);
    const auto failed = test::eventsOf(out, EventKind::kIntentionFailed);
    REQUIRE(failed.size() == 1);
    CHECK(failed[0].text.ends_with(": unreachable: the target (30.0, 35.0, 8.0) is off the navmesh"));
    CHECK(w.view()["navigation"]["last_move_to"]["result"] == "off_mesh");
  }
}

TEST_CASE("A MoveTo whose check ran out of nodes goes out and is searched on over ticks") {
  // 3.2 m tiles and a query that gives up after 16 polygons: every walk here is a long one,
  // searched on 16 polygons a tick.
  NavWorld w(R"({ "geometry": "level.obj", "build": { "cell_size_m": 0.2, "tile_size_cells": 16 },
                  "query": { "max_nodes": 16 }, "long_search": { "iterations_per_tick": 16 } })");
  auto tickUntilAnswered = [&] {
    int ticks = 0;
    while (w.sim.stats().nav_long_searches_waiting > 0 && ticks < 2000) {
      w.sim.tick();
      ++ticks;
      if (!test::eventsOf(w.sim.output(), EventKind::kIntentionFailed).empty()) break;
    }
    return ticks;
  };
  SECTION("Should fail the MoveTo when the longer search finds no path") {
    const TickOutput& out = w.moveTo({55, 5, 0});  // the island
    REQUIRE(test::findAction(out, 1) != nullptr);  // no evidence yet: it went out
    CHECK(test::eventsOf(out, EventKind::kIntentionFailed).empty());
    CHECK(w.sim.stats().nav_long_searches_waiting == 1);
    nlohmann::json nav = w.view()["navigation"]["last_move_to"];
    CHECK(nav["result"] == "search_limit");
    CHECK(nav["long_search"]["state"] == "waiting");

    const int ticks = tickUntilAnswered();
    CHECK(ticks > 2);  // floor A searched through, 16 polygons a tick
    const auto failed = test::eventsOf(w.sim.output(), EventKind::kIntentionFailed);
    REQUIRE(failed.size() == 1);
    CHECK(failed[0].text.ends_with(": unreachable: no path on the navmesh from (10.0, 5.0, 0.0) to "
                                   "(55.0, 5.0, 0.0) (found by a longer search)"));
    nav = w.view()["navigation"]["last_move_to"];
    CHECK(nav["result"] == "unreachable");
    CHECK(nav["long_search"]["state"] == "done");
    CHECK(nav["long_search"]["iterations"].get<int>() > 16);
    CHECK(w.sim.stats().nav_long_searches_done == 1);
    CHECK(w.sim.stats().nav_long_searches_waiting == 0);
  }
  SECTION("Should leave a reachable MoveTo running and show the path found") {
    w.moveTo({30, 5, 0});  // round the wall's end
    tickUntilAnswered();
    CHECK(test::eventsOf(w.sim.output(), EventKind::kIntentionFailed).empty());
    CHECK(w.sim.stats().nav_long_searches_done == 1);
    const nlohmann::json nav = w.view()["navigation"]["last_move_to"];
    CHECK(nav["result"] == "ok");
    CHECK(nav["length_m"].get<float>() > 53.f);
    CHECK(nav["corners"].size() >= 3);
    CHECK(nav["long_search"]["state"] == "done");
  }
  SECTION("Should let a MoveTo go unchecked when the queue is full, and count it") {
    NavWorld full(R"({ "geometry": "level.obj", "build": { "cell_size_m": 0.2, "tile_size_cells": 16 },
                       "query": { "max_nodes": 16 }, "long_search": { "capacity": 1, "iterations_per_tick": 1 } })");
    full.sim.submit(test::upsert(2, EntityKind::kNpc, {10, 8, 0}, "statue"));
    full.moveTo({30, 5, 0});
    IntentionParam p;
    p.type = IntentionParam::Type::kPosition;
    p.name = "position";
    p.position = {55, 5, 0};
    full.sim.submit({ClientId{7}, 0, ProgramIntention{EntityId{2}, "MoveTo", 0.0, {p}, IntentionId::kNone,
                                                      [](const Status& s, IntentionId) { REQUIRE(s.isOk()); }}});
    full.sim.tick();
    CHECK(test::findAction(full.sim.output(), 2) != nullptr);
    CHECK(full.sim.stats().nav_long_searches_refused == 1);
    std::string json;
    REQUIRE(full.sim.describeAgent(EntityId{2}, json).isOk());
    CHECK(nlohmann::json::parse(json)["navigation"]["last_move_to"]["long_search"]["state"] ==
          "refused: queue full");
  }
}

TEST_CASE("Obstacle commands change the navmesh on the ticks that apply them") {
  NavWorld w(R"({ "geometry": "level.obj" })");
  // A cart across the only gap in the wall (x 19.5..20.5, open at y 30..40).
  const Obstacle cart{ObstacleId{9}, {{18.f, 28.f, 0.f}, {22.f, 42.f, 2.f}}};
  const uint32_t before = w.sim.navigation()->mesh.generation();
  w.sim.submit({ClientId::kDaemon, 0, UpsertObstacle{cart}});
  SECTION("Should refuse a MoveTo through the closed gap") {
    const TickOutput& out = w.moveTo({30, 35, 0});
    CHECK(w.sim.navigation()->mesh.generation() != before);
    CHECK(test::findAction(out, 1) == nullptr);
    CHECK(w.view()["navigation"]["last_move_to"]["result"] == "unreachable");
    CHECK(w.sim.stats().nav_tile_rebuilds > 0);
    CHECK(w.sim.stats().nav_obstacle_changes_waiting == 0);
  }
  SECTION("Should reopen the gap when the cart is removed") {
    w.sim.tick();
    w.sim.submit({ClientId::kDaemon, 0, RemoveObstacle{cart.id}});
    const TickOutput& out = w.moveTo({30, 35, 0});
    CHECK(test::findAction(out, 1) != nullptr);
    CHECK(w.view()["navigation"]["last_move_to"]["result"] == "ok");
  }
}

TEST_CASE("An obstacle box too wide for one change is refused by the navmesh, not by sight") {
  NavWorld w(R"({ "geometry": "level.obj", "build": { "max_obstacle_tiles": 4 } })");
  // Over all 12 tiles of the level: its change would rebuild them all in one tick.
  const Obstacle tent{ObstacleId{11}, {{-10.f, -10.f, 0.f}, {70.f, 50.f, 2.f}}};
  const uint32_t before = w.sim.navigation()->mesh.generation();
  w.sim.submit({ClientId{7}, 41, UpsertObstacle{tent}});
  w.sim.tick();
  const auto errors = test::eventsOf(w.sim.output(), EventKind::kError);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].to == ClientId{7});
  CHECK_THAT(errors[0].text, Catch::Matchers::Contains("obstacle 11: the box covers"));
  CHECK_THAT(errors[0].text, Catch::Matchers::Contains("navmesh.build.max_obstacle_tiles"));
  CHECK(w.sim.navigation()->mesh.generation() == before);
  CHECK(w.sim.world().obstacles().size() == 1);  // it still blocks sight
}
