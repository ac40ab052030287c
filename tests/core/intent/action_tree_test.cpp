#include <memory>

#include <catch2/catch.hpp>

#include "intent_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

struct GameFixture : IntentFixture {
  ActionListId own = registry.createOwnList("Human");
  ActionNameId walk = add("Walk", std::make_unique<TimedAction>(10.f));
  ActionNameId shout = add("Shout", std::make_unique<TimedAction>(0.2f));
  ActionNameId move_to = add("MoveTo", std::make_unique<ClientAction>());
  ActionNameId die = add("Die", std::make_unique<TimedAction>(0.f, nullptr, false, gameOnly()));
  ActionNameId fall = add("Fall", std::make_unique<TimedAction>(2.5f, nullptr, false, gameOnly()));
  ActionNameId land = add("Land", std::make_unique<TimedAction>(0.1f, nullptr, false, gameOnly()));
  ActionNameId attack = add("Attack", std::make_unique<ClientAction>());
  GameFixture() { agent.access.setOwn(own); }
  ActionNameId add(const char* n, std::unique_ptr<ActionImpl> impl) {
    registry.addTo(own, n, std::move(impl));
    return names.find(n);
  }
  static ActionTraits gameOnly() {
    ActionTraits t;
    t.game_only = true;
    return t;
  }
};

}  // namespace

TEST_CASE("The game sees and schedules actions the controller cannot", "[intent][action_tree]") {
  GameFixture f;
  f.tree().program(0, f.walk);
  f.game().programGame(3.0, f.land);

  SECTION("Should iterate game actions for the game only") {
    int controller = 0, all = 0;
    f.tree().iterateOnIntentions([&](const Intention&) { ++controller; });
    f.game().iterateOnActions([&](const Intention&) { ++all; });
    REQUIRE(controller == 1);
    REQUIRE(all == 2);
  }
  SECTION("Should not let the controller deprogram or cancel a game action") {
    const IntentionId land = f.agent.queue.at(1).id;
    REQUIRE(f.agent.queue.at(1).gameScheduled());
    REQUIRE(f.tree().deprogram(land) == IntentStatus::kGameOwned);
    REQUIRE(f.tree().cancel(land) == IntentStatus::kGameOwned);
    REQUIRE(f.tree().getIntention(land) != nullptr);  // but it can read it
  }
  SECTION("Should run Die next turn, interrupting the current long action") {
    f.tick();  // Walk runs
    REQUIRE(f.drain() == Lines{"started Walk"});
    // A deadly wound: combat schedules Die for the next turn, coercive.
    REQUIRE(f.game().programGame(f.now, f.die, {}, true).ok());
    f.tick();
    REQUIRE(f.drain() == Lines{"interrupted Walk (preempted)", "started Die", "completed Die"});
  }
}

TEST_CASE("The game schedules the landing at the end of a fall", "[intent][action_tree]") {
  GameFixture f;
  f.tree().program(0, f.walk);
  f.tick();  // t=0..1: Walk runs
  REQUIRE(f.drain() == Lines{"started Walk"});
  // Jumping into a deep hole: the fall now (coercive), the landing when it ends.
  REQUIRE(f.game().programGame(f.now, f.fall, {}, true).ok());
  REQUIRE(f.game().programGame(f.now + 2.5, f.land, {}, true).ok());
  f.tick();  // t=1..2
  REQUIRE(f.drain() == Lines{"interrupted Walk (preempted)", "started Fall"});
  f.tick();  // t=2..3
  REQUIRE(f.drain().empty());
  f.tick();  // t=3..4: the fall ends at 3.5, the landing is due then and runs
  REQUIRE(f.drain() == Lines{"completed Fall", "started Land", "completed Land"});
  REQUIRE(f.seen.back().time_s == Approx(3.6));
  REQUIRE(f.agent.queue.empty());
}

TEST_CASE("setStarted / setCompleted / setProgress / setFailed / setInterrupted",
          "[intent][action_tree]") {
  GameFixture f;
  const IntentionId walk = f.tree().program(0, f.walk).id;
  const IntentionId shout = f.tree().program(0, f.shout).id;
  ActionTree g = f.game();

  SECTION("Should start an intention the game drives itself") {
    REQUIRE(g.setStarted(walk) == IntentStatus::kOk);
    REQUIRE(f.drain() == Lines{"started Walk"});
    REQUIRE(g.getCurrentIntention() == walk);
    REQUIRE(g.getIntention(walk)->phase == IntentionPhase::kGameDriven);
    REQUIRE(g.setStarted(shout) == IntentStatus::kBusy);
    REQUIRE(g.setStarted(walk) == IntentStatus::kNotPending);
    for (int i = 0; i < 100; ++i) f.tick();  // never performed, never timed out
    REQUIRE(f.drain().empty());
    REQUIRE(g.setProgress(walk, 0.5f) == IntentStatus::kOk);
    REQUIRE(g.getProgress(walk) == 0.5f);
    REQUIRE(g.setCompleted(walk) == IntentStatus::kOk);
    REQUIRE(f.drain() == Lines{"completed Walk"});
    REQUIRE(f.seen.back().progress == 1.f);
    f.tick();
    REQUIRE(f.drain() == Lines{"started Shout", "completed Shout"});
  }
  SECTION("Should validate progress and accept it only for the current intention") {
    g.setStarted(walk);
    REQUIRE(g.setProgress(walk, 1.5f) == IntentStatus::kBadProgress);
    REQUIRE(g.setProgress(walk, std::numeric_limits<float>::quiet_NaN()) ==
            IntentStatus::kBadProgress);
    REQUIRE(g.setProgress(shout, 0.5f) == IntentStatus::kNotCurrent);
    REQUIRE(g.setProgress(IntentionId{999}, 0.5f) == IntentStatus::kUnknownIntention);
  }
  SECTION("Should fail and interrupt intentions, pending or current, with a reason") {
    g.setStarted(walk);
    f.drain();
    REQUIRE(g.setFailed(shout, f.name("no_voice")) == IntentStatus::kOk);
    REQUIRE(g.setInterrupted(walk) == IntentStatus::kOk);
    REQUIRE(f.drain() == Lines{"failed Shout (game_failed)", "interrupted Walk (game_interrupted)"});
    REQUIRE(f.names.name(f.seen[1].detail) == "no_voice");  // seen[0]: started Walk
    REQUIRE(f.agent.queue.empty());
    REQUIRE(g.setCompleted(walk) == IntentStatus::kUnknownIntention);
  }
}

TEST_CASE("Client results end client-side actions", "[intent][action_tree]") {
  GameFixture f;
  const ActionArg target = ActionArg::ofPosition({3.f, 4.f, 0.f}, PlaceIndex{0});
  const IntentionId move = f.tree().program(0, f.move_to, {&target, 1}).id;
  const IntentionId shout = f.tree().program(0, f.shout).id;
  f.tick();
  REQUIRE(f.drain() == Lines{"started MoveTo"});
  ActionTree g = f.game();

  SECTION("Should complete on the client's report, then run the next intention") {
    REQUIRE(g.clientResult(move, ClientOutcome::kProgress, 0.4f) == IntentStatus::kOk);
    REQUIRE(g.getProgress(move) == 0.4f);
    REQUIRE(g.clientResult(move, ClientOutcome::kCompleted) == IntentStatus::kOk);
    REQUIRE(f.drain() == Lines{"completed MoveTo"});
    f.tick();
    REQUIRE(f.drain() == Lines{"started Shout", "completed Shout"});
  }
  SECTION("Should fail on the client's report") {
    REQUIRE(g.clientResult(move, ClientOutcome::kFailed) == IntentStatus::kOk);
    REQUIRE(f.drain() == Lines{"failed MoveTo (client_failed)"});
  }
  SECTION("Should refuse results for intentions that were not sent to the client") {
    REQUIRE(g.clientResult(shout, ClientOutcome::kCompleted) == IntentStatus::kNotCurrent);
    REQUIRE(g.clientResult(IntentionId{999}, ClientOutcome::kCompleted) ==
            IntentStatus::kUnknownIntention);
    REQUIRE(g.clientResult(move, ClientOutcome::kProgress, -0.1f) == IntentStatus::kBadProgress);
  }
}

TEST_CASE("Coercive external actions interrupt at once, others let the action run",
          "[intent][action_tree][coercive]") {
  GameFixture f;
  ActionTraits coercive;
  coercive.coercive = true;
  f.registry.add("Stab", std::make_unique<TimedAction>(0.5f, nullptr, false, coercive));
  const IntentionId walk = f.tree().program(0, f.walk).id;
  f.tick();
  f.drain();
  const EntityId attacker{99};

  SECTION("Should interrupt the current long action immediately when coercive") {
    REQUIRE(f.game().receiveExternal(attacker, f.name("Stab")));
    REQUIRE(f.drain() == Lines{"interrupted Walk (coerced)"});
    REQUIRE(f.seen.back().subject == attacker);
    REQUIRE(f.seen.back().progress == Approx(0.1f));
    REQUIRE(f.tree().getCurrentIntention() == IntentionId::kNone);
    f.tick();  // nothing performed this turn
    REQUIRE(f.drain().empty());
  }
  SECTION("Should let the current action continue this turn when not coercive") {
    REQUIRE_FALSE(f.game().receiveExternal(attacker, f.name("Talk")));
    f.tick();
    REQUIRE(f.drain().empty());
    REQUIRE(f.tree().getProgress(walk) == Approx(0.2f));
    // At the end of the turn the controller chooses to react: it cancels.
    REQUIRE(f.tree().cancel(walk) == IntentStatus::kOk);
    REQUIRE(f.drain() == Lines{"interrupted Walk (cancelled)"});
  }
  SECTION("Should do nothing to an agent with no current action") {
    f.tree().cancel(walk);
    f.drain();
    REQUIRE_FALSE(f.game().receiveExternal(attacker, true));
    REQUIRE(f.drain().empty());
  }
  SECTION("Should not interrupt a game-scheduled action such as a fall") {
    f.game().programGame(f.now, f.fall, {}, true);
    f.tick();
    REQUIRE(f.drain() == Lines{"interrupted Walk (preempted)", "started Fall"});
    REQUIRE_FALSE(f.game().receiveExternal(attacker, true));
    REQUIRE(f.drain().empty());
  }
}
