#include <memory>

#include <catch2/catch.hpp>

#include "intent_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

std::unique_ptr<ActionImpl> timed(float s) { return std::make_unique<TimedAction>(s); }

}  // namespace

TEST_CASE("Lookup goes through own actions, then influences by priority", "[intent][registry]") {
  IntentFixture f;
  const ActionListId human = f.registry.createOwnList("Human");
  const ActionListId spell = f.registry.createInfluence("spell:levitate", 10);
  const ActionListId horse = f.registry.createInfluence("vehicle:horse", 5);
  const ActionListId mage = f.registry.createInfluence("profession:mage", 10);
  const ActionImplId walk = f.registry.addTo(human, "Go", timed(1));
  const ActionImplId gallop = f.registry.addTo(horse, "Go", timed(1));
  const ActionImplId fly_spell = f.registry.addTo(spell, "Fly", timed(1));
  f.registry.addTo(mage, "Fly", timed(1));
  const ActionImplId ride = f.registry.addTo(horse, "Fly", timed(1));
  REQUIRE(walk != ActionImplId::kNone);
  f.agent.access.setOwn(human);
  const ActionNameId go = f.names.find("Go");
  const ActionNameId fly = f.names.find("Fly");

  SECTION("Should find an own action before any influence's") {
    REQUIRE(f.registry.addInfluence(f.agent.access, horse) == IntentStatus::kOk);
    const ActionResolution r = f.registry.resolve(f.agent.access, go);
    REQUIRE(r.impl == walk);
    REQUIRE(r.source == human);
    REQUIRE(f.registry.findInList(horse, go) == gallop);
  }
  SECTION("Should take the highest-priority influence's implementation first") {
    f.registry.addInfluence(f.agent.access, horse);
    REQUIRE(f.registry.resolve(f.agent.access, fly).impl == ride);
    f.registry.addInfluence(f.agent.access, spell);
    REQUIRE(f.registry.resolve(f.agent.access, fly).impl == fly_spell);
    REQUIRE(f.registry.resolve(f.agent.access, fly).source == spell);
  }
  SECTION("Should break equal priorities by list id (definition order)") {
    f.registry.addInfluence(f.agent.access, mage);   // defined after the spell
    f.registry.addInfluence(f.agent.access, spell);
    REQUIRE(f.agent.access.influences()[0] == spell);
    REQUIRE(f.agent.access.influences()[1] == mage);
    REQUIRE(f.registry.resolve(f.agent.access, fly).impl == fly_spell);
  }
  SECTION("Should stop finding an action when its influence is removed at run time") {
    f.registry.addInfluence(f.agent.access, spell);
    REQUIRE(f.registry.resolve(f.agent.access, fly).found());
    const uint32_t before = f.agent.access.version();
    REQUIRE(f.agent.access.removeInfluence(spell));
    REQUIRE(f.agent.access.version() != before);
    REQUIRE_FALSE(f.registry.resolve(f.agent.access, fly).found());  // you can't fly anymore
    REQUIRE_FALSE(f.agent.access.removeInfluence(spell));
  }
  SECTION("Should fall back to the next influence when one is removed") {
    f.registry.addInfluence(f.agent.access, horse);
    f.registry.addInfluence(f.agent.access, spell);
    f.agent.access.removeInfluence(spell);
    REQUIRE(f.registry.resolve(f.agent.access, fly).impl == ride);
  }
  SECTION("Should find nothing for names no list of the agent has, or never registered") {
    REQUIRE_FALSE(f.registry.resolve(f.agent.access, fly).found());
    REQUIRE_FALSE(f.registry.resolve(f.agent.access, f.name("Teleport")).found());
    REQUIRE_FALSE(f.registry.resolve(f.agent.access, ActionNameId::kNone).found());
    REQUIRE_FALSE(f.registry.known(f.name("Teleport")));
    REQUIRE(f.registry.known(fly));
  }
  SECTION("Should change nothing when an influence is added twice") {
    f.registry.addInfluence(f.agent.access, spell);
    const uint32_t v = f.agent.access.version();
    REQUIRE(f.registry.addInfluence(f.agent.access, spell) == IntentStatus::kOk);
    REQUIRE(f.agent.access.influences().size() == 1);
    REQUIRE(f.agent.access.version() == v);
  }
}

TEST_CASE("The registry reports set-up errors and limits", "[intent][registry]") {
  IntentFixture f;
  const ActionListId baker = f.registry.createOwnList("Baker");

  SECTION("Should refuse a second implementation of a name in one list, naming both") {
    f.registry.addTo(baker, "Take", timed(1));
    const ActionImplId other = f.registry.add("Take", timed(2));
    const Status s = f.registry.addToList(baker, other);
    REQUIRE(s.code() == StatusCode::kAlreadyExists);
    REQUIRE(s.message() == "action registry: list \"Baker\" already has an implementation of \"Take\"");
  }
  SECTION("Should refuse unknown list and implementation ids") {
    REQUIRE(f.registry.addToList(ActionListId{99}, ActionImplId{0}).message() ==
            "action registry: unknown action list 99");
    REQUIRE(f.registry.addToList(baker, ActionImplId{42}).message() ==
            "action registry: unknown implementation 42");
  }
  SECTION("Should refuse duplicate or empty list names and empty action names") {
    REQUIRE(f.registry.createOwnList("Baker") == ActionListId::kNone);
    REQUIRE(f.registry.createInfluence("", 1) == ActionListId::kNone);
    REQUIRE(f.registry.add("", timed(1)) == ActionImplId::kNone);
    REQUIRE(f.registry.add("Go", nullptr) == ActionImplId::kNone);
    REQUIRE(f.registry.findList("Baker") == baker);
  }
  SECTION("Should say how much room is left, down to none") {
    const size_t room = f.registry.implRoom();
    f.registry.add("Go", timed(1));
    REQUIRE(f.registry.implRoom() == room - 1);
    for (size_t i = 1; i < room; ++i) f.registry.add("Go", timed(1));
    REQUIRE(f.registry.implRoom() == 0);
    REQUIRE(f.registry.add("Go", timed(1)) == ActionImplId::kNone);  // what a reload must avoid
    REQUIRE(f.registry.listRoom() > 0);
  }
  SECTION("Should accept only influences as influences") {
    REQUIRE(f.registry.addInfluence(f.agent.access, baker) == IntentStatus::kNotInfluence);
  }
  SECTION("Should count influences refused beyond the limit") {
    for (int i = 0; i < kMaxInfluences; ++i) {
      const ActionListId l = f.registry.createInfluence("i" + std::to_string(i), int16_t(i));
      REQUIRE(f.registry.addInfluence(f.agent.access, l) == IntentStatus::kOk);
    }
    const ActionListId extra = f.registry.createInfluence("extra", 100);
    REQUIRE(f.registry.addInfluence(f.agent.access, extra) == IntentStatus::kQueueFull);
    REQUIRE(f.agent.access.refused() == 1);
    REQUIRE(f.agent.access.influences()[0] == f.registry.findList("i5"));  // priority order
  }
  SECTION("Should flag names whose implementations are game-only or coercive") {
    ActionTraits die;
    die.game_only = true;
    ActionTraits attack;
    attack.coercive = true;
    f.registry.add("Die", std::make_unique<TimedAction>(0.f, nullptr, false, die));
    f.registry.add("Attack", std::make_unique<TimedAction>(0.f, nullptr, false, attack));
    REQUIRE(f.registry.gameOnly(f.name("Die")));
    REQUIRE_FALSE(f.registry.coercive(f.name("Die")));
    REQUIRE(f.registry.coercive(f.name("Attack")));
    REQUIRE_FALSE(f.registry.gameOnly(f.name("Attack")));
  }
}
