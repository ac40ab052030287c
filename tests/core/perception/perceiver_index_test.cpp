// PerceiverIndex: perceivers by group, species and place, and signal delivery through it,
// compared with the rule it replaced (a pass over every perceiver) on a generated world.
#include <catch2/catch.hpp>

#include "base/rng.h"
#include "perception/perceiver_index.h"
#include "perception_fixture.h"

using namespace npc;
using npc::test::PerceptionFixture;

namespace {

std::vector<uint32_t> list(std::span<const uint32_t> s) { return {s.begin(), s.end()}; }

}  // namespace

TEST_CASE("PerceiverIndex: buckets by key in perceiver order", "[perception][signals]") {
  PerceiverIndex index;
  index.clear();
  index.add(0, GroupNumber{3}, SpeciesId{1}, PlaceIndex{2});
  index.add(1, GroupNumber::kNone, SpeciesId{1}, PlaceIndex::kNone);
  index.add(4, GroupNumber{3}, SpeciesId{0}, PlaceIndex{2});
  index.add(7, GroupNumber{5}, SpeciesId::kNone, PlaceIndex{0});
  index.build();
  SECTION("Should list each key's perceivers ascending") {
    REQUIRE(list(index.inGroup(GroupNumber{3})) == std::vector<uint32_t>{0, 4});
    REQUIRE(list(index.inGroup(GroupNumber{5})) == std::vector<uint32_t>{7});
    REQUIRE(list(index.ofSpecies(SpeciesId{1})) == std::vector<uint32_t>{0, 1});
    REQUIRE(list(index.ofSpecies(SpeciesId{0})) == std::vector<uint32_t>{4});
    REQUIRE(list(index.ofSpecies(SpeciesId::kNone)) == std::vector<uint32_t>{7});
    REQUIRE(list(index.inPlace(PlaceIndex{2})) == std::vector<uint32_t>{0, 4});
    REQUIRE(list(index.inPlace(PlaceIndex{0})) == std::vector<uint32_t>{7});
  }
  SECTION("Should index neither group 0 nor place kNone, and know no other keys") {
    REQUIRE(index.inGroup(GroupNumber{0}).empty());
    REQUIRE(index.inPlace(PlaceIndex::kNone).empty());
    REQUIRE(index.inGroup(GroupNumber{4}).empty());
    REQUIRE(index.inGroup(GroupNumber{60000}).empty());
    REQUIRE(index.ofSpecies(SpeciesId{2}).empty());
    REQUIRE(index.inPlace(PlaceIndex{1}).empty());
  }
  SECTION("Should forget the last tick's perceivers on clear") {
    index.clear();
    index.add(2, GroupNumber{5}, SpeciesId{1}, PlaceIndex{0});
    index.build();
    REQUIRE(index.inGroup(GroupNumber{3}).empty());
    REQUIRE(list(index.inGroup(GroupNumber{5})) == std::vector<uint32_t>{2});
    REQUIRE(list(index.ofSpecies(SpeciesId{1})) == std::vector<uint32_t>{2});
  }
}

// The delivery rule before the index: every perceiver is tested against the request.
std::vector<Signal> deliverByScan(const World& world, std::span<const Perceiver> perceivers,
                                  const SignalRequest& req) {
  std::vector<Signal> out;
  for (const Perceiver& p : perceivers) {
    const Entity* e = world.entities().get(p.entity);
    if (!e || !p.state) continue;
    bool receives = false;
    switch (req.scope) {
      case SignalScope::kGroup:
        receives = req.group != GroupNumber::kNone && p.state->group == req.group;
        break;
      case SignalScope::kSpecies: receives = e->species == req.species; break;
      case SignalScope::kPlace:
        receives = req.place != PlaceIndex::kNone && e->place == req.place;
        break;
      default: FAIL("the scan covers group, species and place signals");
    }
    if (!receives || !p.state->sensors.signals) continue;
    if (e->id == req.sender && !req.include_sender) continue;
    out.push_back({e->id, req.sender, req.subject, req.position, req.value, req.id, req.action});
  }
  return out;
}

TEST_CASE("Signals: group, species and place deliveries match the full scan on a generated world",
          "[perception][signals]") {
  PerceptionFixture f;
  f.out = SignalQueue(1 << 20);
  Rng rng(17);
  const char* species[] = {"human", "wolf", "deer", "orc"};
  constexpr uint64_t kAgents = 3000;
  SensorConfig quiet;  // only the signals under test reach the queue
  quiet.vision = false;
  quiet.hearing = false;
  for (uint64_t i = 0; i < kAgents; ++i) {
    SensorConfig sensors = quiet;
    sensors.signals = rng.next() % 10 != 0;  // some agents do not listen
    // Ids not in spawn order: the perceivers' order, not the ids', is the delivery order.
    const uint64_t id = 1 + (i * 7919) % 100003;
    PerceptionState& st = f.addAgent(id, species[rng.next() % 4],
                                     {rng.range(0, 500), rng.range(0, 500), 0}, {1, 0, 0}, sensors);
    st.group = static_cast<GroupNumber>(rng.next() % 40);  // 0: no group
    Entity& e = f.entity(id);
    const uint64_t place = rng.next() % 12;
    e.place = place == 11 ? PlaceIndex::kNone : PlaceIndex{static_cast<uint16_t>(place)};
  }
  f.step();  // schedules full updates; nothing to see or hear
  f.clearSignals();

  std::vector<SignalRequest> requests;
  for (uint64_t k = 0; k < 300; ++k) {
    SignalRequest r;
    r.id = f.sys().signalNames().intern(k % 2 ? "OnAlarm" : "OnRegroup");
    r.scope = std::array{SignalScope::kGroup, SignalScope::kSpecies, SignalScope::kPlace}[k % 3];
    const Perceiver& sender = f.perceivers[rng.next() % f.perceivers.size()];
    r.sender = f.world.entities().get(sender.entity)->id;
    r.include_sender = k % 5 == 0;
    r.group = static_cast<GroupNumber>(rng.next() % 42);  // 40, 41: nobody's group
    r.species = SpeciesId{static_cast<uint16_t>(rng.next() % 5)};  // 4: nobody's species
    r.place = k % 17 == 0 ? PlaceIndex::kNone : PlaceIndex{static_cast<uint16_t>(rng.next() % 13)};
    r.value = static_cast<float>(k);
    r.position = {static_cast<float>(k), 0, 0};
    requests.push_back(r);
    REQUIRE(f.sys().postSignal(r));
  }
  std::vector<Signal> expected;
  for (const SignalRequest& r : requests) {
    const std::vector<Signal> one = deliverByScan(f.world, f.perceivers, r);
    expected.insert(expected.end(), one.begin(), one.end());
  }
  f.step();

  REQUIRE(expected.size() > 10000);  // the world gives every scope real work
  REQUIRE(f.signals.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO("delivery " << i);
    REQUIRE(f.signals[i].receiver == expected[i].receiver);
    REQUIRE(f.signals[i].sender == expected[i].sender);
    REQUIRE(f.signals[i].id == expected[i].id);
    REQUIRE(f.signals[i].value == expected[i].value);
  }
}
