// PlannerQueue (core/goap/planner_queue.h): many agents' searches time-sliced with a
// per-tick expansion budget, addressed by generation-checked tickets.
#include <catch2/catch.hpp>

#include "goap/planner_queue.h"
#include "goap_test_support.h"

using namespace npc;
using namespace npc::goap;
using namespace npc::goap::test;

TEST_CASE("Queued searches are time-sliced and give the one-shot results", "[goap][queue]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDataDomain(lib, "b2_investigate.json");
  PlannerQueue queue(4);
  GoapPlanner reference;
  const char* goals[] = {"stress", "investigate", "secure_cellar"};
  std::vector<PlanTicket> tickets;
  for (const char* g : goals) tickets.push_back(queue.submit(request(d, {g})));
  CHECK(queue.queued() == 3);
  for (PlanTicket t : tickets) CHECK(queue.status(t) == PlanStatus::kInProgress);

  int ticks = 0;
  while (queue.status(tickets.back()) == PlanStatus::kInProgress) {
    const uint32_t spent = queue.update(10);
    CHECK(spent <= 11);  // the budget, plus at most the last started request
    ++ticks;
    REQUIRE(ticks < 1000);
  }
  CHECK(ticks > 5);  // STRESS alone needs several slices
  for (size_t i = 0; i < tickets.size(); ++i) {
    const PlanResult* r = queue.result(tickets[i]);
    REQUIRE(r != nullptr);
    const PlanResult& expected = reference.plan(request(d, {goals[i]}));
    CHECK(r->cost == expected.cost);
    CHECK(names(d, *r) == names(d, expected));
  }

  SECTION("Should make released tickets stale") {
    queue.release(tickets[0]);
    CHECK(queue.status(tickets[0]) == PlanStatus::kInvalidRequest);
    CHECK(queue.result(tickets[0]) == nullptr);
    const PlanTicket again = queue.submit(request(d, {"investigate"}));
    CHECK(again != tickets[0]);  // same slot, new generation
    CHECK(queue.status(tickets[0]) == PlanStatus::kInvalidRequest);
  }
  SECTION("Should refuse requests when every slot is taken") {
    CHECK(queue.submit(request(d, {"investigate"})) != PlanTicket::kNone);
    CHECK(queue.submit(request(d, {"investigate"})) == PlanTicket::kNone);
  }
}

TEST_CASE("Queued requests own copies of their objects and targets", "[goap][queue]") {
  GoapLibrary lib;
  const GoapDomain& d = loadDomain(lib, R"({
    "domain": "fetch", "targets": ["home"],
    "facts": [ { "name": "has", "type": "bool" }, { "name": "back", "type": "bool" } ],
    "actions": [
      { "name": "Take", "object": true, "effects": [{ "move_to": "$object" }, { "fact": "has", "set": true }],
        "cost": { "base": 1, "travel_per_m": 1 } },
      { "name": "Return", "pre": [{ "fact": "has", "value": true }],
        "effects": [{ "move_to": "home" }, { "fact": "back", "set": true }], "cost": { "base": 1, "travel_per_m": 1 } } ],
    "smart_objects": [ { "species": "box", "actions": ["Take"] } ],
    "goals": [ { "name": "fetch", "desired": [{ "fact": "back", "value": true }] } ] })");
  PlannerQueue queue(2, 2);
  std::vector<SmartObjectCandidate> objects = {{EntityId{1}, SmartObjectTypeId{0}, {4, 0, 0}},
                                               {EntityId{2}, SmartObjectTypeId{0}, {9, 0, 0}},
                                               {EntityId{3}, SmartObjectTypeId{0}, {1, 0, 0}}};
  std::array<TargetPosition, 1> home{};
  home[0] = {true, {0, 0, 0}, EntityId{9}};
  PlanRequest r = request(d, {"fetch"});
  r.objects = objects;
  r.targets = home;
  const PlanTicket t = queue.submit(r);
  CHECK(queue.droppedObjects() == 1);  // max_objects = 2
  objects.clear();                      // the caller's buffers may be reused at once
  home[0].position = {100, 0, 0};
  queue.update(1000);
  const PlanResult* res = queue.result(t);
  REQUIRE(res != nullptr);
  REQUIRE(res->status == PlanStatus::kFound);
  CHECK(res->steps[0].object == EntityId{1});
  CHECK(res->cost == Approx(1 + 4 + 1 + 4));
}
