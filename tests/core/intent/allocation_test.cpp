// A steady-state tick allocates nothing: programming, scheduling, client results, external
// actions, influence changes. Counted by tests/allocation_counter.h.
#include <memory>

#include <catch2/catch.hpp>

#include "intent_fixture.h"
#include "inventory_fixture.h"
#include "allocation_counter.h"

using namespace npc;
using namespace npc::test;

TEST_CASE("A steady-state tick allocates nothing", "[intent][alloc]") {
  IntentFixture f;
  const ActionListId own = f.registry.createOwnList("Worker");
  const ActionListId spell = f.registry.createInfluence("spell:haste", 1);
  f.registry.addTo(own, "Step", std::make_unique<TimedAction>(0.3f));
  f.registry.addTo(own, "Dig", std::make_unique<TimedAction>(2.5f));
  f.registry.addTo(own, "MoveTo", std::make_unique<ClientAction>());
  f.registry.addTo(spell, "Fly", std::make_unique<TimedAction>(1.5f));
  f.registry.addTo(own, "Wait", std::make_unique<WaitAction>(f.names));
  const ActionNameId step = f.names.find("Step"), dig = f.names.find("Dig"),
                 move = f.names.find("MoveTo"), fly = f.names.find("Fly"),
                 wait = f.names.find("Wait"), s = f.name("s");
  constexpr int kAgents = 200;
  std::vector<IntentAgentState> agents(kAgents);
  for (IntentAgentState& a : agents) a.access.setOwn(own);
  const ActionArg target = ActionArg::ofEntity(EntityId{42}, ArgRole::kReceiver);
  const ActionArg delay = ActionArg::ofValue(2, s);

  auto tickAll = [&](int tick) {
    const double now = tick * 0.5;
    f.events.clear();
    f.starts.clear();
    for (int i = 0; i < kAgents; ++i) {
      IntentAgentState& a = agents[i];
      const EntityId id{static_cast<uint64_t>(i + 1)};
      const TreeContext ctx{&f.registry, &f.ids, &f.events, now};
      // Ingest: answer the client-side action every other tick; someone attacks agent 3.
      ActionTree game(a.queue, id, ctx);
      if (const Intention* cur = a.queue.current();
          cur && cur->phase == IntentionPhase::kAwaitingClient && tick % 2 == 0) {
        game.clientResult(cur->id, ClientOutcome::kProgress, 0.5f);
        game.clientResult(cur->id, ClientOutcome::kCompleted);
      }
      if (i == 3 && tick % 5 == 0) game.receiveExternal(EntityId{99}, true);
      if (i % 7 == 0) {
        if (tick % 4 == 0) f.registry.addInfluence(a.access, spell);
        if (tick % 4 == 2) a.access.removeInfluence(spell);
      }
      // Controller: keep a few intentions programmed; sometimes cancel.
      DecisionTree tree(a.queue, id, ctx);
      if (a.queue.size() < 3) {
        const ActionArg* arg = nullptr;
        ActionNameId name = step;
        switch ((i + tick) % 5) {
          case 0: name = dig; break;
          case 1: name = move; arg = &target; break;
          case 2: name = fly; break;
          case 3: name = wait; arg = &delay; break;
          default: break;
        }
        tree.program(now, name, arg ? std::span<const ActionArg>(arg, 1) : std::span<const ActionArg>());
      }
      if (i % 11 == 0 && tick % 3 == 0) tree.cancel(tree.getCurrentIntention());
      AgentTurn turn;
      turn.agent = id;
      turn.now_s = now;
      turn.quantum_s = 0.5f;
      turn.client_timeout_s = 3.f;
      if (f.events.room() < ActionScheduler::kMaxEventsPerTurn) f.events.clear();
      f.scheduler.update(a, turn, f.starts, f.events);
    }
  };

  for (int t = 0; t < 20; ++t) tickAll(t);  // warm up
  const SchedulerStats before = f.scheduler.stats();
  const uint64_t allocations = npc::test::allocationCount();
  for (int t = 20; t < 120; ++t) tickAll(t);
  REQUIRE(npc::test::allocationCount() == allocations);
  // ...and the loop exercised every path.
  const SchedulerStats& after = f.scheduler.stats();
  REQUIRE(after.completed > before.completed);
  REQUIRE(after.failed > before.failed);
  REQUIRE(after.interrupted > before.interrupted);
  REQUIRE(after.client_starts > before.client_starts);
  REQUIRE(after.skipped > before.skipped);
  REQUIRE(f.events.dropped() == 0);
}

TEST_CASE("Inventory actions allocate nothing once their items are known", "[intent][alloc]") {
  InventoryFixture f;
  const EntityId gertrude{3};
  f.model.add(gertrude, EntityKind::kNpc, {1.f, 0.f, 0.f}, "human");
  f.model.inventoryOf(f.agent_id)->add(f.model.items.intern("bread"), 1000);
  // The entity table keeps freed slots for reuse; warm that list up as a running world has.
  for (uint64_t i = 0; i < 64; ++i) f.model.add(EntityId{1000 + i}, EntityKind::kObject, {});
  for (uint64_t i = 0; i < 64; ++i) f.model.world.entities().remove(EntityId{1000 + i});
  for (uint64_t i = 0; i < 64; ++i) {  // flowers to take, all within reach
    f.model.add(EntityId{100 + i}, EntityKind::kObject, {0.5f, 0.f, 0.f}, "flowers");
  }
  f.model.items.intern("flowers");
  const ActionArg to = ActionArg::ofEntity(gertrude, ArgRole::kReceiver);
  const ActionArg bread = f.item("bread");
  const ActionArg two = ActionArg::ofValue(2, ActionNameId::kNone);
  auto round = [&](uint64_t i) {
    const ActionArg flowers = ActionArg::ofEntity(EntityId{100 + i}, ArgRole::kReceiver);
    const ActionArg give[] = {to, bread, two};
    const ActionArg drop[] = {bread};
    f.tree().program(f.now, f.give, give);
    f.tree().program(f.now, f.drop, drop);
    f.tree().program(f.now, f.take, {&flowers, 1});
    f.tick();
    f.events.clear();
  };
  round(0);  // warm up
  const uint64_t allocations = npc::test::allocationCount();
  for (uint64_t i = 1; i < 64; ++i) round(i);
  REQUIRE(npc::test::allocationCount() == allocations);
  REQUIRE(f.model.count(gertrude, "bread") == 128);
  REQUIRE(f.model.count(f.agent_id, "flowers") == 64);
  REQUIRE(f.scheduler.stats().failed == 0);
}
