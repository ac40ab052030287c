#include <catch2/catch.hpp>

#include "world/entity_table.h"

using namespace npc;

TEST_CASE("EntityTable stores entities densely behind checked handles", "[world][entities]") {
  EntityTable table;
  const EntityHandle a = table.insert(EntityId{10});
  const EntityHandle b = table.insert(EntityId{20});
  const EntityHandle c = table.insert(EntityId{30});
  REQUIRE(table.size() == 3);

  SECTION("Should refuse id 0 and duplicate ids") {
    REQUIRE(table.insert(EntityId::kNone).isNull());
    REQUIRE(table.insert(EntityId{20}).isNull());
    REQUIRE(table.size() == 3);
  }
  SECTION("Should find rows by id and by handle") {
    REQUIRE(table.find(EntityId{20}) == b);
    REQUIRE(table.get(b)->id == EntityId{20});
    REQUIRE(table.find(EntityId{99}).isNull());
    REQUIRE(table.get(EntityId{99}) == nullptr);
  }
  SECTION("Should keep rows packed after a removal and keep other handles valid") {
    REQUIRE(table.remove(EntityId{10}));
    REQUIRE(table.size() == 2);
    REQUIRE(table.get(b)->id == EntityId{20});
    REQUIRE(table.get(c)->id == EntityId{30});
    for (uint32_t row = 0; row < table.size(); ++row) {
      REQUIRE(table.rowOf(table.handleAt(row)) == row);
    }
  }
  SECTION("Should make handles of removed entities stale, even when the slot is reused") {
    REQUIRE(table.remove(EntityId{20}));
    REQUIRE(table.get(b) == nullptr);
    const EntityHandle d = table.insert(EntityId{40});
    REQUIRE(d.slot == b.slot);          // slot recycled...
    REQUIRE(table.get(b) == nullptr);   // ...but the old handle still fails
    REQUIRE(table.get(d)->id == EntityId{40});
    REQUIRE_FALSE(table.remove(EntityId{20}));
  }
  SECTION("Should never resolve a null handle") {
    REQUIRE(table.get(EntityHandle{}) == nullptr);
    REQUIRE(a != EntityHandle{});
  }
}
