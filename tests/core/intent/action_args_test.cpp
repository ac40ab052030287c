#include <catch2/catch.hpp>

#include "intent/action_args.h"
#include "intent/action_out.h"
#include "intent_fixture.h"

using namespace npc;
using namespace npc::test;

TEST_CASE("Action arguments carry the seed's parameter types", "[intent][args]") {
  NameTable<ActionNameId> names;
  const ActionNameId min = names.intern("min");
  const ActionNameId bread = names.intern("Bread");
  const ActionNameId ready = names.intern("breads_ready");

  SECTION("Should build each type with its payload and default role") {
    const ActionArg e = ActionArg::ofEntity(EntityId{42}, ArgRole::kReceiver);
    REQUIRE(e.type == ArgType::kEntity);
    REQUIRE(e.role == ArgRole::kReceiver);
    REQUIRE(e.entity == EntityId{42});
    const ActionArg v = ActionArg::ofValue(10.0, min);
    REQUIRE(v.type == ArgType::kValue);
    REQUIRE(v.value == 10.0);
    REQUIRE(v.unit == min);
    const ActionArg p = ActionArg::ofPosition({1.f, 2.f, 3.f}, PlaceIndex{4});
    REQUIRE(p.position() == Vec3{1.f, 2.f, 3.f});
    REQUIRE(p.place == PlaceIndex{4});
    REQUIRE(ActionArg::ofEntityType(bread).text() == bread);
    REQUIRE(ActionArg::ofMessage(ready).type == ArgType::kMessage);
    REQUIRE(ActionArg::ofGroup(9, ArgRole::kReceiver).group == 9u);
    REQUIRE(v.role == ArgRole::kParam);
  }
  SECTION("Should compare the payload of the type only") {
    REQUIRE(ActionArg::ofValue(10.0, min) == ActionArg::ofValue(10.0, min));
    REQUIRE_FALSE(ActionArg::ofValue(10.0, min) == ActionArg::ofValue(10.0, ActionNameId::kNone));
    REQUIRE_FALSE(ActionArg::ofEntity(EntityId{1}) ==
                  ActionArg::ofEntity(EntityId{1}, ArgRole::kReceiver));
    REQUIRE_FALSE(ActionArg::ofEntity(EntityId{1}) == ActionArg::ofGroup(1));
  }
  SECTION("Should find arguments by role, type and name") {
    const ActionNameId key = names.intern("key");
    // perform("Open", Raoul, [door of Midgaard's bakery, Raoul's key])
    const ActionArg open[] = {ActionArg::ofEntity(EntityId{100}, ArgRole::kReceiver),
                              ActionArg::ofEntity(EntityId{101}, ArgRole::kParam, key)};
    REQUIRE(nthArg(open, ArgRole::kReceiver)->entity == EntityId{100});
    REQUIRE(nthArg(open, ArgRole::kReceiver, 1) == nullptr);
    REQUIRE(namedArg(open, key)->entity == EntityId{101});
    REQUIRE(nthParam(open, ArgType::kEntity)->entity == EntityId{101});
    REQUIRE(nthParam(open, ArgType::kValue) == nullptr);
    REQUIRE(countArgs(open, ArgRole::kReceiver) == 1);
    REQUIRE(countArgs(open, ArgRole::kInvoker) == 0);
  }
}

TEST_CASE("Client-side starts map onto ActionOut", "[intent][args]") {
  IntentFixture f;
  const ClientParamNames& pn = f.registry.clientParamNames();
  ClientActionStart s;
  s.agent = EntityId{7};
  s.intention = IntentionId{12};
  s.owner = ClientId{3};
  s.place = PlaceIndex{1};
  s.action = f.name("Talk");
  s.arg_count = 4;
  s.args[0] = ActionArg::ofEntity(EntityId{8}, ArgRole::kReceiver);
  s.args[1] = ActionArg::ofMessage(f.name("breads_ready"), f.name("message"));
  s.args[2] = ActionArg::ofGroup(5);
  s.args[3] = ActionArg::ofPosition({1.f, 2.f, 0.f}, PlaceIndex{2});
  ActionOut out;
  toActionOut(s, pn, out);

  SECTION("Should copy agent, intention, name, owner and place") {
    REQUIRE(out.agent == EntityId{7});
    REQUIRE(out.intention == IntentionId{12});
    REQUIRE(out.owner == ClientId{3});
    REQUIRE(out.place == PlaceIndex{1});
    REQUIRE(f.names.name(out.name) == "Talk");
    REQUIRE(out.param_count == 4);
  }
  SECTION("Should name unnamed arguments after their role") {
    REQUIRE(out.params[0].type == ActionParam::Type::kEntity);
    REQUIRE(out.params[0].entity == EntityId{8});
    REQUIRE(f.names.name(out.params[0].name) == "receiver");
    REQUIRE(f.names.name(out.params[2].name) == "param");
  }
  SECTION("Should send messages and types as text, groups as numbers with unit group") {
    REQUIRE(out.params[1].type == ActionParam::Type::kText);
    REQUIRE(f.names.name(out.params[1].text) == "breads_ready");
    REQUIRE(f.names.name(out.params[1].name) == "message");
    REQUIRE(out.params[2].type == ActionParam::Type::kNumber);
    REQUIRE(out.params[2].number == 5.0);
    REQUIRE(f.names.name(out.params[2].unit) == "group");
    REQUIRE(out.params[3].type == ActionParam::Type::kPosition);
    REQUIRE(out.params[3].position == Vec3{1.f, 2.f, 0.f});
  }
  SECTION("Should keep a value's unit") {
    const ActionParam p = toActionParam(ActionArg::ofValue(2.5, f.name("m/s")), pn);
    REQUIRE(p.type == ActionParam::Type::kNumber);
    REQUIRE(p.number == 2.5);
    REQUIRE(f.names.name(p.unit) == "m/s");
  }
}
