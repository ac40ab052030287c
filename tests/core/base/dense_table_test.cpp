// DenseTable's growth: past the size given to reserveWhenLarge, rows stop moving.
#include <catch2/catch.hpp>

#include <array>

#include "base/dense_table.h"

using namespace npc;

namespace {

enum class RowId : uint64_t { kNone = 0 };

// A large row, like an Agent: moving these is what the reservation saves.
struct WideRow {
  RowId id = RowId::kNone;
  std::array<uint64_t, 64> payload{};
};

}  // namespace

TEST_CASE("DenseTable reserves its rows at once when told the table will be large",
          "[base][dense_table]") {
  DenseTable<WideRow, RowId> table;
  table.reserveWhenLarge(8, 1000);
  uint64_t next = 1;
  auto add = [&] { REQUIRE_FALSE(table.insert(static_cast<RowId>(next++)).isNull()); };

  SECTION("Should keep every row in place from the first growth past 8 rows up to 1000") {
    for (int i = 0; i < 9; ++i) add();  // the ninth grew the table
    const WideRow* rows = table.rows().data();
    table.rows()[3].payload[0] = 42;
    while (table.size() < 1000) add();
    REQUIRE(table.rows().data() == rows);
    REQUIRE(table.get(RowId{4})->payload[0] == 42);
  }
  SECTION("Should grow as usual past the reservation") {
    while (table.size() < 1000) add();
    const WideRow* reserved = table.rows().data();
    add();
    REQUIRE(table.rows().data() != reserved);  // a new block, taken while the old was live
    REQUIRE(table.size() == 1001);
    REQUIRE(table.get(RowId{1001}) != nullptr);
    REQUIRE(table.get(RowId{1})->id == RowId{1});
  }
}
