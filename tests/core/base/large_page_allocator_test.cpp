// LargePageAllocator: big blocks start on a 2 MiB boundary (the kernel can only back an
// aligned 2 MiB range with a huge page), small ones are ordinary, and a vector over it keeps
// its contents as it grows and shrinks like any other.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "base/large_page_allocator.h"

using namespace npc;

namespace {

struct alignas(64) Row {
  uint64_t id = 0;
  char payload[4088] = {};  // an Agent's size: 4 KiB a row
};

bool onLargePage(const void* p) {
  return reinterpret_cast<uintptr_t>(p) % large_pages::kPageBytes == 0;
}

}  // namespace

TEST_CASE("LargePageAllocator: big blocks on 2 MiB boundaries", "[base][large_pages]") {
  SECTION("Should align a block of 2 MiB or more to 2 MiB") {
    LargePageAllocator<Row> alloc;
    const size_t n = 1000;  // 4 MB
    Row* rows = alloc.allocate(n);
    REQUIRE(onLargePage(rows));
    for (size_t i = 0; i < n; ++i) rows[i].id = i;  // every byte is usable
    REQUIRE(rows[n - 1].id == n - 1);
    alloc.deallocate(rows, n);
  }
  SECTION("Should give small blocks the type's own alignment only") {
    LargePageAllocator<Row> alloc;
    Row* rows = alloc.allocate(3);
    REQUIRE(reinterpret_cast<uintptr_t>(rows) % alignof(Row) == 0);
    alloc.deallocate(rows, 3);
  }
  SECTION("Should keep a vector's rows through growth past the threshold and back") {
    std::vector<Row, LargePageAllocator<Row>> rows;
    for (uint64_t i = 0; i < 2000; ++i) rows.push_back(Row{i, {}});
    REQUIRE(onLargePage(rows.data()));
    for (uint64_t i = 0; i < rows.size(); ++i) REQUIRE(rows[i].id == i);
    rows.resize(10);
    rows.shrink_to_fit();
    REQUIRE(rows.size() == 10);
    REQUIRE(rows[9].id == 9);
  }
}
