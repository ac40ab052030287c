// LeaseKeeper against a private redis-server: places claimed by policy, leases renewed,
// handed over when a node gives them up, lost on the node's own clock before they can
// expire in Redis when Redis stops answering, and kept through a Redis restart.
#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "cluster/lease_keeper.h"
#include "cluster/redis_connection.h"
#include "support/running_redis.h"

using namespace npc;
using namespace std::chrono_literals;

namespace {

const std::vector<std::string> kPlaces = {"north", "south", "east", "west"};

ClusterConfig configFor(const RedisProcess& redis, std::string node, double ttl_s = 0.6) {
  ClusterConfig c;
  c.enabled = true;
  c.redis_port = redis.port();
  c.node_id = std::move(node);
  c.lease_ttl_s = ttl_s;
  c.redis_timeout_ms = 50;
  return c;
}

// Changes reported by `keeper` until `done` says so or `limit` passes.
template <class Done>
std::vector<LeaseChange> collect(LeaseKeeper& keeper, Done done, std::chrono::milliseconds limit = 3000ms) {
  std::vector<LeaseChange> all;
  const auto end = LeaseKeeper::Clock::now() + limit;
  while (!done(all) && LeaseKeeper::Clock::now() < end) {
    keeper.takeChanges(LeaseKeeper::Clock::now(), all);
    std::this_thread::sleep_for(10ms);
  }
  return all;
}

size_t countOf(const std::vector<LeaseChange>& changes, LeaseChange::Kind kind) {
  size_t n = 0;
  for (const LeaseChange& c : changes) n += c.kind == kind;
  return n;
}

auto atLeast(size_t n, LeaseChange::Kind kind) {
  return [n, kind](const std::vector<LeaseChange>& c) { return countOf(c, kind) >= n; };
}

using Redis = test::RunningRedis;

}  // namespace

TEST_CASE("A balanced node alone claims every place; a drain hands them to the next", "[cluster]") {
  Redis redis;
  LeaseKeeper a(configFor(redis.process, "node-a"), "127.0.0.1:1", kPlaces);
  a.start();
  const auto got = collect(a, atLeast(4, LeaseChange::Kind::kAcquired));
  REQUIRE(countOf(got, LeaseChange::Kind::kAcquired) == 4);
  for (const LeaseChange& c : got) CHECK(c.epoch == 1);
  CHECK(a.stats().held == 4);

  LeaseKeeper b(configFor(redis.process, "node-b"), "127.0.0.1:2", kPlaces);
  b.start();
  // b acquires nothing and hears who holds each place (for refusals that name the holder).
  const auto heard = collect(b, atLeast(4, LeaseChange::Kind::kHeldElsewhere));
  std::this_thread::sleep_for(300ms);  // a few more rounds: still nothing acquired, no news
  std::vector<LeaseChange> none;
  b.takeChanges(LeaseKeeper::Clock::now(), none);
  CHECK(none.empty());
  REQUIRE(heard.size() == 4);
  for (const LeaseChange& c : heard) {
    CHECK(c.kind == LeaseChange::Kind::kHeldElsewhere);
    CHECK(c.why == "node-a at 127.0.0.1:1");
    CHECK(c.epoch == 1);
  }

  const ClusterView view = b.view();
  REQUIRE(view.status.isOk());
  REQUIRE(view.nodes.size() == 2);
  CHECK(view.nodes[0].node == "node-a");
  CHECK(view.nodes[1].address == "127.0.0.1:2");
  REQUIRE(view.places.size() == 4);
  CHECK(view.places[0].place == "east");  // by name
  for (const ClusterPlaceView& p : view.places) {
    CHECK(p.node == "node-a");
    CHECK(p.address == "127.0.0.1:1");
    CHECK(p.remaining_s > 0.0);
  }

  a.stop(true);  // drain: the leases are released at once, not left to expire
  const auto start = LeaseKeeper::Clock::now();
  const auto taken = collect(b, atLeast(4, LeaseChange::Kind::kAcquired));
  REQUIRE(countOf(taken, LeaseChange::Kind::kAcquired) == 4);
  for (const LeaseChange& c : taken) {
    if (c.kind == LeaseChange::Kind::kAcquired) CHECK(c.epoch == 2);
  }
  // a withdrew its announcement as it drained, so b's fair share was every place at once.
  CHECK(b.view().nodes.size() == 1);
  CHECK(a.stats().released == 4);
  // One claim round (ttl/4 = 150 ms) at most, not a whole ttl.
  CHECK(LeaseKeeper::Clock::now() - start < 600ms);
}

TEST_CASE("Balanced nodes that start together share the places", "[cluster]") {
  Redis redis;
  RedisConnection connection("127.0.0.1", redis.process.port(), 500ms);
  PlaceLeaseStore store(connection);
  // Both announced before either claims: each takes its fair share, two places.
  REQUIRE(store.announceNode("node-a", "a:1", 5000ms).isOk());
  REQUIRE(store.announceNode("node-b", "b:1", 5000ms).isOk());
  LeaseKeeper a(configFor(redis.process, "node-a"), "a:1", kPlaces);
  LeaseKeeper b(configFor(redis.process, "node-b"), "b:1", kPlaces);
  a.start();
  b.start();
  const auto got_a = collect(a, atLeast(2, LeaseChange::Kind::kAcquired));
  const auto got_b = collect(b, atLeast(2, LeaseChange::Kind::kAcquired));
  std::this_thread::sleep_for(300ms);
  CHECK(a.stats().held == 2);
  CHECK(b.stats().held == 2);
  std::vector<std::string> places;
  for (const auto* got : {&got_a, &got_b}) {
    for (const LeaseChange& c : *got) {
      if (c.kind == LeaseChange::Kind::kAcquired) places.push_back(c.place);
    }
  }
  std::sort(places.begin(), places.end());
  CHECK(places == std::vector<std::string>{"east", "north", "south", "west"});
}

TEST_CASE("Balanced nodes started a moment apart split the places without shedding", "[cluster]") {
  Redis redis;
  LeaseKeeper a(configFor(redis.process, "node-a"), "a:1", kPlaces);
  LeaseKeeper b(configFor(redis.process, "node-b"), "b:1", kPlaces);
  a.start();
  std::this_thread::sleep_for(50ms);  // within a's first round (ttl/4 = 150 ms)
  b.start();
  const auto got_a = collect(a, atLeast(2, LeaseChange::Kind::kAcquired));
  const auto got_b = collect(b, atLeast(2, LeaseChange::Kind::kAcquired));
  std::this_thread::sleep_for(600ms);  // a ttl more: a shed would have come by now
  std::vector<LeaseChange> later_a, later_b;
  a.takeChanges(LeaseKeeper::Clock::now(), later_a);
  b.takeChanges(LeaseKeeper::Clock::now(), later_b);
  CHECK(countOf(got_a, LeaseChange::Kind::kShed) + countOf(later_a, LeaseChange::Kind::kShed) == 0);
  CHECK(countOf(got_b, LeaseChange::Kind::kShed) + countOf(later_b, LeaseChange::Kind::kShed) == 0);
  CHECK(countOf(got_a, LeaseChange::Kind::kAcquired) == 2);
  CHECK(countOf(got_b, LeaseChange::Kind::kAcquired) == 2);
  CHECK(a.stats().held == 2);
  CHECK(b.stats().held == 2);
}

TEST_CASE("A static node claims only its own places", "[cluster]") {
  Redis redis;
  ClusterConfig c = configFor(redis.process, "node-a");
  c.balanced = false;
  c.places = {"south"};
  LeaseKeeper a(c, "a:1", kPlaces);
  a.start();
  const auto got = collect(a, atLeast(1, LeaseChange::Kind::kAcquired));
  std::this_thread::sleep_for(300ms);
  REQUIRE(got.size() == 1);
  CHECK(got[0].place == "south");
  CHECK(a.stats().held == 1);
}

TEST_CASE("A node whose Redis stops answering gives its places up before the ttl", "[cluster]") {
  Redis redis;
  LeaseKeeper a(configFor(redis.process, "node-a", 1.0), "a:1", kPlaces);
  a.start();
  REQUIRE(countOf(collect(a, atLeast(4, LeaseChange::Kind::kAcquired)), LeaseChange::Kind::kAcquired) == 4);
  std::this_thread::sleep_for(300ms);  // at least one renew went through
  const auto paused = LeaseKeeper::Clock::now();
  redis.process.pause();  // renews now time out; the leases run out in Redis 1 s after the last
  const auto lost = collect(a, atLeast(4, LeaseChange::Kind::kLost));
  const auto when = LeaseKeeper::Clock::now() - paused;
  // Asked before Redis answers again: once it does, the keeper may claim the place afresh.
  CHECK_FALSE(a.valid("north", LeaseKeeper::Clock::now()));
  redis.process.resume();
  REQUIRE(countOf(lost, LeaseChange::Kind::kLost) == 4);
  for (const LeaseChange& c : lost) CHECK(c.why == "not renewed in time");
  // Valid for 0.6 s after the last renew was sent, and Redis keeps them 1 s after it
  // received it: the node stopped while the leases were surely still its own.
  CHECK(when < 700ms);
  CHECK(a.stats().renew_failures > 0);
}

TEST_CASE("A node keeps its places through a Redis restart", "[cluster]") {
  Redis redis;
  LeaseKeeper a(configFor(redis.process, "node-a", 2.0), "a:1", kPlaces);
  a.start();
  REQUIRE(countOf(collect(a, atLeast(4, LeaseChange::Kind::kAcquired)), LeaseChange::Kind::kAcquired) == 4);
  redis.process.stop();  // no persistence: every lease and epoch is gone
  REQUIRE(redis.process.start().isOk());
  std::this_thread::sleep_for(1500ms);  // three renew rounds; the validity is 1.2 s
  std::vector<LeaseChange> changes;
  a.takeChanges(LeaseKeeper::Clock::now(), changes);
  CHECK(changes.empty());
  CHECK(a.stats().held == 4);
  const ClusterView view = a.view();
  REQUIRE(view.status.isOk());
  for (const ClusterPlaceView& p : view.places) {
    CHECK(p.node == "node-a");
    CHECK(p.epoch == 1);
  }
}
