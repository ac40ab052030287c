#include <catch2/catch.hpp>

#include "crc32.h"

using namespace npc;

TEST_CASE("crc32 gives the standard check value", "[state]") {
  CHECK(crc32("123456789") == 0xCBF43926u);
  CHECK(crc32("") == 0u);
  CHECK(crc32("a") != crc32("b"));
}
