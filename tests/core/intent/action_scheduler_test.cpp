#include <memory>

#include <catch2/catch.hpp>

#include "intent/action_out.h"
#include "intent_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

struct SchedFixture : IntentFixture {
  Switches sw;
  ActionListId own = registry.createOwnList("Worker");
  ActionNameId step = add("Step", std::make_unique<TimedAction>(0.3f, &sw));       // short
  ActionNameId dig = add("Dig", std::make_unique<TimedAction>(2.5f, &sw));         // long
  ActionNameId trip = add("Trip", std::make_unique<TimedAction>(0.4f, &sw, true)); // fails
  ActionNameId move_to = add("MoveTo", std::make_unique<ClientAction>());
  ActionNameId shoot = add("Shoot", std::make_unique<ClientAction>(2.f));          // own timeout
  SchedFixture() { agent.access.setOwn(own); }
  ActionNameId add(const char* n, std::unique_ptr<ActionImpl> impl) {
    registry.addTo(own, n, std::move(impl));
    return names.find(n);
  }
};

}  // namespace

TEST_CASE("Simplest case: one action, checked by MayStart", "[intent][scheduler]") {
  SchedFixture f;
  const IntentionId id = f.tree().program(0, f.step).id;

  SECTION("Should start and complete an acceptable action") {
    REQUIRE(f.tick() == TurnStatus::kRan);
    REQUIRE(f.drain() == Lines{"started Step", "completed Step"});
    REQUIRE(f.seen[0].intention == id);
    REQUIRE(f.seen[0].agent == f.agent_id);
    REQUIRE(f.seen[0].time_s == 0.0);
    REQUIRE(f.seen[1].time_s == Approx(0.3));
    REQUIRE(f.agent.queue.empty());
  }
  SECTION("Should fail an action MayStart refuses, without starting it") {
    f.sw.may_start = false;
    f.tick();
    REQUIRE(f.drain() == Lines{"failed Step (may_start_refused)"});
    REQUIRE(f.sw.performs == 0);
  }
  SECTION("Should fail an action whose initialisation fails") {
    f.sw.init_ok = false;
    f.tick();
    REQUIRE(f.drain() == Lines{"failed Step (init_failed)"});
    REQUIRE(f.sw.performs == 0);
  }
  SECTION("Should not start an intention before its date") {
    f.tree().deprogram(id);
    f.tree().program(2.0, f.step);
    f.tick();  // 0..1
    f.tick();  // 1..2
    REQUIRE(f.drain().empty());
    f.tick();  // 2..3
    REQUIRE(f.drain() == Lines{"started Step", "completed Step"});
    REQUIRE(f.seen[0].time_s == 2.0);
  }
}

TEST_CASE("Long action case: progress, MayContinue", "[intent][scheduler]") {
  SchedFixture f;
  const IntentionId id = f.tree().program(0, f.dig).id;

  SECTION("Should continue across turns with progress, then complete") {
    f.tick();
    REQUIRE(f.drain() == Lines{"started Dig"});
    REQUIRE(f.tree().getProgress(id) == Approx(0.4f));
    REQUIRE(f.tree().getCurrentIntention() == id);
    f.tick();
    REQUIRE(f.tree().getProgress(id) == Approx(0.8f));
    REQUIRE(f.drain().empty());
    f.tick();
    REQUIRE(f.drain() == Lines{"completed Dig"});
    REQUIRE(f.seen.back().time_s == Approx(2.5));
    REQUIRE(f.sw.performs == 3);
  }
  SECTION("Should interrupt it when MayContinue refuses") {
    f.tick();
    f.sw.may_continue = false;
    f.tick();
    REQUIRE(f.drain() == Lines{"started Dig", "interrupted Dig (may_continue_refused)"});
    REQUIRE(f.sw.performs == 1);
    REQUIRE(f.tree().getCurrentIntention() == IntentionId::kNone);
  }
  SECTION("Should keep later intentions waiting while it runs") {
    f.tree().program(0, f.step);
    f.tick();
    f.tick();
    REQUIRE(f.drain() == Lines{"started Dig"});
    f.tick();  // Dig ends at 2.5, Step fits in what is left of the quantum
    REQUIRE(f.drain() == Lines{"completed Dig", "started Step", "completed Step"});
    REQUIRE(f.seen.back().time_s == Approx(2.8));
  }
}

TEST_CASE("Consecutive actions case: short actions share the quantum", "[intent][scheduler]") {
  SchedFixture f;
  DecisionTree t = f.tree();
  for (int i = 0; i < 4; ++i) t.program(0, f.step);  // 4 × 0.3 s in a 1 s quantum

  SECTION("Should run as many as fit, and the rest next turn") {
    f.tick();
    REQUIRE(f.drain() == Lines{"started Step", "completed Step", "started Step", "completed Step",
                               "started Step", "completed Step", "started Step"});
    // The fourth started at 0.9 and continues: 0.1 of 0.3 s done.
    REQUIRE(f.seen.back().time_s == Approx(0.9));
    f.tick();
    REQUIRE(f.drain() == Lines{"completed Step"});
    REQUIRE(f.seen.back().time_s == Approx(1.2));
  }
  SECTION("Should try the next action after a failure, with the time the failure took") {
    f.agent = {};
    f.agent.access.setOwn(f.own);
    f.tree().program(0, f.trip);  // fails after 0.4 s
    f.tree().program(0, f.step);
    f.tick();
    REQUIRE(f.drain() == Lines{"started Trip", "failed Trip (perform_failed)", "started Step",
                               "completed Step"});
    REQUIRE(f.seen.back().time_s == Approx(0.7));
  }
  SECTION("Should run everything in one turn with a large quantum") {
    f.quantum = 10.f;
    f.tick();
    REQUIRE(f.drain().size() == 8);
    REQUIRE(f.agent.queue.empty());
  }
}

TEST_CASE("An action that overruns the quantum delays the next one", "[intent][scheduler]") {
  SchedFixture f;
  f.tree().program(0, f.trip,
                   std::vector<ActionArg>{ActionArg::ofValue(2.5, ActionNameId::kNone)});
  f.tree().program(0, f.step);
  f.tick();  // Trip fails after 2.5 s of a 1 s quantum
  REQUIRE(f.drain() == Lines{"started Trip", "failed Trip (perform_failed)"});
  REQUIRE(f.agent.queue.busyUntil() == Approx(2.5));
  f.tick();  // 1..2: still busy giving up
  REQUIRE(f.drain().empty());
  f.tick();  // 2..3: Step at 2.5
  REQUIRE(f.drain() == Lines{"started Step", "completed Step"});
  REQUIRE(f.seen[2].time_s == Approx(2.5));
}

TEST_CASE("No action case: nothing to do", "[intent][scheduler]") {
  SchedFixture f;
  REQUIRE(f.tick() == TurnStatus::kRan);  // a new agent is looked at once
  REQUIRE(f.tick() == TurnStatus::kSkipped);
  REQUIRE(f.drain().empty());
  REQUIRE(f.tree().getCurrentIntention() == IntentionId::kNone);
  f.tree().program(0, f.step);  // any change wakes it
  REQUIRE(f.tick() == TurnStatus::kRan);
  REQUIRE(f.drain() == Lines{"started Step", "completed Step"});
  REQUIRE(f.tick() == TurnStatus::kSkipped);
}

TEST_CASE("skipsTurn answers as update() would, and counts the same", "[intent][scheduler]") {
  SchedFixture f;
  REQUIRE_FALSE(f.scheduler.skipsTurn(f.agent, f.now));  // a new agent is looked at once
  REQUIRE(f.tick() == TurnStatus::kRan);
  const SchedulerStats before = f.scheduler.stats();
  REQUIRE(f.scheduler.skipsTurn(f.agent, f.now));
  REQUIRE(f.scheduler.stats().turns == before.turns + 1);
  REQUIRE(f.scheduler.stats().skipped == before.skipped + 1);
  f.tree().program(0, f.step);  // any change wakes it, for both
  REQUIRE_FALSE(f.scheduler.skipsTurn(f.agent, f.now));
  REQUIRE(f.scheduler.stats().turns == before.turns + 1);  // a refusal counts nothing
  REQUIRE(f.tick() == TurnStatus::kRan);
}

TEST_CASE("due answers as skipsTurn does, and counts nothing", "[intent][scheduler]") {
  SchedFixture f;
  REQUIRE(f.scheduler.due(f.agent, f.now));  // a new agent is looked at once
  REQUIRE(f.tick() == TurnStatus::kRan);
  const SchedulerStats before = f.scheduler.stats();
  REQUIRE_FALSE(f.scheduler.due(f.agent, f.now));
  REQUIRE(f.scheduler.stats().turns == before.turns);
  REQUIRE(f.scheduler.stats().skipped == before.skipped);
  f.scheduler.countSkipped(3);  // what a pass that sorted agents out with due() left out
  REQUIRE(f.scheduler.stats().turns == before.turns + 3);
  REQUIRE(f.scheduler.stats().skipped == before.skipped + 3);
  f.tree().program(0, f.step);  // any change wakes it
  REQUIRE(f.scheduler.due(f.agent, f.now));
  REQUIRE(f.tick() == TurnStatus::kRan);
  REQUIRE_FALSE(f.scheduler.due(f.agent, f.now));
}

TEST_CASE("Lookup failures are Failed events, not crashes", "[intent][scheduler]") {
  SchedFixture f;
  const ActionListId wings = f.registry.createInfluence("spell:wings", 1);
  f.registry.addTo(wings, "Fly", std::make_unique<TimedAction>(5.f));
  const ActionNameId fly = f.names.find("Fly");
  f.tree().program(0, fly);
  f.tree().program(0, f.step);
  f.tick();
  REQUIRE(f.drain() == Lines{"failed Fly (not_available)", "started Step", "completed Step"});
  REQUIRE(describeEvent(f.seen[0], f.names) ==
          "agent 7: intention 1 \"Fly\" failed: cannot perform \"Fly\": not among the agent's "
          "own actions nor its influences'");
}

TEST_CASE("Removing an influence stops what it provided", "[intent][scheduler][influence]") {
  SchedFixture f;
  const ActionListId wings = f.registry.createInfluence("spell:wings", 1);
  f.registry.addTo(wings, "Fly", std::make_unique<TimedAction>(5.f));
  const ActionListId horse = f.registry.createInfluence("vehicle:horse", 0);
  f.registry.addTo(horse, "Fly", std::make_unique<TimedAction>(5.f));
  const ActionNameId fly = f.names.find("Fly");
  f.registry.addInfluence(f.agent.access, wings);
  const IntentionId id = f.tree().program(0, fly).id;
  f.tick();
  REQUIRE(f.drain() == Lines{"started Fly"});
  REQUIRE(f.tree().getIntention(id)->source == wings);

  SECTION("Should interrupt the running action when its influence ends") {
    f.agent.access.removeInfluence(wings);  // the spell ended
    f.tick();
    REQUIRE(f.drain() == Lines{"interrupted Fly (action_unavailable)"});
    REQUIRE(describeEvent(f.seen.back(), f.names) ==
            "agent 7: intention 1 \"Fly\" interrupted: the influence providing \"Fly\" was "
            "removed at 20%");
    f.tree().program(f.now, fly);
    f.tick();  // you can't fly anymore
    REQUIRE(f.drain() == Lines{"failed Fly (not_available)"});
  }
  SECTION("Should keep it running when another influence changes") {
    f.registry.addInfluence(f.agent.access, horse);
    f.tick();
    REQUIRE(f.drain().empty());
    REQUIRE(f.tree().getProgress(id) == Approx(0.4f));
  }
  SECTION("Should let a later intention use the next influence's implementation") {
    f.registry.addInfluence(f.agent.access, horse);
    f.agent.access.removeInfluence(wings);
    const IntentionId next = f.tree().program(0, fly).id;
    f.tick();
    REQUIRE(f.drain() == Lines{"interrupted Fly (action_unavailable)", "started Fly"});
    REQUIRE(f.tree().getIntention(next)->source == horse);
  }
}

TEST_CASE("Client-side actions are emitted and wait for the client", "[intent][scheduler][client]") {
  SchedFixture f;
  const ActionArg target = ActionArg::ofEntity(EntityId{42}, ArgRole::kReceiver);
  const IntentionId move = f.tree().program(0, f.move_to, {&target, 1}).id;
  f.tree().program(0, f.step);
  f.tick();
  REQUIRE(f.drain() == Lines{"started MoveTo"});
  const auto starts = f.drainStarts();

  SECTION("Should emit the intention id, name and arguments") {
    REQUIRE(starts.size() == 1);
    REQUIRE(starts[0].agent == f.agent_id);
    REQUIRE(starts[0].intention == move);
    REQUIRE(starts[0].action == f.move_to);
    REQUIRE(starts[0].arg_count == 1);
    REQUIRE(starts[0].args[0] == target);
    REQUIRE(f.tree().getIntention(move)->phase == IntentionPhase::kAwaitingClient);
  }
  SECTION("Should block later intentions and skip the agent while it waits") {
    const uint64_t skipped = f.scheduler.stats().skipped;
    for (int i = 0; i < 5; ++i) REQUIRE(f.tick() == TurnStatus::kSkipped);
    REQUIRE(f.scheduler.stats().skipped == skipped + 5);
    REQUIRE(f.drain().empty());
    REQUIRE(f.drainStarts().empty());
  }
  SECTION("Should start the next intention on the turn after the result") {
    f.tick();
    f.game().clientResult(move, ClientOutcome::kCompleted);
    f.tick();
    REQUIRE(f.drain() == Lines{"completed MoveTo", "started Step", "completed Step"});
  }
  SECTION("Should fail with a timeout when the client never answers") {
    f.client_timeout = 3.f;
    f.agent = {};
    f.agent.access.setOwn(f.own);
    f.now = 0;
    const IntentionId again = f.tree().program(0, f.move_to).id;
    f.tick();  // t=0: sent, deadline 3
    f.tick();
    f.tick();
    REQUIRE(f.drain() == Lines{"started MoveTo"});
    f.tick();  // t=3
    REQUIRE(f.drain() == Lines{"failed MoveTo (timeout)"});
    REQUIRE(describeEvent(f.seen.back(), f.names) ==
            "agent 7: intention " + std::to_string(raw(again)) +
                " \"MoveTo\" failed: no result from the game within the action timeout");
    REQUIRE(f.game().clientResult(again, ClientOutcome::kCompleted) ==
            IntentStatus::kUnknownIntention);
  }
  SECTION("Should prefer the action's own timeout") {
    f.agent = {};
    f.agent.access.setOwn(f.own);
    f.now = 0;
    f.tree().program(0, f.shoot);  // 2 s
    f.tick();
    f.tick();
    f.tick();
    REQUIRE(f.drain() == Lines{"started Shoot", "failed Shoot (timeout)"});
  }
  SECTION("Should fail client-side actions with more arguments than ActionOut carries") {
    f.game().clientResult(move, ClientOutcome::kCompleted);
    f.drain();
    f.agent = {};
    f.agent.access.setOwn(f.own);
    std::vector<ActionArg> five(5, target);
    f.tree().program(0, f.move_to, five);
    f.tick();
    REQUIRE(f.drain() == Lines{"failed MoveTo (too_many_client_args)"});
    REQUIRE(f.drainStarts().empty());
  }
}

TEST_CASE("The scheduler needs room for a whole turn", "[intent][scheduler]") {
  SchedFixture f;
  f.tree().program(0, f.move_to);
  std::vector<IntentionEvent> few(ActionScheduler::kMaxEventsPerTurn - 1);
  BoundedBuffer<IntentionEvent> small(few);
  AgentTurn turn;
  turn.agent = f.agent_id;
  turn.quantum_s = 1.f;
  REQUIRE(f.scheduler.update(f.agent, turn, f.starts, small) == TurnStatus::kNoRoom);
  REQUIRE(small.empty());
  REQUIRE(f.agent.queue.current() == nullptr);
  REQUIRE(f.scheduler.stats().no_room == 1);
  std::vector<ClientActionStart> none;
  BoundedBuffer<ClientActionStart> no_starts(none);
  REQUIRE(f.scheduler.update(f.agent, turn, no_starts, f.events) == TurnStatus::kNoRoom);
  REQUIRE(f.scheduler.update(f.agent, turn, f.starts, f.events) == TurnStatus::kRan);
  REQUIRE(f.starts.size() == 1);
}

TEST_CASE("Coercive game actions preempt; non-coercive ones wait their turn",
          "[intent][scheduler][coercive]") {
  SchedFixture f;
  f.tree().program(0, f.dig);
  f.tick();
  f.drain();

  SECTION("Should interrupt the long action when a coercive one is due") {
    f.game().programGame(f.now, f.step, {}, true);
    f.tick();
    REQUIRE(f.drain() == Lines{"interrupted Dig (preempted)", "started Step", "completed Step"});
  }
  SECTION("Should let the long action run when the game action is not coercive") {
    f.game().programGame(f.now, f.step, {}, false);
    f.tick();
    REQUIRE(f.drain().empty());
    f.tick();  // Dig ends at 2.5
    REQUIRE(f.drain() == Lines{"completed Dig", "started Step", "completed Step"});
  }
  SECTION("Should start a due coercive action before earlier-programmed ones") {
    f.tree().cancel(f.tree().getCurrentIntention());
    f.tree().program(0, f.step);
    f.game().programGame(f.now, f.trip, {}, true);
    f.drain();
    f.tick();
    REQUIRE(f.drain() == Lines{"started Trip", "failed Trip (perform_failed)", "started Step",
                               "completed Step"});
  }
}

TEST_CASE("Wait waits for a delay given with a unit", "[intent][scheduler][wait]") {
  IntentFixture f;
  const ActionListId own = f.registry.createOwnList("Anyone");
  f.registry.addTo(own, "Wait", std::make_unique<WaitAction>(f.names));
  f.agent.access.setOwn(own);
  const ActionNameId wait = f.names.find("Wait");

  SECTION("Should convert the unit and report progress") {
    const IntentionId id =
        f.tree().program(0, wait, std::vector{ActionArg::ofValue(1500, f.name("ms"))}).id;
    f.tick();
    REQUIRE(f.tree().getProgress(id) == Approx(2.0 / 3.0));
    f.tick();
    REQUIRE(f.drain() == Lines{"started Wait", "completed Wait"});
    REQUIRE(f.seen.back().time_s == Approx(1.5));
  }
  SECTION("Should read an empty unit as seconds, as behavior trees' numbers carry") {
    f.tree().program(0, wait, std::vector{ActionArg::ofValue(1.5, f.name(""))});
    f.tick();
    f.tick();
    REQUIRE(f.drain() == Lines{"started Wait", "completed Wait"});
    REQUIRE(f.seen.back().time_s == Approx(1.5));
  }
  SECTION("Should fail to initialise without a delay or with an unknown unit") {
    f.tree().program(0, wait);
    f.tree().program(0, wait, std::vector{ActionArg::ofValue(2, f.name("furlong"))});
    f.tree().program(0, wait, std::vector{ActionArg::ofValue(-1, f.name("s"))});
    f.tick();
    REQUIRE(f.drain() == Lines{"failed Wait (init_failed)", "failed Wait (init_failed)",
                               "failed Wait (init_failed)"});
  }
}

TEST_CASE("Scheduling is deterministic", "[intent][scheduler]") {
  auto run = [] {
    SchedFixture f;
    std::vector<IntentionEvent> all;
    for (int tick = 0; tick < 40; ++tick) {
      if (f.agent.queue.size() < 4) {
        const ActionNameId pick[] = {f.step, f.dig, f.trip, f.move_to, f.shoot};
        f.tree().program(f.now + (tick % 3) * 0.5, pick[tick % 5]);
      }
      if (tick % 7 == 3) f.game().receiveExternal(EntityId{9}, true);
      f.tick();
      f.drain();
    }
    return f.seen;
  };
  const std::vector<IntentionEvent> a = run(), b = run();
  REQUIRE(a.size() > 20);
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    REQUIRE(a[i].intention == b[i].intention);
    REQUIRE(a[i].kind == b[i].kind);
    REQUIRE(a[i].reason == b[i].reason);
    REQUIRE(a[i].action == b[i].action);
    REQUIRE(a[i].time_s == b[i].time_s);
    REQUIRE(a[i].progress == b[i].progress);
  }
}
