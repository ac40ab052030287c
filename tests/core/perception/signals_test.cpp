// Signals: interned names, routing to one agent, a group, a species or a radius, the
// signals switch, and bounded queues.
#include <catch2/catch.hpp>

#include "perception_fixture.h"

using namespace npc;
using npc::test::PerceptionFixture;

TEST_CASE("Signals: names are interned once", "[perception][signals]") {
  SignalNames names;
  SECTION("Should give the standard signals fixed ids") {
    REQUIRE(names.name(SignalId::kOnEnemySeen) == "OnEnemySeen");
    REQUIRE(names.name(SignalId::kOnBulletRain) == "OnBulletRain");
    REQUIRE(names.find("OnLostSightOfTarget") == SignalId::kOnLostSightOfTarget);
  }
  SECTION("Should intern custom names after them") {
    const SignalId id = names.intern("OnAlarmBell");
    REQUIRE(id == SignalId::kFirstCustom);
    REQUIRE(names.intern("OnAlarmBell") == id);
    REQUIRE(names.name(id) == "OnAlarmBell");
    REQUIRE(names.intern("") == SignalId::kNone);
  }
}

TEST_CASE("Signals: routing", "[perception][signals]") {
  PerceptionFixture f;
  auto& a = f.addAgent(1, "guard", {0, 0, 0});
  auto& b = f.addAgent(2, "guard", {10, 0, 0});
  f.addAgent(3, "villager", {30, 0, 0});
  f.addAgent(4, "guard", {100, 0, 0});
  a.group = GroupNumber{7};
  b.group = GroupNumber{7};
  const SignalId alarm = f.sys().signalNames().intern("OnAlarm");
  auto receivers = [&] {
    std::vector<uint64_t> out;
    for (const Signal& s : f.signals) {
      if (s.id == alarm) out.push_back(raw(s.receiver));
    }
    return out;
  };
  SignalRequest r;
  r.id = alarm;
  r.sender = EntityId{1};
  r.position = {1, 2, 3};
  r.value = 4.f;
  SECTION("Should deliver to one agent with the sender's data") {
    r.target = EntityId{3};
    REQUIRE(f.sys().postSignal(r));
    f.step();
    REQUIRE(receivers() == std::vector<uint64_t>{3});
    const Signal* s = f.last(alarm, 3);
    REQUIRE(s->sender == EntityId{1});
    REQUIRE(s->position == Vec3{1, 2, 3});
    REQUIRE(s->value == 4.f);
  }
  SECTION("Should deliver to a group, skipping the sender unless asked") {
    r.scope = SignalScope::kGroup;
    r.group = GroupNumber{7};
    f.sys().postSignal(r);
    f.step();
    REQUIRE(receivers() == std::vector<uint64_t>{2});
    r.include_sender = true;
    f.sys().postSignal(r);
    f.clearSignals();
    f.step();
    REQUIRE(receivers() == std::vector<uint64_t>{1, 2});
  }
  SECTION("Should deliver to a species") {
    r.scope = SignalScope::kSpecies;
    r.species = f.species("guard");
    f.sys().postSignal(r);
    f.step();
    REQUIRE(receivers() == std::vector<uint64_t>{2, 4});
  }
  SECTION("Should deliver to everyone within a radius") {
    r.scope = SignalScope::kRadius;
    r.position = {5, 0, 0};
    r.radius_m = 26.f;
    r.sender = EntityId::kNone;
    f.sys().postSignal(r);
    f.step();
    REQUIRE(receivers() == std::vector<uint64_t>{1, 2, 3});
  }
  SECTION("Should deliver to every agent of a place") {
    f.entity(2).place = PlaceIndex{3};
    f.entity(4).place = PlaceIndex{3};
    r.scope = SignalScope::kPlace;
    r.place = PlaceIndex{3};
    f.sys().postSignal(r);
    f.step();
    REQUIRE(receivers() == std::vector<uint64_t>{2, 4});
  }
  SECTION("Should not deliver to an agent whose signals sensor is off") {
    b.sensors.signals = false;
    r.scope = SignalScope::kGroup;
    r.group = GroupNumber{7};
    f.sys().postSignal(r);
    f.step();
    REQUIRE(receivers().empty());
  }
  SECTION("Should refuse requests past the queue's capacity and count them") {
    PerceptionFixture g;
    g.config.max_pending_signals = 2;
    g.addAgent(1, "guard", {0, 0, 0});
    SignalRequest q;
    q.id = SignalId::kOnBulletRain;
    q.target = EntityId{1};
    REQUIRE(g.sys().postSignal(q));
    REQUIRE(g.sys().postSignal(q));
    REQUIRE_FALSE(g.sys().postSignal(q));
    REQUIRE(g.sys().totals().signal_requests_refused == 1);
    g.step();
    REQUIRE(g.count(SignalId::kOnBulletRain, 1) == 2);
  }
  SECTION("Should drop and count deliveries past the output queue's capacity") {
    SignalQueue small(1);
    REQUIRE(small.push({}));
    REQUIRE_FALSE(small.push({}));
    REQUIRE(small.dropped() == 1);
  }
}
