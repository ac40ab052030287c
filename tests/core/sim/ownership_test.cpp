// Ownership (core/sim/sim_ownership.cpp): a client changes only what it created and reports
// results only for actions sent to it; daemon entities change through admin calls only.
#include <catch2/catch.hpp>

#include "sim_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

constexpr ClientId kOwner{7};
constexpr ClientId kIntruder{8};

// Ticks until `agent` is sent a client-side action; returns it (or nothing after 10 s).
std::optional<ActionOut> nextAction(Simulation& sim, uint64_t agent) {
  for (int i = 0; i < 100; ++i) {
    sim.tick();
    if (const ActionOut* a = findAction(sim.output(), agent)) return *a;
  }
  return std::nullopt;
}

std::vector<std::string> errorsTo(const TickOutput& out, ClientId client) {
  std::vector<std::string> texts;
  for (const EventOut& e : eventsOf(out, EventKind::kError)) {
    if (e.to == client) texts.push_back(e.text);
  }
  return texts;
}

Command withItem(Command command, uint32_t item) {
  command.item = item;
  return command;
}

Vec3 positionOf(const Simulation& sim, uint64_t id) {
  return sim.world().entities().get(EntityId{id})->position;
}

}  // namespace

TEST_CASE("A client changes only the entities it created", "[sim][ownership]") {
  Simulation sim(SimConfig{}, testArchetypes());
  sim.submit(upsert(1, EntityKind::kNpc, {0, 0, 0}, "statue", kOwner));
  sim.submit(upsert(2, EntityKind::kNpc, {5, 0, 0}, "statue", ClientId::kDaemon));
  sim.tick();

  SECTION("Should refuse another client's upsert and removal, naming the item and the rule") {
    sim.submit(withItem(upsert(1, EntityKind::kNpc, {9, 9, 0}, {}, kIntruder, 4), 1));
    sim.submit({kIntruder, 4, RemoveEntity{EntityId{1}}, 0});
    sim.tick();
    CHECK(errorsTo(sim.output(), kIntruder) ==
          std::vector<std::string>{"upserts[1] (id 1): owned by another client",
                                   "removals[0] (id 1): owned by another client"});
    CHECK(positionOf(sim, 1).x == 0.f);
    CHECK(sim.stats().agents == 2);
  }
  SECTION("Should accept the owner's own update") {
    sim.submit(upsert(1, EntityKind::kNpc, {3, 0, 0}, {}, kOwner));
    sim.tick();
    CHECK(errorsTo(sim.output(), kOwner).empty());
    CHECK(positionOf(sim, 1).x == 3.f);
  }
  SECTION("Should keep the daemon's entities for admin calls") {
    sim.submit(upsert(2, EntityKind::kNpc, {9, 9, 0}, {}, kOwner));
    sim.tick();
    CHECK(errorsTo(sim.output(), kOwner) ==
          std::vector<std::string>{
              "upserts[0] (id 2): owned by the daemon; only admin calls change it"});
    sim.submit(upsert(2, EntityKind::kNpc, {6, 0, 0}, {}, ClientId::kDaemon));
    sim.tick();
    CHECK(positionOf(sim, 2).x == 6.f);
  }
  SECTION("Should refuse DespawnAgent of a foreign agent with kPermissionDenied") {
    Status got;
    sim.submit({kIntruder, 0, DespawnAgent{EntityId{1}, [&](const Status& s) { got = s; }}});
    sim.tick();
    CHECK(got.code() == StatusCode::kPermissionDenied);
    CHECK(got.message() == "entity 1: owned by another client");
    CHECK(sim.stats().agents == 2);
    sim.submit({kOwner, 0, DespawnAgent{EntityId{1}, [&](const Status& s) { got = s; }}});
    sim.tick();
    CHECK(got.isOk());
    CHECK(sim.stats().agents == 1);
  }
  SECTION("Should let any client change a shared agent (spawned by an admin call)") {
    sim.submit(upsert(3, EntityKind::kNpc, {1, 1, 0}, "statue", ClientId::kUnowned));
    sim.tick();
    sim.submit(upsert(3, EntityKind::kNpc, {2, 1, 0}, {}, kIntruder));
    sim.tick();
    CHECK(errorsTo(sim.output(), kIntruder).empty());
    CHECK(positionOf(sim, 3).x == 2.f);
  }
}

TEST_CASE("Results are accepted only from the client the action was sent to",
          "[sim][ownership]") {
  Simulation sim(SimConfig{}, testArchetypes());
  sim.submit(upsert(1, EntityKind::kNpc, {0, 0, 0}, "villager", kOwner));
  const auto action = nextAction(sim, 1);
  REQUIRE(action);
  REQUIRE(action->owner == kOwner);

  SECTION("Should refuse a foreign result, naming the item, and keep the intention running") {
    sim.submit(withItem(result(1, action->intention, ActionOutcome::kFailed, kIntruder), 0));
    sim.tick();
    const std::string expected = "results[0] (agent 1, intention " +
                                 std::to_string(raw(action->intention)) +
                                 "): intention was not sent to this client";
    CHECK(errorsTo(sim.output(), kIntruder) == std::vector<std::string>{expected});
    CHECK(eventsOf(sim.output(), EventKind::kIntentionFailed).empty());
    sim.submit(result(1, action->intention, ActionOutcome::kCompleted, kOwner));
    sim.tick();
    CHECK(errorsTo(sim.output(), kOwner).empty());
    CHECK(eventsOf(sim.output(), EventKind::kIntentionCompleted).size() == 1);
  }
  SECTION("Should refuse a foreign result for an intention that was never sent") {
    sim.submit(result(1, IntentionId{999}, ActionOutcome::kCompleted, kIntruder));
    sim.tick();
    CHECK(errorsTo(sim.output(), kIntruder) ==
          std::vector<std::string>{
              "results[0] (agent 1, intention 999): intention was not sent to this client"});
  }
}

TEST_CASE("A departed client's agents keep living; who owns them then",
          "[sim][ownership]") {
  Simulation sim(SimConfig{}, testArchetypes());
  sim.submit(upsert(1, EntityKind::kNpc, {0, 0, 0}, "villager", kOwner));
  sim.tick();

  SECTION("Should share an anonymous client's agents with everybody once it is gone") {
    sim.submit({kOwner, 0, ClientGone{false}});
    const auto action = nextAction(sim, 1);
    REQUIRE(action);
    CHECK(action->owner == ClientId::kUnowned);  // sent to every subscriber of its place
    sim.submit(result(1, action->intention, ActionOutcome::kCompleted, kIntruder));
    sim.tick();
    CHECK(errorsTo(sim.output(), kIntruder).empty());
    CHECK(sim.world().entities().get(EntityId{1})->owner == ClientId::kUnowned);
  }
  SECTION("Should keep an identified client's agents for it and give them back") {
    sim.submit({kOwner, 0, ClientGone{true}});
    const auto orphaned = nextAction(sim, 1);
    REQUIRE(orphaned);
    CHECK(orphaned->owner == ClientId::kUnowned);
    // While it is away anybody that was sent the action may report it, nobody may move it.
    sim.submit(result(1, orphaned->intention, ActionOutcome::kCompleted, kIntruder));
    sim.submit(upsert(1, EntityKind::kNpc, {9, 9, 0}, {}, kIntruder));
    sim.tick();
    CHECK(errorsTo(sim.output(), kIntruder) ==
          std::vector<std::string>{"upserts[0] (id 1): owned by another client"});
    CHECK(sim.world().entities().get(EntityId{1})->owner == kOwner);

    sim.submit({kOwner, 0, ClientBack{}});
    const auto back = nextAction(sim, 1);
    REQUIRE(back);
    CHECK(back->owner == kOwner);
    sim.submit(result(1, back->intention, ActionOutcome::kCompleted, kIntruder));
    sim.tick();
    CHECK(errorsTo(sim.output(), kIntruder).size() == 1);
  }
}

TEST_CASE("Client identities and the ids clients used are kept for a restart",
          "[sim][ownership]") {
  Simulation sim(SimConfig{}, testArchetypes());
  sim.submit({ClientId{3}, 0, BindClient{"game-eu"}});
  sim.submit(upsert(100, EntityKind::kNpc, {1, 1, 0}, "villager", ClientId{3}));  // named
  sim.submit(upsert(101, EntityKind::kNpc, {2, 1, 0}, "villager", ClientId{9}));  // anonymous
  sim.tick();
  SECTION("Should bind the name to the command's origin and note the highest id used") {
    REQUIRE(sim.clients().find("game-eu") == ClientId{3});
    CHECK_FALSE(sim.clients().find("game-us").has_value());
    CHECK(sim.clients().isBound(ClientId{3}));
    CHECK_FALSE(sim.clients().isBound(ClientId{9}));
    CHECK(sim.clients().highest() == 9);
  }
  SECTION("Should share an anonymous client's entities when connections are lost to a restart") {
    sim.submit({ClientId::kDaemon, 0, InterruptInFlight{}});
    sim.tick();
    CHECK(sim.world().entities().get(EntityId{100})->owner == ClientId{3});
    CHECK(sim.world().entities().get(EntityId{101})->owner == ClientId::kUnowned);
  }
}
