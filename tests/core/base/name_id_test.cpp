// NameId: an index of one name table, which the compiler keeps apart from every other
// table's and from plain numbers.
#include <catch2/catch.hpp>

#include <cstdint>
#include <type_traits>

#include "base/name_id.h"
#include "world/ids.h"
#include "world/name_table.h"

using namespace npc;

// An action name is no species, and neither is a number unless constructed as one.
static_assert(!std::is_convertible_v<ActionNameId, SpeciesId>);
static_assert(!std::is_constructible_v<SpeciesId, ActionNameId>);
static_assert(!std::is_convertible_v<uint16_t, ActionNameId>);
static_assert(!std::is_convertible_v<ActionNameId, uint16_t>);
static_assert(!std::is_constructible_v<uint16_t, ActionNameId>);
static_assert(std::is_constructible_v<ActionNameId, uint16_t>);
static_assert(!std::is_assignable_v<ActionNameId&, SpeciesId>);
static_assert(!std::is_assignable_v<ActionNameId&, uint16_t>);
// What records holding one rely on.
static_assert(sizeof(ActionNameId) == 2 && alignof(ActionNameId) == alignof(uint16_t));
static_assert(std::is_trivially_copyable_v<SpeciesId>);

TEST_CASE("A NameId is none by default and compares by index", "[base][name_id]") {
  CHECK(ActionNameId{}.isNone());
  CHECK(ActionNameId{} == ActionNameId::kNone);
  CHECK(raw(ActionNameId::kNone) == 0xffff);
  CHECK_FALSE(ActionNameId{0}.isNone());
  CHECK(ActionNameId{3} == ActionNameId{3});
  CHECK(ActionNameId{3} != ActionNameId{4});
  CHECK(ActionNameId{3} < ActionNameId{4});
  CHECK(ActionNameId{4} < ActionNameId::kNone);  // none sorts after every name
  CHECK(raw(ActionNameId{7}) == 7);
}

TEST_CASE("A NameTable hands out its own kind of id", "[base][name_id]") {
  NameTable<SpeciesId> species;
  const SpeciesId guard = species.intern("guard");
  const SpeciesId bandit = species.intern("bandit");

  SECTION("Should give names dense ids in interning order and keep them") {
    CHECK(guard == SpeciesId{0});
    CHECK(bandit == SpeciesId{1});
    CHECK(species.intern("guard") == guard);
    CHECK(species.find("bandit") == bandit);
    CHECK(species.size() == 2);
  }
  SECTION("Should read a name back from its id") {
    CHECK(species.name(guard) == "guard");
    CHECK(species.name(bandit) == "bandit");
    CHECK(species.names().size() == 2);
    CHECK(species.names()[1] == "bandit");
  }
  SECTION("Should answer none for an unknown name, and read none and strangers as empty") {
    CHECK(species.find("wolf").isNone());
    CHECK(species.name(SpeciesId::kNone).empty());
    CHECK(species.name(SpeciesId{2}).empty());
  }
  SECTION("Should keep another table's numbering apart") {
    NameTable<ActionNameId> actions;
    const ActionNameId shoot = actions.intern("Shoot");
    CHECK(raw(shoot) == raw(guard));  // the same index...
    CHECK(actions.name(shoot) == "Shoot");  // ...names another thing in another table
    CHECK(species.name(guard) == "guard");
  }
}

TEST_CASE("A signal group's number is its name's index + 1, none for none", "[base][name_id]") {
  CHECK(groupNumber(GroupNameId{0}) == GroupNumber{1});
  CHECK(groupNameOf(GroupNumber{1}) == GroupNameId{0});
  CHECK(groupNumber(GroupNameId::kNone) == GroupNumber::kNone);
  CHECK(groupNameOf(GroupNumber::kNone) == GroupNameId::kNone);
}
