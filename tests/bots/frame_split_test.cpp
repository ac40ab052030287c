// Frames over the daemon's per-update limit go out in parts, in order, none over the limit.
#include <catch2/catch.hpp>

#include "frame_split.h"

using namespace npc;
using namespace npc::bots;

namespace {

v1::WorldUpdate frameOf(int upserts, int sounds, int results) {
  v1::WorldUpdate u;
  u.set_seq(40);
  for (int i = 0; i < upserts; ++i) u.add_upserts()->set_id(1000 + i);
  for (int i = 0; i < sounds; ++i) u.add_sounds()->set_radius(static_cast<double>(i));
  for (int i = 0; i < results; ++i) u.add_results()->set_intention(500 + i);
  return u;
}

}  // namespace

TEST_CASE("splitFrame keeps a frame within the limit whole", "[bots][split]") {
  v1::WorldUpdate frame = frameOf(3, 2, 1);
  frame.mutable_subscribe()->add_events(v1::EVENT_KIND_ERROR);
  std::vector<v1::WorldUpdate> parts;
  REQUIRE(splitFrame(frame, 10, parts) == 1);
  CHECK(parts[0].seq() == 40);
  CHECK(updateItems(parts[0]) == 7);
  CHECK(parts[0].upserts(2).id() == 1002);
  CHECK(parts[0].has_subscribe());
}

TEST_CASE("splitFrame cuts a large frame into ordered parts under the limit", "[bots][split]") {
  // 13,643 items, as a 100k-agent run piled them up, against the default 10,000.
  v1::WorldUpdate frame = frameOf(9000, 1643, 3000);
  std::vector<v1::WorldUpdate> parts;
  REQUIRE(splitFrame(frame, 10000, parts) == 2);

  SECTION("Should keep every part within the limit and number them consecutively") {
    CHECK(updateItems(parts[0]) == 10000);
    CHECK(updateItems(parts[1]) == 3643);
    CHECK(parts[0].seq() == 40);
    CHECK(parts[1].seq() == 41);
  }
  SECTION("Should keep the items' order across parts, fields in the daemon's order") {
    CHECK(parts[0].upserts_size() == 9000);
    CHECK(parts[0].sounds_size() == 1000);  // the first sounds fill the first part
    CHECK(parts[0].results_size() == 0);
    CHECK(parts[1].sounds(0).radius() == 1000.0);
    CHECK(parts[1].sounds_size() == 643);
    CHECK(parts[1].results(0).intention() == 500);
    CHECK(parts[1].results(2999).intention() == 3499);
  }
  SECTION("Should reuse the parts' storage for the next frame") {
    v1::WorldUpdate small = frameOf(5, 0, 0);
    REQUIRE(splitFrame(small, 10000, parts) == 1);
    CHECK(updateItems(parts[0]) == 5);
    CHECK(parts.size() == 2);  // kept for later, not sent
  }
}

TEST_CASE("splitFrame counts the subscription against the first part", "[bots][split]") {
  v1::WorldUpdate frame = frameOf(5, 0, 0);
  for (int i = 0; i < 3; ++i) frame.mutable_subscribe()->add_places("p" + std::to_string(i));
  std::vector<v1::WorldUpdate> parts;
  REQUIRE(splitFrame(frame, 4, parts) == 2);
  CHECK(updateItems(parts[0]) == 4);  // 3 places + 1 upsert
  CHECK(parts[0].upserts(0).id() == 1000);
  CHECK_FALSE(parts[1].has_subscribe());
  CHECK(parts[1].upserts_size() == 4);
  CHECK(parts[1].upserts(3).id() == 1004);
}
