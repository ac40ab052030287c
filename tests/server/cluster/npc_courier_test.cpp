// NpcCourier against a private redis-server: a batch of npcs sent to a place lands in that
// place's arrivals stream, is reported delivered, and is read by whoever watches the place,
// from the entry it says on; a batch sent while Redis does not answer is sent once it does.
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "cluster/npc_courier.h"
#include "cluster/place_lease_store.h"
#include "cluster/redis_connection.h"
#include "support/running_redis.h"

using namespace npc;
using namespace std::chrono_literals;

namespace {

ClusterConfig configFor(const RedisProcess& redis) {
  ClusterConfig c;
  c.enabled = true;
  c.redis_port = redis.port();
  c.node_id = "node-a";
  c.redis_timeout_ms = 50;
  return c;
}

template <class Probe>
bool eventually(Probe probe, std::chrono::milliseconds limit = 3000ms) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (probe()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return probe();
}

using Redis = test::RunningRedis;

}  // namespace

TEST_CASE("Npcs sent to a place are delivered and read by its watcher, once", "[cluster]") {
  Redis redis;
  NpcCourier from(configFor(redis.process), 10ms);
  NpcCourier to(configFor(redis.process), 10ms);
  to.watch("bakery", "");
  from.send({"bakery", std::string("np\0c", 4), {EntityId{7}, EntityId{8}}});
  from.send({"square", "elsewhere", {EntityId{9}}});

  std::vector<EntityId> delivered;
  REQUIRE(eventually([&] {
    from.takeDelivered(delivered);
    return delivered.size() == 3;
  }));
  CHECK(delivered == std::vector<EntityId>{EntityId{7}, EntityId{8}, EntityId{9}});
  CHECK(from.flush(1000ms));
  CHECK(from.stats().sent == 2);

  std::vector<IncomingNpcs> arrived;
  REQUIRE(eventually([&] {
    to.takeArrivals(arrived);
    return !arrived.empty();
  }));
  std::this_thread::sleep_for(50ms);  // a few more polls: nothing else comes
  to.takeArrivals(arrived);
  REQUIRE(arrived.size() == 1);  // the square is not watched
  CHECK(arrived[0].place == "bakery");
  CHECK(arrived[0].bytes == std::string("np\0c", 4));
  CHECK(to.stats().received == 1);

  SECTION("watched again from that entry, nothing arrives twice") {
    to.watch("bakery", arrived[0].entry_id);
    from.send({"bakery", "second", {EntityId{10}}});
    std::vector<IncomingNpcs> more;
    REQUIRE(eventually([&] {
      to.takeArrivals(more);
      return !more.empty();
    }));
    std::this_thread::sleep_for(50ms);
    to.takeArrivals(more);
    REQUIRE(more.size() == 1);
    CHECK(more[0].bytes == "second");
  }
  SECTION("another node watching from the start reads everything") {
    NpcCourier next(configFor(redis.process), 10ms);
    next.watch("bakery", "");
    std::vector<IncomingNpcs> all;
    REQUIRE(eventually([&] {
      next.takeArrivals(all);
      return !all.empty();
    }));
    CHECK(all[0].entry_id == arrived[0].entry_id);
  }
  SECTION("unwatched, nothing is read") {
    to.unwatch("bakery");
    from.send({"bakery", "third", {EntityId{11}}});
    REQUIRE(from.flush(1000ms));
    std::this_thread::sleep_for(60ms);
    std::vector<IncomingNpcs> none;
    to.takeArrivals(none);
    CHECK(none.empty());
  }
}

TEST_CASE("A batch sent while Redis does not answer goes once it does", "[cluster]") {
  Redis redis;
  NpcCourier from(configFor(redis.process), 10ms);
  redis.process.pause();
  from.send({"bakery", "npc", {EntityId{7}}});
  std::vector<EntityId> delivered;
  REQUIRE(eventually([&] { return from.stats().send_failures > 0; }));
  from.takeDelivered(delivered);
  CHECK(delivered.empty());  // not handed over: the npc stays where it is
  CHECK_FALSE(from.flush(20ms));
  redis.process.resume();
  REQUIRE(eventually([&] {
    from.takeDelivered(delivered);
    return !delivered.empty();
  }));
  CHECK(delivered == std::vector<EntityId>{EntityId{7}});
  CHECK(from.stats().sent == 1);
}

TEST_CASE("A tick's arrivals for many places go in batches; each watcher reads its own in order",
          "[cluster]") {
  Redis redis;
  RedisConnection admin("127.0.0.1", redis.process.port(), 1000ms);
  PlaceLeaseStore keys(admin);
  RedisReply reply;
  // The cellar's stream key holds another type: Redis refuses what is sent there.
  REQUIRE(admin.command({"SET", keys.placeKey("cellar", kPlaceArrivalsKey), "x"}, reply).isOk());
  NpcCourier to(configFor(redis.process), 10ms);
  const std::vector<std::string> places = {"tavern", "mill", "harbour", "cellar"};
  for (const std::string& p : places) to.watch(p, "");
  NpcCourier from(configFor(redis.process), 10ms);

  // More than one append's worth, round the places, npcs and sounds mixed.
  const size_t n = NpcCourier::kMaxArrivalsPerAppend + 44;
  std::map<std::string, std::vector<std::string>> sent;
  std::vector<EntityId> to_deliver, to_cellar;
  for (size_t i = 0; i < n; ++i) {
    const std::string& place = places[i % places.size()];
    const std::string bytes = place + " " + std::to_string(i);
    const EntityId id{i + 1};
    const std::string field(i % 3 == 0 ? kArrivalCommand : kArrivalNpcs);
    from.send({place, bytes, {id}, field});
    sent[place].push_back(bytes);
    (place == "cellar" ? to_cellar : to_deliver).push_back(id);
  }

  std::vector<EntityId> delivered;
  REQUIRE(eventually([&] {
    from.takeDelivered(delivered);
    return delivered.size() >= to_deliver.size();
  }));
  CHECK(delivered == to_deliver);  // in the order sent; the cellar's are not handed over
  CHECK(from.stats().send_failures > 0);
  CHECK_FALSE(from.flush(20ms));

  // Reads that Redis refuses (the cellar) do not hold back the other places'.
  std::map<std::string, std::vector<std::string>> read;
  const auto readAll = [&](size_t expected) {
    return eventually([&] {
      std::vector<IncomingNpcs> in;
      to.takeArrivals(in);
      for (const IncomingNpcs& e : in) read[e.place].push_back(e.bytes);
      size_t total = 0;
      for (const auto& [place, bytes] : read) total += bytes.size();
      return total >= expected;
    });
  };
  REQUIRE(readAll(to_deliver.size()));
  for (const char* p : {"tavern", "mill", "harbour"}) CHECK(read[p] == sent[p]);
  CHECK(read["cellar"].empty());

  SECTION("Should send what Redis refused once it takes it, still in order") {
    REQUIRE(admin.command({"DEL", keys.placeKey("cellar", kPlaceArrivalsKey)}, reply).isOk());
    REQUIRE(eventually([&] {
      from.takeDelivered(delivered);
      return delivered.size() == n;
    }));
    CHECK(std::vector<EntityId>(delivered.begin() + static_cast<std::ptrdiff_t>(to_deliver.size()),
                                delivered.end()) == to_cellar);
    CHECK(from.flush(1000ms));
    CHECK(from.stats().sent == n);
    REQUIRE(readAll(n));
    CHECK(read["cellar"] == sent["cellar"]);
    CHECK(to.stats().received == n);
  }
}

TEST_CASE("Place inputs are numbered as recorded; the ones Redis refused are reported lost", "[cluster]") {
  Redis redis;
  RedisConnection connection("127.0.0.1", redis.process.port(), 500ms);
  PlaceLeaseStore store(connection);
  const AcquireResult held = store.acquire("square", "node-a", "a:1", 5000ms, 0);
  REQUIRE(held.acquired);
  LeaseToken stale = held.token;
  stale.epoch = held.token.epoch + 1;  // a lease this node does not have
  NpcCourier courier(configFor(redis.process), 10ms);
  CHECK(courier.record({held.token, 1, "first"}) == 1);
  CHECK(courier.record({stale, 1, "refused"}) == 2);
  CHECK(courier.record({held.token, 2, "third"}) == 3);
  REQUIRE(courier.flush(1000ms));
  uint64_t through = 0;
  std::vector<uint64_t> lost;
  courier.takeSettled(through, lost);
  CHECK(through == 3);
  CHECK(lost == std::vector<uint64_t>{2});
  CHECK(store.readInputs("square", "", 10).entries.size() == 2);
  courier.takeSettled(through, lost);  // reported once
  CHECK(lost == std::vector<uint64_t>{2});
}
