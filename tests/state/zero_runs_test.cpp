// Zero-run packing of native records: any bytes come back exactly, mostly-zero records
// shrink, and a packed string that is malformed or of another size is refused.
#include <cstring>
#include <random>

#include <catch2/catch.hpp>

#include "zero_runs.h"

using namespace npc;

TEST_CASE("zero-run packing gives back exactly the bytes packed", "[state][zero_runs]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string bytes(rng() % 300, '\0');
    for (char& b : bytes) {
      if (rng() % 3 == 0) b = static_cast<char>(rng() % 256);  // mostly zeros, some runs short
    }
    const std::string packed = packZeroRuns(bytes);
    const auto back = unpackZeroRuns(packed, bytes.size());
    REQUIRE(back.has_value());
    REQUIRE(*back == bytes);
  }
}

TEST_CASE("a mostly-zero record packs small", "[state][zero_runs]") {
  std::string record(2000, '\0');
  record[10] = 1;
  record[1500] = 2;
  const std::string packed = packZeroRuns(record);
  CHECK(packed.size() < 16);
  CHECK(packZeroRuns("").empty());
  const std::string dense = "abcdefgh";
  CHECK(packZeroRuns(dense).size() == dense.size() + 2);
}

TEST_CASE("a malformed or wrongly sized packing is refused", "[state][zero_runs]") {
  const std::string packed = packZeroRuns(std::string("ab\0\0\0\0\0cd", 9));
  CHECK(unpackZeroRuns(packed, 9).has_value());
  CHECK_FALSE(unpackZeroRuns(packed, 8).has_value());
  CHECK_FALSE(unpackZeroRuns(packed, 10).has_value());
  CHECK_FALSE(unpackZeroRuns(std::string("\x05" "ab", 3), 2).has_value());  // literal past the end
  CHECK_FALSE(unpackZeroRuns(std::string("\x80", 1), 0).has_value());       // varint cut off
}

TEST_CASE("packing against a baseline keeps only what differs from it", "[state][zero_runs]") {
  struct Record {
    double a = 1.5;
    float b[64] = {};
    int c = -1;
  };
  const std::string fresh = freshBytes<Record>();
  Record changed;
  changed.b[3] = 2.f;
  const std::string bytes(reinterpret_cast<const char*>(&changed), sizeof changed);
  const std::string packed = packAgainst(bytes, fresh);
  CHECK(packed.size() < 16);
  const auto back = unpackAgainst(packed, fresh);
  REQUIRE(back.has_value());
  CHECK(std::memcmp(back->data(), &changed, sizeof changed) == 0);
}
