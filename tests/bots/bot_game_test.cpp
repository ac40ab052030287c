#include "bot_game.h"

#include <catch2/catch.hpp>

namespace npc::bots {
namespace {

Scenario small() {
  Scenario s;
  s.clients = 2;
  s.players.per_client = 2;
  s.players.footstep_hz = 0;
  s.players.gunshot_hz = 0;
  s.players.fight_hz = 0;
  s.npcs.per_client = 3;
  s.npcs.archetypes = {"guard", "villager"};
  s.actions.progress_interval_s = 0;
  return s;
}

v1::Action action(uint64_t agent, uint64_t intention, const char* name) {
  v1::Action a;
  a.set_agent(agent);
  a.set_intention(intention);
  a.set_name(name);
  return a;
}

TEST_CASE("BotGame") {
  SECTION("Should spawn its players and NPCs in the first frame, with disjoint ids") {
    const Scenario s = small();
    BotGame a(s, 0), b(s, 1);
    v1::WorldUpdate update;
    FrameCounts counts;
    a.frame(0.0, 0.0, update, counts);
    REQUIRE(update.upserts_size() == 5);
    CHECK(counts.upserts == 5);
    CHECK(update.upserts(0).kind() == v1::ENTITY_KIND_PLAYER);
    CHECK(update.upserts(0).species() == "human");
    CHECK(update.upserts(2).kind() == v1::ENTITY_KIND_NPC);
    CHECK(update.upserts(2).archetype() == "guard");
    CHECK(update.upserts(3).archetype() == "villager");
    CHECK(a.npcId(0) != b.npcId(0));
    CHECK(b.playerId(0) > a.npcId(2));
  }

  SECTION("Should spawn spawn_per_frame NPCs a frame, and act only for those spawned") {
    Scenario s = small();
    s.npcs.per_client = 5;
    s.npcs.spawn_per_frame = 2;
    s.npcs.updates = NpcSpec::Updates::kAll;
    BotGame game(s, 0);
    std::vector<int> npcs_per_frame;
    for (int f = 0; f < 4; ++f) {
      v1::WorldUpdate update;
      FrameCounts counts;
      game.frame(f * 0.1, f == 0 ? 0.0 : 0.1, update, counts);
      int npcs = 0;
      for (const v1::Entity& e : update.upserts()) npcs += e.kind() == v1::ENTITY_KIND_NPC;
      npcs_per_frame.push_back(npcs);
      if (f == 0) {
        // Orders can only be for NPCs the daemon has: the third is not there yet.
        CHECK(game.start(toOrder(action(game.npcId(1), 1, "Greet")), 0.0));
        CHECK_FALSE(game.start(toOrder(action(game.npcId(2), 2, "Greet")), 0.0));
      }
    }
    // Snapshots of the spawned ones, then the next two: 2, 2 + 2, 4 + 1, 5.
    CHECK(npcs_per_frame == std::vector<int>{2, 4, 5, 5});
    v1::WorldUpdate bye;
    FrameCounts counts;
    game.farewell(bye, counts);
    CHECK(bye.removals_size() == 2 + 5);
  }

  SECTION("Should walk a MoveTo at its speed and complete it on arrival") {
    const Scenario s = small();
    BotGame game(s, 0);
    v1::WorldUpdate update;
    FrameCounts counts;
    game.frame(0.0, 0.0, update, counts);
    const v1::Vec3 start = update.upserts(2).position();

    v1::Action move = action(game.npcId(0), 42, "MoveTo");
    v1::Param* goal = move.add_params();
    goal->set_name("position");
    goal->mutable_position()->set_x(start.x() + 2.f);
    goal->mutable_position()->set_y(start.y());
    v1::Param* speed = move.add_params();
    speed->set_name("speed");
    speed->set_number(1.0);
    speed->set_unit("m/s");
    REQUIRE(game.start(toOrder(move), 0.0));
    CHECK_FALSE(game.start(toOrder(action(12345, 1, "Greet")), 0.0));

    update.Clear();
    counts = {};
    game.frame(1.0, 1.0, update, counts);  // halfway: moving, no result yet
    CHECK(counts.completed == 0);
    // "moving" updates: the players and the one walking NPC.
    REQUIRE(update.upserts_size() == 3);
    CHECK(update.upserts(2).id() == game.npcId(0));
    CHECK(update.upserts(2).position().x() == Approx(start.x() + 1.f));
    CHECK(update.upserts(2).velocity().x() == Approx(1.f));

    update.Clear();
    counts = {};
    game.frame(2.0, 1.0, update, counts);
    REQUIRE(update.results_size() == 1);
    CHECK(update.results(0).intention() == 42);
    CHECK(update.results(0).outcome() == v1::ActionResult::OUTCOME_COMPLETED);
    CHECK(game.runningActions() == 0);
  }

  SECTION("Should complete other actions after their duration, with progress reports") {
    Scenario s = small();
    s.actions.progress_interval_s = 0.5;
    BotGame game(s, 0);
    v1::WorldUpdate update;
    FrameCounts counts;
    game.frame(0.0, 0.0, update, counts);
    v1::Action greet = action(game.npcId(1), 7, "Greet");
    v1::Param* d = greet.add_params();
    d->set_name("duration");
    d->set_number(1.0);
    REQUIRE(game.start(toOrder(greet), 0.0));

    update.Clear();
    counts = {};
    game.frame(0.6, 0.6, update, counts);
    REQUIRE(update.results_size() == 1);
    CHECK(update.results(0).outcome() == v1::ActionResult::OUTCOME_PROGRESS);
    CHECK(update.results(0).progress() == Approx(0.6));

    update.Clear();
    counts = {};
    game.frame(1.0, 0.4, update, counts);
    REQUIRE(update.results_size() == 1);
    CHECK(update.results(0).outcome() == v1::ActionResult::OUTCOME_COMPLETED);
  }

  SECTION("Should fail actions part-way at the failure rate") {
    Scenario s = small();
    s.actions.failure_rate = 1.0;
    BotGame game(s, 0);
    v1::WorldUpdate update;
    FrameCounts counts;
    game.frame(0.0, 0.0, update, counts);
    REQUIRE(game.start(toOrder(action(game.npcId(2), 9, "TurnTo")), 0.0));  // default 1 s
    update.Clear();
    game.frame(0.9, 0.9, update, counts);
    REQUIRE(update.results_size() == 1);
    CHECK(update.results(0).outcome() == v1::ActionResult::OUTCOME_FAILED);
    CHECK_FALSE(update.results(0).reason().empty());
  }

  SECTION("Should stop, without a result, an action the daemon ended itself") {
    const Scenario s = small();
    BotGame game(s, 0);
    v1::WorldUpdate update;
    FrameCounts counts;
    game.frame(0.0, 0.0, update, counts);
    REQUIRE(game.start(toOrder(action(game.npcId(0), 5, "Greet")), 0.0));
    ActionOrder ended;
    ended.agent = game.npcId(0);
    ended.ended_by_daemon = true;
    REQUIRE(game.start(ended, 0.5));
    CHECK(game.endedByDaemon() == 1);
    ended.agent = game.npcId(1);  // nothing running: our own FAILED coming back
    REQUIRE(game.start(ended, 0.5));
    CHECK(game.endedByDaemon() == 1);
    update.Clear();
    game.frame(2.0, 1.5, update, counts);
    CHECK(update.results_size() == 0);
  }

  SECTION("Should send every NPC every frame with updates \"all\"") {
    Scenario s = small();
    s.npcs.updates = NpcSpec::Updates::kAll;
    BotGame game(s, 0);
    v1::WorldUpdate update;
    FrameCounts counts;
    game.frame(0.0, 0.0, update, counts);
    update.Clear();
    game.frame(0.05, 0.05, update, counts);
    CHECK(update.upserts_size() == 5);
  }

  SECTION("Should make noise and fight at their rates") {
    Scenario s = small();
    s.players.footstep_hz = 100;
    s.players.fight_hz = 100;
    BotGame game(s, 0);
    v1::WorldUpdate update;
    FrameCounts counts;
    game.frame(0.0, 0.0, update, counts);
    for (int i = 1; i <= 10; ++i) game.frame(i * 0.1, 0.1, update, counts);
    CHECK(counts.signals > 0);
    CHECK(counts.sounds > counts.signals);
    REQUIRE(update.signals_size() > 0);
    CHECK(update.signals(0).name() == "OnEnemySeen");
    CHECK(update.signals(0).radius() > 0.f);
  }

  SECTION("Should remove everything it created in its farewell") {
    const Scenario s = small();
    BotGame game(s, 0);
    v1::WorldUpdate update;
    FrameCounts counts;
    game.frame(0.0, 0.0, update, counts);
    update.Clear();
    counts = {};
    game.farewell(update, counts);
    CHECK(update.removals_size() == 5);
    CHECK(counts.removals == 5);
  }
}

}  // namespace
}  // namespace npc::bots
