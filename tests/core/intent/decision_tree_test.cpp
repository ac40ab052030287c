#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include <catch2/catch.hpp>

#include "base/rng.h"
#include "intent_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

struct TreeFixture : IntentFixture {
  ActionListId own = registry.createOwnList("Worker");
  ActionNameId a = add("A", 0.1f), b = add("B", 0.1f), c = add("C", 0.1f), wait = add("Work", 5.f);
  TreeFixture() { agent.access.setOwn(own); }
  ActionNameId add(const char* n, float s) {
    registry.addTo(own, n, std::make_unique<TimedAction>(s));
    return names.find(n);
  }
};

}  // namespace

TEST_CASE("program keeps intentions in chronological order", "[intent][tree]") {
  TreeFixture f;
  DecisionTree t = f.tree();

  SECTION("Should keep programming order for the same date") {
    const Programmed p1 = t.program(5.0, f.a);
    const Programmed p2 = t.program(5.0, f.b);
    const Programmed p3 = t.program(5.0, f.c);
    REQUIRE(p1.ok());
    REQUIRE(p2.ok());
    REQUIRE(p3.ok());
    REQUIRE(f.queued() == Lines{"A", "B", "C"});
  }
  SECTION("Should place an earlier date first and a later one last") {
    t.program(5.0, f.a);
    t.program(9.0, f.b);
    t.program(1.0, f.c);
    t.program(5.0, f.wait);
    REQUIRE(f.queued() == Lines{"C", "A", "Work", "B"});
  }
  SECTION("Should iterate in chronological order with the arguments given") {
    const ActionArg arg = ActionArg::ofEntity(EntityId{42}, ArgRole::kReceiver);
    t.program(2.0, f.b, {&arg, 1});
    t.program(1.0, f.a);
    std::vector<double> dates;
    t.iterateOnIntentions([&](const Intention& in) { dates.push_back(in.date_s); });
    REQUIRE(dates == std::vector<double>{1.0, 2.0});
    REQUIRE(f.agent.queue.at(1).args().size() == 1);
    REQUIRE(f.agent.queue.at(1).args()[0] == arg);
  }
  SECTION("Should hand out unique, increasing references") {
    const IntentionId r1 = t.program(0, f.a).id;
    const IntentionId r2 = t.program(0, f.a).id;
    REQUIRE(r1 != IntentionId::kNone);
    REQUIRE(raw(r2) == raw(r1) + 1);
  }
}

TEST_CASE("program refuses what cannot be programmed", "[intent][tree]") {
  TreeFixture f;
  DecisionTree t = f.tree();

  SECTION("Should refuse a name no implementation is registered for") {
    const Programmed p = t.program(0, f.name("Teleport"));
    REQUIRE(p.status == IntentStatus::kUnknownAction);
    REQUIRE(p.id == IntentionId::kNone);
    REQUIRE(f.agent.queue.empty());
  }
  SECTION("Should refuse more than kMaxActionArgs arguments") {
    std::vector<ActionArg> args(kMaxActionArgs + 1, ActionArg::ofEntity(EntityId{1}));
    REQUIRE(t.program(0, f.a, args).status == IntentStatus::kTooManyArgs);
    args.pop_back();
    REQUIRE(t.program(0, f.a, args).ok());
  }
  SECTION("Should refuse dates that are never due") {
    REQUIRE(t.program(std::nan(""), f.a).status == IntentStatus::kBadDate);
    REQUIRE(t.program(std::numeric_limits<double>::infinity(), f.a).status ==
            IntentStatus::kBadDate);
    REQUIRE(t.program(-std::numeric_limits<double>::infinity(), f.a).ok());  // asap
  }
  SECTION("Should refuse game-only actions to the controller") {
    ActionTraits traits;
    traits.game_only = true;
    f.registry.addTo(f.own, "Die", std::make_unique<TimedAction>(0.f, nullptr, false, traits));
    REQUIRE(t.program(0, f.name("Die")).status == IntentStatus::kGameOnly);
    REQUIRE(f.game().programGame(0, f.name("Die")).ok());
  }
  SECTION("Should count overflow and keep the last slot for the game") {
    for (int i = 0; i < kMaxIntentions - kGameReservedIntentions; ++i) {
      REQUIRE(t.program(i, f.a).ok());
    }
    REQUIRE(t.program(0, f.b).status == IntentStatus::kQueueFull);
    REQUIRE(t.program(0, f.b).status == IntentStatus::kQueueFull);
    REQUIRE(f.agent.queue.overflow() == 2);
    REQUIRE(f.game().programGame(0, f.c).ok());
    REQUIRE(f.agent.queue.full());
    REQUIRE(f.game().programGame(0, f.c).status == IntentStatus::kQueueFull);
    REQUIRE(f.agent.queue.overflow() == 3);
  }
}

TEST_CASE("deprogram, cancel and the getters", "[intent][tree]") {
  TreeFixture f;
  const IntentionId work = f.tree().program(0, f.wait).id;
  const IntentionId later = f.tree().program(0, f.a).id;
  f.tick();  // Work starts and runs 1 of its 5 s
  REQUIRE(f.drain() == Lines{"started Work"});
  DecisionTree t = f.tree();

  SECTION("Should report the current intention and its progress") {
    REQUIRE(t.getCurrentIntention() == work);
    REQUIRE(t.getProgress(work) == Approx(0.2f));
    REQUIRE(t.getProgress(later) == 0.f);
    REQUIRE_FALSE(t.getProgress(IntentionId{999}).has_value());
    REQUIRE(t.getIntention(work)->phase == IntentionPhase::kRunning);
    REQUIRE(t.getIntention(later)->phase == IntentionPhase::kPending);
  }
  SECTION("Should deprogram a pending intention silently") {
    REQUIRE(t.deprogram(later) == IntentStatus::kOk);
    REQUIRE(t.getIntention(later) == nullptr);
    REQUIRE(f.drain().empty());
    REQUIRE(t.deprogram(later) == IntentStatus::kUnknownIntention);
  }
  SECTION("Should not deprogram a started intention") {
    REQUIRE(t.deprogram(work) == IntentStatus::kNotPending);
  }
  SECTION("Should cancel the current intention with an Interrupted event") {
    REQUIRE(t.cancel(work) == IntentStatus::kOk);
    REQUIRE(f.drain() == Lines{"interrupted Work (cancelled)"});
    REQUIRE(f.seen.back().progress == Approx(0.2f));
    REQUIRE(t.getCurrentIntention() == IntentionId::kNone);
    REQUIRE(t.getIntention(work) == nullptr);
    f.tick();  // the next intention starts at once
    REQUIRE(f.drain() == Lines{"started A", "completed A"});
  }
  SECTION("Should not cancel an intention that is not current") {
    REQUIRE(t.cancel(later) == IntentStatus::kNotCurrent);
    REQUIRE(t.cancel(IntentionId{999}) == IntentStatus::kUnknownIntention);
  }
  SECTION("Should find nothing behind a reference once its intention ended") {
    for (int i = 0; i < 4; ++i) f.tick();  // Work completes at the end of the 4th
    REQUIRE(f.drain() == Lines{"completed Work"});
    f.tick();  // A runs
    REQUIRE(f.drain() == Lines{"started A", "completed A"});
    REQUIRE(t.getIntention(work) == nullptr);
    REQUIRE(t.getCurrentIntention() == IntentionId::kNone);
  }
}

TEST_CASE("toStatus says where and why", "[intent][tree]") {
  REQUIRE(toStatus(IntentStatus::kOk, EntityId{7}, IntentionId{12}).isOk());
  const Status s = toStatus(IntentStatus::kNotCurrent, EntityId{7}, IntentionId{12});
  REQUIRE(s.code() == StatusCode::kFailedPrecondition);
  REQUIRE(s.message() == "agent 7: intention 12: not the running intention");
  REQUIRE(toStatus(IntentStatus::kQueueFull, EntityId{7}, IntentionId::kNone).message() ==
          "agent 7: intention queue full (8)");
  REQUIRE(toStatus(IntentStatus::kQueueFull, EntityId{7}, IntentionId::kNone).code() ==
          StatusCode::kResourceExhausted);
  REQUIRE(toStatus(IntentStatus::kUnknownIntention, EntityId{7}, IntentionId{3}).code() ==
          StatusCode::kNotFound);
}

TEST_CASE("program with a prerequisite: run only if it completes", "[intent][tree][depends]") {
  TreeFixture f;
  Switches sw;
  const ActionNameId fail = f.name("Fail");
  f.registry.addTo(f.own, "Fail", std::make_unique<TimedAction>(0.1f, &sw, true));
  DecisionTree t = f.tree();

  SECTION("Should run the dependent after its prerequisite completed") {
    const Programmed a = t.program(0, f.a);
    const Programmed b = t.program(0, f.b, {}, a.id);
    REQUIRE(b.ok());
    REQUIRE(f.agent.queue.prerequisiteOf(*f.agent.queue.find(b.id))->id == a.id);
    f.tick();
    REQUIRE(f.drain() == Lines{"started A", "completed A", "started B", "completed B"});
  }
  SECTION("Should drop the whole chain below a failure, and keep what is independent") {
    const Programmed x = t.program(0, fail);
    const Programmed b = t.program(0, f.b, {}, x.id);
    t.program(0, f.c, {}, b.id);
    t.program(0, f.a);  // independent
    f.tick();
    REQUIRE(f.drain() == Lines{"started Fail", "failed Fail (perform_failed)",
                               "failed B (prerequisite_failed)", "failed C (prerequisite_failed)",
                               "started A", "completed A"});
    REQUIRE(f.agent.queue.empty());
  }
  SECTION("Should not start a dependent programmed before a later prerequisite") {
    const Programmed later = t.program(5.0, f.a);
    t.program(0, f.b, {}, later.id);  // due now, first in the queue, but waits for A
    f.tick();
    REQUIRE(f.drain().empty());
    REQUIRE(f.queued() == Lines{"B", "A"});
    f.now = 5.0;
    f.tick();
    REQUIRE(f.drain() == Lines{"started A", "completed A", "started B", "completed B"});
  }
  SECTION("Should drop dependents of a cancelled or deprogrammed intention") {
    const Programmed w = t.program(0, f.wait);
    const Programmed b = t.program(0, f.b, {}, w.id);
    f.tick();  // Work runs for 5 s
    REQUIRE(f.drain() == Lines{"started Work"});
    REQUIRE(t.cancel(w.id) == IntentStatus::kOk);
    REQUIRE(f.drain() == Lines{"interrupted Work (cancelled)", "failed B (prerequisite_failed)"});
    const Programmed c = t.program(9.0, f.c);
    t.program(9.0, f.a, {}, c.id);
    REQUIRE(t.deprogram(c.id) == IntentStatus::kOk);
    REQUIRE(f.drain() == Lines{"failed A (prerequisite_failed)"});
    REQUIRE(f.agent.queue.empty());
    (void)b;
  }
  SECTION("Should refuse a prerequisite that is not in the queue") {
    const Programmed a = t.program(0, f.a);
    f.tick();
    const Programmed b = t.program(0, f.b, {}, a.id);  // A has ended
    REQUIRE(b.status == IntentStatus::kUnknownIntention);
    REQUIRE(f.agent.queue.empty());
  }
}

TEST_CASE("A failed prerequisite drops a chain whose links sit anywhere in the queue",
          "[intent][tree][depends]") {
  TreeFixture f;
  Switches sw;
  const ActionNameId fail = f.name("Fail");
  f.registry.addTo(f.own, "Fail", std::make_unique<TimedAction>(0.1f, &sw, true));
  DecisionTree t = f.tree();
  // Chronological order: C (date 1), X (2), B (3), D (4); B and D wait on X, C on B.
  const Programmed x = t.program(2.0, fail);
  const Programmed b = t.program(3.0, f.b, {}, x.id);
  t.program(1.0, f.c, {}, b.id);
  t.program(4.0, f.a, {}, x.id);
  REQUIRE(f.queued() == Lines{"C", "Fail", "B", "A"});
  f.now = 2.0;
  f.tick();
  REQUIRE(f.drain() == Lines{"started Fail", "failed Fail (perform_failed)",
                             "failed B (prerequisite_failed)", "failed C (prerequisite_failed)",
                             "failed A (prerequisite_failed)"});
  REQUIRE(f.agent.queue.empty());
}

TEST_CASE("assignUsedSlots copies a queue byte for byte", "[intent][queue]") {
  // A snapshot copies queues into rows it reuses capture after capture: each copy must be
  // the live queue's exact bytes whatever the row held before, with only used slots written.
  TreeFixture f;
  DecisionTree t = f.tree();
  IntentionQueue copy;
  Rng rng(7);
  std::vector<IntentionId> programmed;
  const ActionNameId actions[] = {f.a, f.b, f.c, f.wait};
  for (int step = 0; step < 400; ++step) {
    const uint32_t roll = rng.next() % 10;
    if (roll < 5) {
      const IntentionId id = t.program(rng.next() % 20 * 0.5, actions[rng.next() % 4]).id;
      if (id != IntentionId::kNone) programmed.push_back(id);
    } else if (roll < 7 && !programmed.empty()) {
      t.deprogram(programmed[rng.next() % programmed.size()]);
    } else {
      f.tick();
    }
    copy.assignUsedSlots(f.agent.queue);
    INFO("step " << step << ", " << int(f.agent.queue.size()) << " queued");
    REQUIRE(std::memcmp(&copy, &f.agent.queue, sizeof copy) == 0);
  }
  REQUIRE(f.agent.queue.overflow() > 0);  // the queue was full at times
}

TEST_CASE("renumber gives provisional ids their final ones; handles stay", "[intent][tree]") {
  TreeFixture f;
  // A controller on a worker programs under provisional ids (core/sim/behavior_outbox.h).
  IntentionIdSource provisional(uint64_t{1} << 63);
  TreeContext ctx = f.ctx();
  ctx.ids = &provisional;
  DecisionTree worker(f.agent.queue, f.agent_id, ctx);
  const IntentionId p1 = worker.program(3.0, f.a).id;
  const IntentionId p2 = worker.program(1.0, f.b).id;
  const IntentionId p3 = worker.program(2.0, f.c).id;
  REQUIRE(worker.deprogram(p3) == IntentStatus::kOk);  // made and dropped in the same turn

  f.agent.queue.renumber(p1, 3, 500);

  SECTION("Should give each its final id by the order it was made in") {
    REQUIRE(f.agent.queue.findHandle(p1)->id == IntentionId{500});
    REQUIRE(f.agent.queue.findHandle(p2)->id == IntentionId{501});
    REQUIRE(f.agent.queue.find(IntentionId{501})->action == f.b);
    REQUIRE(f.agent.queue.find(p1) == nullptr);
  }
  SECTION("Should keep each handle") {
    REQUIRE(f.agent.queue.find(IntentionId{500})->handle == p1);
    REQUIRE(f.agent.queue.findHandle(p3) == nullptr);
  }
  SECTION("Should leave intentions outside the range alone") {
    DecisionTree t = f.tree();
    const IntentionId real = t.program(0.0, f.a).id;
    f.agent.queue.renumber(p1, 3, 900);
    REQUIRE(f.agent.queue.find(real)->handle == real);
    REQUIRE(f.agent.queue.find(IntentionId{500}) != nullptr);  // already final: not in range
  }
}
