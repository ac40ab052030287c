// DurableReplies' account of clients' stream updates: per client the highest seq whose
// place entries Redis settled, ticks in order, and the runs of seqs whose entries it did not
// store (their place was given up first), named with the place.
#include <vector>

#include <catch2/catch.hpp>

#include "cluster/durable_replies.h"

using namespace npc;

namespace {

constexpr ClientId kGame{7};
constexpr ClientId kOther{8};
constexpr PlaceIndex kNone = PlaceIndex::kNone;

struct Fixture {
  World world;
  PlaceIndex square, bakery;
  DurableReplies replies;
  Fixture() {
    square = *world.addPlace("square", {{-20, -20, -2}, {20, 20, 10}});
    bakery = *world.addPlace("bakery", {{25, -10, -2}, {45, 10, 10}});
  }
  std::vector<std::pair<ClientId, uint64_t>> settle(uint64_t through, std::vector<uint64_t> lost = {}) {
    replies.settle(through, lost, world);
    std::vector<std::pair<ClientId, uint64_t>> out;
    for (const StoredUpdate& s : replies.stored()) out.push_back({s.client, s.seq});
    return out;
  }
};

using Marks = std::vector<std::pair<ClientId, uint64_t>>;

}  // namespace

TEST_CASE("Stream updates are stored once their places' entries are", "[cluster][replies]") {
  Fixture f;
  // Tick 1: the game's updates 1 and 2 in the square, 2 also in the bakery; another
  // client's update 5 in the bakery.
  f.replies.holdStream(kGame, 1, {f.square, kNone});
  f.replies.holdStream(kGame, 2, {f.square, f.bakery});
  f.replies.holdStream(kOther, 5, {f.bakery, kNone});
  f.replies.recorded(f.square, 10);
  f.replies.recorded(f.bakery, 11);
  f.replies.numberTick();
  CHECK(f.settle(10).empty());  // the bakery's entry is not settled yet
  CHECK(f.replies.unkept().empty());
  CHECK(f.settle(11) == Marks{{kGame, 2}, {kOther, 5}});
  CHECK(f.settle(11).empty());  // said once

  SECTION("an update that needs no keeping is settled as soon as the ones before it") {
    f.replies.holdStream(kGame, 3, {f.square, kNone});
    f.replies.recorded(f.square, 12);
    f.replies.numberTick();
    f.replies.holdStream(kGame, 4, {kNone, kNone});  // an obstacle: daemon-wide
    f.replies.numberTick();
    CHECK(f.settle(11).empty());  // tick 3 waits for tick 2
    CHECK(f.settle(12) == Marks{{kGame, 4}});
  }
  SECTION("updates whose entry was lost are named, and the mark moves past them") {
    f.replies.holdStream(kGame, 3, {f.square, kNone});
    f.replies.holdStream(kGame, 4, {f.bakery, kNone});
    f.replies.holdStream(kGame, 6, {f.bakery, kNone});
    f.replies.recorded(f.square, 12);
    f.replies.recorded(f.bakery, 13);
    f.replies.numberTick();
    CHECK(f.settle(13, {13}) == Marks{{kGame, 6}});
    REQUIRE(f.replies.unkept().size() == 1);
    const UnkeptUpdates& u = f.replies.unkept()[0];
    CHECK(u.client == kGame);
    CHECK(u.first_seq == 4);
    CHECK(u.last_seq == 6);
    CHECK(u.place == "bakery");
  }
  SECTION("a node that stops says nothing more") {
    f.replies.holdStream(kGame, 3, {f.square, kNone});
    f.replies.recorded(f.square, 12);
    f.replies.numberTick();
    f.replies.abandon("stopping");
    CHECK(f.settle(12).empty());
  }
}
