// Place handoff (state/place_handoff.h): two cluster nodes on the demo's definitions. Node A
// holds the square and the bakery for 90 s (villagers awake in the square, the baker asleep
// in the bakery, baking); their handoffs go through bytes to node B, which has run for a
// while on its own clock with other places and names interned first, and adopts them while
// it runs on.
#include <algorithm>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "demo_state_world.h"
#include "message_diff.h"
#include "place_handoff.h"
#include "sim/sim_state_access.h"
#include "sim_state_codec.h"
#include "sim_state_copy.h"

using namespace npc;
using test::diff;
namespace pb = ::npc::state::v1;

namespace {

constexpr uint64_t kVillager = 1001, kBaker = 1101;
const char* const kHash = "defs-1";

SimConfig leased() {
  SimConfig config = test::DemoStateWorld::demoConfig();
  config.leased_places = true;
  return config;
}

void hold(test::DemoStateWorld& node, const std::string& place, uint64_t epoch, bool npcs) {
  REQUIRE(node.sim->submit({ClientId::kDaemon, 0, HoldPlace{place, true, epoch, {}}}));
  if (npcs) REQUIRE(queuePlaceNpcs(node.world, place, *node.sim) > 0);
}

const pb::AgentState* agentIn(const pb::SimState& s, uint64_t id) {
  for (const pb::AgentState& a : s.agents()) {
    if (a.id() == id) return &a;
  }
  return nullptr;
}

// The sleepers' ids of a state, in order.
std::vector<uint64_t> sleeperIds(const pb::SimState& s) {
  std::vector<uint64_t> ids;
  uint64_t id = 0;
  for (const pb::DormantAgentState& d : s.hibernation().dormant()) {
    id += static_cast<uint64_t>(d.id_delta());
    ids.push_back(id);
  }
  return ids;
}

const pb::DormantAgentState* sleeperIn(const pb::SimState& s, uint64_t wanted) {
  uint64_t id = 0;
  for (const pb::DormantAgentState& d : s.hibernation().dormant()) {
    id += static_cast<uint64_t>(d.id_delta());
    if (id == wanted) return &d;
  }
  return nullptr;
}

std::string groupOf(const pb::SimState& s, uint32_t group) {
  return group == 0 ? "" : s.group_names(static_cast<int>(group - 1));
}

// Node A after 90 s holding the square and the bakery, its capture, and the two places'
// handoffs as node B reads them from Redis.
struct Handoff {
  std::unique_ptr<test::DemoStateWorld> a;
  pb::SimState before;
  std::vector<pb::PlaceHandoff> handoffs;  // square, bakery

  Handoff() {
    a = std::make_unique<test::DemoStateWorld>(nullptr, leased());
    hold(*a, "square", 3, true);
    hold(*a, "bakery", 5, true);
    a->run(900);
    captureSimState(*a->sim, before);
    pb::SimState whole = before;
    const World& w = a->sim->world();
    const std::vector<PlaceToHand> places = {{w.findPlace("square"), "square", 3},
                                             {w.findPlace("bakery"), "bakery", 5}};
    std::vector<pb::PlaceHandoff> written;
    splitPlaces(whole, places, a->sim->timeS(), {kHash, "node-a"}, written);
    for (const pb::PlaceHandoff& h : written) {
      REQUIRE(handoffs.emplace_back().ParseFromString(h.SerializeAsString()));
    }
  }
  static Handoff& get() {
    static Handoff h;
    return h;
  }
};

// Node B: 30 s on its own holding the forest (its names and groups interned first), then
// given the square and the bakery at later epochs.
std::unique_ptr<test::DemoStateWorld> nodeB() {
  auto b = std::make_unique<test::DemoStateWorld>(nullptr, leased());
  hold(*b, "forest", 1, true);
  b->run(300);
  hold(*b, "square", 4, false);
  hold(*b, "bakery", 6, false);
  b->run(1);
  return b;
}

}  // namespace

TEST_CASE("a handoff holds only its place's agents, without the writer's exact parts",
          "[state][handoff]") {
  Handoff& h = Handoff::get();
  REQUIRE(h.handoffs.size() == 2);
  const pb::PlaceHandoff& square = h.handoffs[0];
  CHECK(square.place() == "square");
  CHECK(square.epoch() == 3);
  CHECK(square.node() == "node-a");
  CHECK(square.definitions_hash() == kHash);
  CHECK(square.tick() == 900);
  CHECK(square.state().runtime_layout() == 0);
  REQUIRE(square.state().hibernation().places_size() == 1);
  CHECK(square.state().hibernation().places(0).name() == "square");
  CHECK_FALSE(square.state().hibernation().places(0).held());
  const uint32_t square_index = square.state().hibernation().places(0).index();
  size_t in_square = 0;
  for (const pb::AgentState& a : h.before.agents()) in_square += a.body().place() == square_index;
  REQUIRE(in_square > 0);
  CHECK(static_cast<size_t>(square.state().agents_size()) == in_square);
  for (const pb::AgentState& a : square.state().agents()) {
    INFO("agent " << a.id());
    CHECK(a.body().place() == square_index);
    CHECK(a.intent().run().queue().empty());
    CHECK(a.goap().runs().empty());
  }
  REQUIRE(agentIn(square.state(), kVillager));

  // The baker sleeps in the bakery: its list re-bases the sleepers' ids on its own.
  const pb::PlaceHandoff& bakery = h.handoffs[1];
  const std::vector<uint64_t> sleepers = sleeperIds(bakery.state());
  REQUIRE_FALSE(sleepers.empty());
  CHECK(std::count(sleepers.begin(), sleepers.end(), kBaker) == 1);
  const std::vector<uint64_t> all = sleeperIds(h.before);
  for (uint64_t id : sleepers) CHECK(std::count(all.begin(), all.end(), id) == 1);
}

TEST_CASE("a copy kept to the places handed gives the same handoffs, built from less",
          "[state][handoff]") {
  Handoff& h = Handoff::get();
  const World& w = h.a->sim->world();
  const std::vector<PlaceToHand> places = {{w.findPlace("bakery"), "bakery", 5, "1-0"}};
  SimStateCopy copy;
  copySimState(*h.a->sim, copy);
  pb::SimState whole, kept;
  buildSimState(copy, whole);
  const std::vector<PlaceIndex> indices = {places[0].index};
  keepPlaces(copy, indices);
  CHECK(copy.entities.empty());
  for (const AgentCopy& agent : copy.agents) CHECK(agent.body.place == places[0].index);
  buildSimState(copy, kept);
  CHECK(kept.agents_size() < whole.agents_size());
  std::vector<pb::PlaceHandoff> from_whole, from_kept;
  splitPlaces(whole, places, 12.5, {kHash, "node-a"}, from_whole);
  splitPlaces(kept, places, 12.5, {kHash, "node-a"}, from_kept);
  REQUIRE(from_kept.size() == 1);
  CHECK(from_kept[0].arrivals_after() == "1-0");
  CHECK_FALSE(sleeperIds(from_kept[0].state()).empty());
  CHECK(diff(from_whole[0], from_kept[0]) == "");
}

TEST_CASE("an adopted place keeps memory, inventories, long actions and groups on the new clock",
          "[state][handoff]") {
  Handoff& h = Handoff::get();
  auto b = nodeB();
  const size_t forest_agents = b->sim->stats().agents;
  PlaceAdoption square, bakery;
  std::string error;
  REQUIRE(adoptPlace(h.handoffs[0], kHash, *b->sim, square, error));
  INFO(error);
  REQUIRE(adoptPlace(h.handoffs[1], kHash, *b->sim, bakery, error));
  CHECK(square.awake == static_cast<size_t>(h.handoffs[0].state().agents_size()));
  CHECK(square.skipped == 0);
  CHECK(bakery.asleep == sleeperIds(h.handoffs[1].state()).size());
  CHECK(square.clock_shift_s == Approx(b->sim->timeS() - h.a->sim->timeS()));
  CHECK(b->sim->stats().agents == forest_agents + square.awake + square.asleep + bakery.awake +
                                      bakery.asleep);

  pb::SimState after;
  captureSimState(*b->sim, after);
  const pb::AgentState* was = agentIn(h.before, kVillager);
  const pb::AgentState* now = agentIn(after, kVillager);
  REQUIRE(was);
  REQUIRE(now);
  CHECK(diff(was->inventory(), now->inventory()) == "");
  CHECK(std::equal(was->bst().variables().begin(), was->bst().variables().end(),
                   now->bst().variables().begin(), now->bst().variables().end()));
  CHECK(std::equal(was->mbt().variables().begin(), was->mbt().variables().end(),
                   now->mbt().variables().begin(), now->mbt().variables().end()));
  CHECK(std::equal(was->goap().facts().begin(), was->goap().facts().end(),
                   now->goap().facts().begin(), now->goap().facts().end()));
  CHECK(was->rng_state() == now->rng_state());
  CHECK(was->perception().tracks_size() == now->perception().tracks_size());
  CHECK(groupOf(h.before, was->perception().group()) == groupOf(after, now->perception().group()));
  CHECK(groupOf(after, now->perception().group()) != "");
  // Times moved onto B's clock by the same shift.
  for (int i = 0; i < was->mbt().timestamps_size() && i < now->mbt().timestamps_size(); ++i) {
    const double t = was->mbt().timestamps(i).time_s();
    if (t > 0.0) CHECK(now->mbt().timestamps(i).time_s() == Approx(std::max(t + square.clock_shift_s, 1e-3)));
  }

  const pb::DormantAgentState* baker_was = sleeperIn(h.before, kBaker);
  const pb::DormantAgentState* baker_now = sleeperIn(after, kBaker);
  REQUIRE(baker_was);
  REQUIRE(baker_now);
  CHECK(h.before.hibernation().long_action_names(static_cast<int>(baker_was->work_action() - 1)) ==
        after.hibernation().long_action_names(static_cast<int>(baker_now->work_action() - 1)));
  CHECK(baker_now->work_started_s() ==
        Approx(std::max(baker_was->work_started_s() + bakery.clock_shift_s, 1e-3)));
  CHECK(baker_was->item_counts_size() == baker_now->item_counts_size());
  for (int i = 0; i < baker_was->items_size() && i < baker_now->items_size(); ++i) {
    CHECK(h.before.item_names(static_cast<int>(baker_was->items(i))) ==
          after.item_names(static_cast<int>(baker_now->items(i))));
    CHECK(baker_was->item_counts(i) == baker_now->item_counts(i));
  }
  // The bakery sleeps on B as it did on A, its wake-up moved onto B's clock.
  const PlaceIndex bakery_index = b->sim->world().findPlace("bakery");
  CHECK(b->sim->placeState(bakery_index) == PlaceState::kAsleep);

  // B runs on with them.
  b->run(100);
  CHECK(b->sim->stats().agents == forest_agents + square.awake + square.asleep + bakery.awake +
                                      bakery.asleep);
}

TEST_CASE("a handoff B cannot use is refused and leaves the place empty", "[state][handoff]") {
  Handoff& h = Handoff::get();
  auto b = nodeB();
  const size_t agents = b->sim->stats().agents;
  PlaceAdoption report;
  std::string error;
  CHECK_FALSE(adoptPlace(h.handoffs[0], "other-defs", *b->sim, report, error));
  CHECK(error == "place \"square\" handoff: taken with other definitions (hash defs-1)");

  pb::PlaceHandoff lost = h.handoffs[0];
  lost.set_place("atlantis");
  CHECK_FALSE(adoptPlace(lost, kHash, *b->sim, report, error));
  CHECK(error == "place \"atlantis\" handoff: this world has no such place");

  pb::PlaceHandoff unknown = h.handoffs[0];
  unknown.mutable_state()->mutable_agents(0)->set_archetype("Dragon");
  CHECK_FALSE(adoptPlace(unknown, kHash, *b->sim, report, error));
  CHECK(error.find("place \"square\" handoff: agent ") == 0);
  CHECK(error.find("archetype \"Dragon\" is unknown") != std::string::npos);
  CHECK(b->sim->stats().agents == agents);  // nothing of the square stayed

  pb::PlaceHandoff newer = h.handoffs[0];
  newer.set_format_version(kPlaceHandoffVersion + 1);
  CHECK_FALSE(adoptPlace(newer, kHash, *b->sim, report, error));
  CHECK(error.find("format version") != std::string::npos);
  b->run(10);
  CHECK(b->sim->stats().agents == agents);
}

TEST_CASE("an agent already here is kept, not doubled", "[state][handoff]") {
  Handoff& h = Handoff::get();
  auto b = nodeB();
  // The villager has come to B another way (say, walked in from a place B holds).
  const pb::AgentState* villager = agentIn(h.handoffs[0].state(), kVillager);
  REQUIRE(villager);
  EntityState s;
  s.id = EntityId{kVillager};
  s.kind = EntityKind::kNpc;
  s.archetype = villager->archetype();
  s.position = Vec3{-60.f, 0.f, 0.f};  // in the forest
  REQUIRE(b->sim->submit({ClientId::kDaemon, 0, UpsertEntity{s}}));
  b->run(1);
  REQUIRE(b->sim->world().entities().get(b->sim->world().entities().find(EntityId{kVillager})));
  const size_t agents = b->sim->stats().agents;
  PlaceAdoption report;
  std::string error;
  REQUIRE(adoptPlace(h.handoffs[0], kHash, *b->sim, report, error));
  CHECK(report.skipped == 1);
  CHECK(b->sim->stats().agents == agents + report.awake + report.asleep);
  std::set<uint64_t> ids;
  for (const Entity& e : b->sim->world().entities().rows()) CHECK(ids.insert(raw(e.id)).second);
}

TEST_CASE("an npc walking into a place held elsewhere arrives there with its mind",
          "[state][handoff]") {
  auto a = std::make_unique<test::DemoStateWorld>(nullptr, leased());
  hold(*a, "square", 3, true);
  a->run(300);
  auto b = nodeB();  // holds the forest and (empty) the bakery
  const size_t b_agents = b->sim->stats().agents;
  pb::SimState before;
  captureSimState(*a->sim, before);
  const pb::AgentState* was = agentIn(before, kVillager);
  REQUIRE(was);

  // The game walks the villager into the bakery, which node B holds.
  EntityState moved;
  moved.id = EntityId{kVillager};
  moved.kind = EntityKind::kNpc;
  moved.position = Vec3{35.f, 0.f, 0.f};
  REQUIRE(a->sim->submit({ClientId::kDaemon, 0, UpsertEntity{moved}}));
  a->sim->tick();
  std::vector<EntityId> leaving;
  a->sim->takeLeaving(leaving);
  REQUIRE(leaving == std::vector<EntityId>{EntityId{kVillager}});

  SimStateCopy copy;
  copyAgents(*a->sim, leaving, copy);
  REQUIRE(copy.agents.size() == 1);
  pb::SimState whole;
  buildSimState(copy, whole);
  const PlaceIndex bakery = a->sim->world().findPlace("bakery");
  std::vector<pb::PlaceHandoff> out;
  splitPlaces(whole, std::vector<PlaceToHand>{{bakery, "bakery", 0, {}}}, a->sim->timeS(),
              {kHash, "node-a"}, out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].state().agents_size() == 1);
  CHECK(out[0].state().hibernation().places_size() == 0);  // the bakery's state is B's
  pb::PlaceHandoff arrivals;
  REQUIRE(arrivals.ParseFromString(out[0].SerializeAsString()));
  REQUIRE(a->sim->submit({ClientId::kDaemon, 0, HandOver{EntityId{kVillager}}}));
  a->sim->tick();
  CHECK_FALSE(a->sim->world().entities().get(a->sim->world().entities().find(EntityId{kVillager})));

  PlaceAdoption report;
  std::string error;
  REQUIRE(adoptArrivals(arrivals, kHash, *b->sim, report, error));
  CHECK(report.awake == 1);
  CHECK(b->sim->stats().agents == b_agents + 1);
  pb::SimState after;
  captureSimState(*b->sim, after);
  const pb::AgentState* now = agentIn(after, kVillager);
  REQUIRE(now);
  CHECK(now->body().place() == raw(b->sim->world().findPlace("bakery")));
  CHECK(now->body().position().x() == 35.f);
  CHECK(now->rng_state() == copy.agents[0].rng_state);  // as it left A
  CHECK(std::equal(was->goap().facts().begin(), was->goap().facts().end(),
                   now->goap().facts().begin(), now->goap().facts().end()));
  CHECK(groupOf(before, was->perception().group()) == groupOf(after, now->perception().group()));
  CHECK(b->sim->placeState(b->sim->world().findPlace("bakery")) == PlaceState::kAwake);

  SECTION("the same arrivals again (a stream read twice) change nothing") {
    REQUIRE(adoptArrivals(arrivals, kHash, *b->sim, report, error));
    CHECK(report.awake == 0);
    CHECK(report.skipped == 1);
    CHECK(b->sim->stats().agents == b_agents + 1);
  }
  SECTION("an arrival of unknown kind adds nobody") {
    pb::PlaceHandoff dragon = arrivals;
    dragon.mutable_state()->mutable_agents(0)->set_id(9999);
    *dragon.mutable_state()->add_agents() = dragon.state().agents(0);
    dragon.mutable_state()->mutable_agents(1)->set_id(9998);
    dragon.mutable_state()->mutable_agents(1)->set_archetype("Dragon");
    CHECK_FALSE(adoptArrivals(dragon, kHash, *b->sim, report, error));
    CHECK(error == "npcs arriving in place \"bakery\": agent 9998: archetype \"Dragon\" is unknown");
    CHECK(b->sim->stats().agents == b_agents + 1);
  }
  b->run(50);
}
