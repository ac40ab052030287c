// PlaceLeaseStore: one owner per place, epochs that only rise, and fencing that keeps a
// node whose lease ran out from renewing or overwriting its successor's data.
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "cluster/place_lease_store.h"
#include "cluster/redis_connection.h"
#include "cluster/redis_reply.h"
#include "support/redis_process.h"

using namespace npc;
using namespace std::chrono_literals;

namespace {

// Two daemons sharing one Redis, each with its own connection, as on two machines.
struct TwoNodes {
  RedisProcess redis;
  RedisConnection connection_a{"127.0.0.1", redis.port(), 1000ms};
  RedisConnection connection_b{"127.0.0.1", redis.port(), 1000ms};
  PlaceLeaseStore a{connection_a};
  PlaceLeaseStore b{connection_b};

  TwoNodes() {
    const Status started = redis.start();
    if (!started.isOk()) FAIL(started.message());
  }
};

LeaseToken acquireOrFail(PlaceLeaseStore& store, const std::string& place,
                         const std::string& node, std::chrono::milliseconds ttl,
                         uint64_t known_epoch = 0) {
  const AcquireResult result = store.acquire(place, node, node + ".local:50051", ttl, known_epoch);
  INFO(result.status.message());
  REQUIRE(result.status.isOk());
  REQUIRE(result.acquired);
  return result.token;
}

}  // namespace

TEST_CASE("the first owner of a place gets epoch 1", "[lease]") {
  TwoNodes nodes;
  const AcquireResult result = nodes.a.acquire("tavern", "node-a", "10.0.0.1:50051", 5000ms);
  REQUIRE(result.status.isOk());
  REQUIRE(result.acquired);
  CHECK(result.token.place == "tavern");
  CHECK(result.token.node == "node-a");
  CHECK(result.token.epoch == 1);
  CHECK(result.token.address == "10.0.0.1:50051");
  CHECK(result.token.ownerValue() == "node-a|1|10.0.0.1:50051");

  RedisReply reply;
  REQUIRE(nodes.connection_a.command({"GET", "npcd:{place:tavern}:owner"}, reply).isOk());
  CHECK(reply.str == "node-a|1|10.0.0.1:50051");
  REQUIRE(nodes.connection_a.command({"GET", "npcd:{place:tavern}:epoch"}, reply).isOk());
  CHECK(reply.str == "1");
}

TEST_CASE("a held place is refused to another node, which is told the holder", "[lease]") {
  TwoNodes nodes;
  acquireOrFail(nodes.a, "tavern", "node-a", 5000ms);
  const AcquireResult refused = nodes.b.acquire("tavern", "node-b", "node-b.local:50051", 5000ms);
  REQUIRE(refused.status.isOk());
  CHECK_FALSE(refused.acquired);
  CHECK(refused.holder.node == "node-a");
  CHECK(refused.holder.epoch == 1);
  CHECK(refused.holder.address == "node-a.local:50051");
  CHECK(refused.holder.remaining > 4000ms);
  CHECK(refused.holder.remaining <= 5000ms);

  const OwnerResult owner = nodes.b.owner("tavern");
  REQUIRE(owner.status.isOk());
  REQUIRE(owner.holder.has_value());
  CHECK(owner.holder->node == "node-a");
  CHECK(owner.holder->epoch == 1);
  CHECK(nodes.b.owner("cellar").holder == std::nullopt);
}

TEST_CASE("after the ttl another node takes over and the old owner is fenced out", "[lease]") {
  TwoNodes nodes;
  const LeaseToken old_owner = acquireOrFail(nodes.a, "tavern", "node-a", 150ms);
  const LeaseCheck good_write = nodes.a.writeFenced(old_owner, "snap", "snapshot of A");
  REQUIRE(good_write.status.isOk());
  CHECK(good_write.held);

  std::this_thread::sleep_for(250ms);  // node-a is paused past its ttl
  const LeaseToken new_owner = acquireOrFail(nodes.b, "tavern", "node-b", 5000ms);
  CHECK(new_owner.epoch == 2);

  SECTION("Should refuse the old owner's renew, as lost rather than unreachable") {
    const LeaseCheck renewed = nodes.a.renew(old_owner, 150ms);
    CHECK(renewed.status.isOk());
    CHECK_FALSE(renewed.held);
    CHECK(nodes.a.owner("tavern").holder->node == "node-b");
  }
  SECTION("Should refuse the old owner's write and keep its last good one") {
    const LeaseCheck late_write = nodes.a.writeFenced(old_owner, "snap", "stale A");
    CHECK(late_write.status.isOk());
    CHECK_FALSE(late_write.held);
    const ReadResult snap = nodes.b.read("tavern", "snap");
    REQUIRE(snap.status.isOk());
    CHECK(snap.bytes == "snapshot of A");

    CHECK(nodes.b.writeFenced(new_owner, "snap", "snapshot of B").held);
    CHECK(nodes.a.read("tavern", "snap").bytes == "snapshot of B");
  }
  SECTION("Should not let the old owner release its successor's lease") {
    const LeaseCheck released = nodes.a.release(old_owner);
    CHECK(released.status.isOk());
    CHECK_FALSE(released.held);
    CHECK(nodes.a.owner("tavern").holder->epoch == 2);
  }
}

TEST_CASE("renewing keeps a lease well past its first ttl", "[lease]") {
  TwoNodes nodes;
  const LeaseToken token = acquireOrFail(nodes.a, "tavern", "node-a", 200ms);
  for (int i = 0; i < 8; ++i) {  // 480 ms, renewing every ttl/3 or so
    std::this_thread::sleep_for(60ms);
    const LeaseCheck renewed = nodes.a.renew(token, 200ms);
    REQUIRE(renewed.status.isOk());
    REQUIRE(renewed.held);
  }
  const AcquireResult refused = nodes.b.acquire("tavern", "node-b", "b:1", 200ms);
  REQUIRE(refused.status.isOk());
  CHECK_FALSE(refused.acquired);
  CHECK(refused.holder.remaining > 100ms);
}

TEST_CASE("a released place can be taken at once", "[lease]") {
  TwoNodes nodes;
  const LeaseToken token = acquireOrFail(nodes.a, "tavern", "node-a", 60000ms);
  const LeaseCheck released = nodes.a.release(token);
  REQUIRE(released.status.isOk());
  CHECK(released.held);
  CHECK_FALSE(nodes.a.owner("tavern").holder.has_value());

  const LeaseToken next = acquireOrFail(nodes.b, "tavern", "node-b", 60000ms);
  CHECK(next.epoch == 2);
  CHECK_FALSE(nodes.a.release(token).held);  // a second release changes nothing
  CHECK(nodes.b.owner("tavern").holder->node == "node-b");
}

TEST_CASE("known_epoch keeps epochs rising when Redis comes back empty", "[lease]") {
  TwoNodes nodes;
  uint64_t seen = 0;
  for (int i = 0; i < 3; ++i) {
    const LeaseToken token = acquireOrFail(nodes.a, "tavern", "node-a", 60000ms);
    seen = token.epoch;
    REQUIRE(nodes.a.release(token).held);
  }
  REQUIRE(seen == 3);

  nodes.redis.stop();  // no persistence: the lease and the epoch are gone
  const Status restarted = nodes.redis.start();
  REQUIRE(restarted.isOk());

  // The connection still holds the dead socket: that call fails, the next one reconnects
  // (and reloads the scripts the new server has never seen).
  const AcquireResult on_dead_socket = nodes.a.acquire("tavern", "node-a", "a:1", 60000ms, seen);
  CHECK(on_dead_socket.status.code() == StatusCode::kUnavailable);
  const LeaseToken after = acquireOrFail(nodes.a, "tavern", "node-a", 60000ms, seen);
  CHECK(after.epoch == 4);

  SECTION("Should show what would happen without it: the count starts over") {
    const LeaseToken other = acquireOrFail(nodes.b, "cellar", "node-b", 60000ms);
    CHECK(other.epoch == 1);
  }
  SECTION("Should not lower an epoch Redis already has above known_epoch") {
    REQUIRE(nodes.a.release(after).held);
    const LeaseToken next = acquireOrFail(nodes.b, "tavern", "node-b", 60000ms, 1);
    CHECK(next.epoch == 5);
  }
}

TEST_CASE("fenced writes and reads carry any bytes", "[lease]") {
  TwoNodes nodes;
  const LeaseToken token = acquireOrFail(nodes.a, "tavern", "node-a", 60000ms);
  std::string bytes("\0head\0\r\n\xff\xfe", 11);
  for (int i = 0; i < 100000; ++i) bytes.push_back(static_cast<char>(i * 131 % 256));

  REQUIRE(nodes.a.writeFenced(token, "snap", bytes).held);
  const ReadResult back = nodes.b.read("tavern", "snap");
  REQUIRE(back.status.isOk());
  REQUIRE(back.bytes.has_value());
  CHECK(back.bytes->size() == bytes.size());
  CHECK(*back.bytes == bytes);
  CHECK(nodes.b.read("tavern", "inbox").bytes == std::nullopt);
  CHECK(nodes.b.read("cellar", "snap").bytes == std::nullopt);
}

TEST_CASE("place names may hold any bytes and still get their own keys", "[lease]") {
  TwoNodes nodes;
  const std::string odd("a}:snap {b}| \0c", 15);
  const LeaseToken odd_token = acquireOrFail(nodes.a, odd, "node-a", 60000ms);
  const LeaseToken plain_token = acquireOrFail(nodes.b, "a", "node-b", 60000ms);
  CHECK(odd_token.epoch == 1);
  CHECK(plain_token.epoch == 1);
  REQUIRE(nodes.a.writeFenced(odd_token, "snap", "odd").held);
  REQUIRE(nodes.b.writeFenced(plain_token, "snap", "plain").held);
  CHECK(nodes.a.read(odd, "snap").bytes == "odd");
  CHECK(nodes.a.read("a", "snap").bytes == "plain");
  CHECK(nodes.a.placeKey("tavern", "snap") == "npcd:{place:tavern}:snap");
}

TEST_CASE("bad arguments are refused before Redis is asked, naming the field", "[lease]") {
  TwoNodes nodes;
  auto acquireStatus = [&](const std::string& place, const std::string& node,
                           const std::string& address, std::chrono::milliseconds ttl) {
    return nodes.a.acquire(place, node, address, ttl).status;
  };

  const Status bar_in_node = acquireStatus("tavern", "node|a", "a:1", 1000ms);
  CHECK(bar_in_node.code() == StatusCode::kInvalidArgument);
  CHECK(bar_in_node.message() ==
        "node id \"node|a\" contains '|', which separates the fields of a lease's owner value");
  const Status bar_in_address = acquireStatus("tavern", "node-a", "a|1", 1000ms);
  CHECK(bar_in_address.code() == StatusCode::kInvalidArgument);
  CHECK(bar_in_address.message().rfind("address \"a|1\" contains '|'", 0) == 0);
  CHECK(acquireStatus("", "node-a", "a:1", 1000ms).message() == "place is empty");
  CHECK(acquireStatus(std::string(257, 'p'), "node-a", "a:1", 1000ms).message() ==
        "place is 257 bytes, more than 256");
  CHECK(acquireStatus(std::string(256, 'p'), "node-a", "a:1", 1000ms).isOk());
  CHECK(acquireStatus("tavern", "node-a", "a:1", 0ms).message() == "ttl is 0 ms, not > 0");
  CHECK(nodes.a.announceNode("node|a", "a:1", 1000ms).code() == StatusCode::kInvalidArgument);

  const LeaseToken token = acquireOrFail(nodes.a, "tavern", "node-a", 60000ms);
  const LeaseCheck into_owner = nodes.a.writeFenced(token, "owner", "x");
  CHECK(into_owner.status.message() == "key suffix \"owner\" is reserved for the lease");
  CHECK(nodes.a.writeFenced(token, "sn{ap", "x").status.code() == StatusCode::kInvalidArgument);
  CHECK(nodes.a.writeFenced(token, kPlaceArrivalsKey, "x").status.message() ==
        "key suffix \"arrivals\" is reserved for the place's streams");
  CHECK(nodes.a.writeFenced(token, kPlaceInputKey, "x").status.message() ==
        "key suffix \"input\" is reserved for the place's streams");
  CHECK(nodes.a.writeFenced(token, kPlaceInputLastKey, "x").status.code() ==
        StatusCode::kInvalidArgument);
  CHECK(nodes.a.owner("tavern").holder->address == "node-a.local:50051");  // untouched
}

TEST_CASE("a place's arrivals are read in order after the last entry seen, by anyone",
          "[lease]") {
  TwoNodes nodes;
  StreamResult none = nodes.b.readArrivals("tavern", "", 10);
  REQUIRE(none.status.isOk());
  CHECK(none.entries.empty());
  const std::string binary("np\0c\xff", 5);
  const AppendResult first = nodes.a.appendArrival("tavern", kArrivalNpcs, binary);  // no lease needed
  REQUIRE(first.status.isOk());
  const AppendResult second = nodes.a.appendArrival("tavern", kArrivalCommand, "two");
  REQUIRE(second.status.isOk());
  REQUIRE(nodes.a.appendArrival("harbour", kArrivalNpcs, "elsewhere").status.isOk());

  StreamResult all = nodes.b.readArrivals("tavern", "", 10);
  REQUIRE(all.status.isOk());
  REQUIRE(all.entries.size() == 2);
  CHECK(all.entries[0].id == first.id);
  CHECK(all.entries[0].bytes == binary);
  CHECK(all.entries[0].field == kArrivalNpcs);
  CHECK(all.entries[1].bytes == "two");
  CHECK(all.entries[1].field == kArrivalCommand);
  StreamResult after_first = nodes.b.readArrivals("tavern", first.id, 10);
  REQUIRE(after_first.entries.size() == 1);
  CHECK(after_first.entries[0].id == second.id);
  CHECK(nodes.b.readArrivals("tavern", second.id, 10).entries.empty());
  CHECK(nodes.b.readArrivals("tavern", "", 1).entries.size() == 1);  // count caps a read
  CHECK(nodes.b.readArrivals("", "", 1).status.message() == "place is empty");
}

TEST_CASE("a batch of arrivals for many places goes in one round trip, each stream in order",
          "[lease]") {
  TwoNodes nodes;
  RedisReply reply;
  // A key of another type: Redis refuses the appends to it, and the reads of it.
  REQUIRE(nodes.connection_b.command({"SET", nodes.b.placeKey("cellar", kPlaceArrivalsKey), "x"},
                                     reply).isOk());
  const std::string binary("np\0c\xff", 5);
  const std::vector<ArrivalEntry> batch = {
      {"tavern", kArrivalNpcs, binary},  {"mill", kArrivalCommand, "mill 1"},
      {"cellar", kArrivalNpcs, "refused"}, {"", kArrivalNpcs, "nowhere"},
      {"tavern", kArrivalCommand, "tavern 2"}, {"mill", kArrivalNpcs, "mill 2"},
      {"tavern", kArrivalNpcs, "tavern 3"}};
  const std::vector<AppendResult> appended = nodes.a.appendArrivals(batch);
  REQUIRE(appended.size() == batch.size());
  CHECK(appended[2].status.code() == StatusCode::kFailedPrecondition);
  CHECK(appended[2].status.message().find("WRONGTYPE") != std::string::npos);
  CHECK(appended[3].status.message() == "place is empty");  // never sent
  for (size_t i : {0, 1, 4, 5, 6}) REQUIRE(appended[i].status.isOk());

  // Each stream reads back its entries of the batch, in the batch's order, with their ids.
  const auto readsBack = [&](const StreamResult& read, std::vector<size_t> sent) {
    REQUIRE(read.status.isOk());
    REQUIRE(read.entries.size() == sent.size());
    for (size_t k = 0; k < sent.size(); ++k) {
      CHECK(read.entries[k].id == appended[sent[k]].id);
      CHECK(read.entries[k].field == batch[sent[k]].field);
      CHECK(read.entries[k].bytes == batch[sent[k]].bytes);
    }
  };
  const std::vector<StreamCursor> cursors = {{"tavern", ""}, {"mill", appended[1].id},
                                             {"harbour", ""}, {"cellar", ""}, {"", ""},
                                             {"mill", ""}};
  const std::vector<StreamResult> reads = nodes.b.readArrivals(cursors, 10);
  REQUIRE(reads.size() == cursors.size());
  readsBack(reads[0], {0, 4, 6});
  readsBack(reads[1], {5});
  readsBack(reads[2], {});
  CHECK(reads[3].status.message().find("WRONGTYPE") != std::string::npos);
  CHECK(reads[4].status.message() == "place is empty");
  readsBack(reads[5], {1, 5});  // a refused read does not stop the later ones
  CHECK(nodes.b.readArrivals(cursors, 1)[0].entries.size() == 1);  // count caps each read
  for (size_t i = 0; i < cursors.size(); ++i) {  // the same as one read at a time
    const StreamResult alone = nodes.b.readArrivals(cursors[i].place, cursors[i].after, 10);
    CHECK(alone.status.isOk() == reads[i].status.isOk());
    CHECK(alone.entries.size() == reads[i].entries.size());
  }

  SECTION("Should answer every entry unavailable when Redis is gone, and connect afresh after") {
    nodes.redis.stop();
    for (const AppendResult& r : nodes.a.appendArrivals(batch)) {
      CHECK(r.status.code() == (r.status.message() == "place is empty"
                                    ? StatusCode::kInvalidArgument
                                    : StatusCode::kUnavailable));
    }
    for (const StreamResult& r : nodes.b.readArrivals(cursors, 10)) {
      CHECK_FALSE(r.status.isOk());
      CHECK(r.entries.empty());
    }
    REQUIRE(nodes.redis.start().isOk());  // back empty, on the same port
    const std::vector<ArrivalEntry> next = {{"tavern", kArrivalNpcs, "after"},
                                            {"mill", kArrivalNpcs, "after"}};
    const std::vector<AppendResult> again = nodes.a.appendArrivals(next);
    REQUIRE(again[0].status.isOk());
    REQUIRE(again[1].status.isOk());
    const StreamResult fresh = nodes.b.readArrivals("tavern", "", 10);  // Redis came back empty
    REQUIRE(fresh.entries.size() == 1);
    CHECK(fresh.entries[0].id == again[0].id);
    CHECK(fresh.entries[0].bytes == "after");
  }
}

TEST_CASE("a place's inputs are appended only under its lease, and old ones trimmed", "[lease]") {
  TwoNodes nodes;
  const LeaseToken token = acquireOrFail(nodes.a, "tavern", "node-a", 60000ms);
  const std::string binary("in\0put\xfe", 7);
  LeaseCheck first = nodes.a.appendInput(token, 1, binary, 60000ms);
  REQUIRE(first.status.isOk());
  CHECK(first.held);
  REQUIRE(nodes.a.appendInput(token, 2, "second", 60000ms).held);
  // A retry of a call that timed out but ran: appended once.
  CHECK(nodes.a.appendInput(token, 2, "second", 60000ms).held);
  CHECK(nodes.a.appendInput(token, 1, "first again", 60000ms).held);

  StreamResult all = nodes.b.readInputs("tavern", "", 10);
  REQUIRE(all.status.isOk());
  REQUIRE(all.entries.size() == 2);
  CHECK(all.entries[0].bytes == binary);
  CHECK(all.entries[0].field == kInputTick);
  CHECK(all.entries[1].bytes == "second");
  CHECK(nodes.b.readInputs("tavern", all.entries[0].id, 10).entries.size() == 1);
  CHECK(nodes.b.readArrivals("tavern", "", 10).entries.empty());  // a stream of its own

  // A token that no longer holds the place (given up, or an older epoch) appends nothing.
  LeaseToken stale = token;
  stale.epoch += 1;
  const LeaseCheck refused = nodes.a.appendInput(stale, 3, "zombie", 60000ms);
  REQUIRE(refused.status.isOk());
  CHECK_FALSE(refused.held);
  REQUIRE(nodes.a.release(token).held);
  CHECK_FALSE(nodes.a.appendInput(token, 3, "after release", 60000ms).held);
  CHECK(nodes.b.readInputs("tavern", "", 10).entries.size() == 2);

  // Entries older than `keep` by Redis's clock go when the next one is appended.
  const LeaseToken again = acquireOrFail(nodes.b, "tavern", "node-b", 60000ms);
  std::this_thread::sleep_for(20ms);
  REQUIRE(nodes.b.appendInput(again, 1, "third", 10ms).held);  // a later epoch: tick 1 is news
  StreamResult kept = nodes.b.readInputs("tavern", "", 10);
  REQUIRE(kept.entries.size() == 1);
  CHECK(kept.entries[0].bytes == "third");
}

TEST_CASE("a tick's inputs for many places go in one round trip, each fenced alone", "[lease]") {
  TwoNodes nodes;
  const LeaseToken tavern = acquireOrFail(nodes.a, "tavern", "node-a", 60000ms);
  const LeaseToken mill = acquireOrFail(nodes.a, "mill", "node-a", 60000ms);
  LeaseToken stale = mill;
  stale.epoch += 1;
  LeaseToken malformed = tavern;
  malformed.place = "";
  const std::vector<PlaceInputEntry> batch = {
      {tavern, 1, "tavern 1"}, {mill, 1, "mill 1"},   {stale, 2, "zombie"},
      {malformed, 1, "nowhere"}, {tavern, 2, "tavern 2"}, {tavern, 2, "tavern 2 again"}};
  const std::vector<LeaseCheck> appended = nodes.a.appendInputs(batch, 60000ms);
  REQUIRE(appended.size() == batch.size());
  CHECK(appended[0].held);
  CHECK(appended[1].held);
  REQUIRE(appended[2].status.isOk());
  CHECK_FALSE(appended[2].held);  // an older or newer epoch appends nothing
  CHECK(appended[3].status.code() == StatusCode::kInvalidArgument);  // never sent
  CHECK(appended[4].held);
  CHECK(appended[5].held);  // the same tick again: held, appended once

  StreamResult at_tavern = nodes.b.readInputs("tavern", "", 10);
  REQUIRE(at_tavern.entries.size() == 2);
  CHECK(at_tavern.entries[0].bytes == "tavern 1");
  CHECK(at_tavern.entries[1].bytes == "tavern 2");
  StreamResult at_mill = nodes.b.readInputs("mill", "", 10);
  REQUIRE(at_mill.entries.size() == 1);
  CHECK(at_mill.entries[0].bytes == "mill 1");

  SECTION("Should load the script again when Redis forgot it between batches") {
    RedisReply reply;
    REQUIRE(nodes.connection_b.command({"SCRIPT", "FLUSH"}, reply).isOk());
    const std::vector<PlaceInputEntry> next = {{tavern, 3, "tavern 3"}, {mill, 2, "mill 2"}};
    for (const LeaseCheck& c : nodes.a.appendInputs(next, 60000ms)) {
      REQUIRE(c.status.isOk());
      CHECK(c.held);
    }
    CHECK(nodes.b.readInputs("tavern", "", 10).entries.size() == 3);
    CHECK(nodes.b.readInputs("mill", "", 10).entries.size() == 2);
  }
}

TEST_CASE("live nodes are the announced ones whose announcement has not expired", "[lease]") {
  TwoNodes nodes;
  REQUIRE(nodes.a.announceNode("node-a", "10.0.0.1:50051", 60000ms).isOk());
  REQUIRE(nodes.b.announceNode("node-b", "10.0.0.2:50051", 150ms).isOk());
  LiveNodesResult live = nodes.a.liveNodes();
  REQUIRE(live.status.isOk());
  REQUIRE(live.nodes.size() == 2);
  CHECK(live.nodes[0].node == "node-a");
  CHECK(live.nodes[0].address == "10.0.0.1:50051");
  CHECK(live.nodes[1].node == "node-b");

  std::this_thread::sleep_for(250ms);
  live = nodes.a.liveNodes();
  REQUIRE(live.status.isOk());
  REQUIRE(live.nodes.size() == 1);
  CHECK(live.nodes[0].node == "node-a");
  RedisReply members;
  REQUIRE(nodes.connection_a.command({"SMEMBERS", "npcd:{nodes}"}, members).isOk());
  REQUIRE(members.elements.size() == 1);  // the expired node was pruned from the set
  CHECK(members.elements[0].str == "node-a");

  SECTION("Should drop a node that withdraws at once, before its announcement expires") {
    REQUIRE(nodes.a.withdrawNode("node-a").isOk());
    live = nodes.b.liveNodes();
    REQUIRE(live.status.isOk());
    CHECK(live.nodes.empty());
  }
}

TEST_CASE("an unreachable Redis is told apart from a lost lease", "[lease]") {
  TwoNodes nodes;
  const LeaseToken token = acquireOrFail(nodes.a, "tavern", "node-a", 60000ms);
  nodes.redis.stop();
  const std::string server = "redis 127.0.0.1:" + std::to_string(nodes.redis.port()) + ": ";
  for (int i = 0; i < 2; ++i) {  // the dead socket, then a refused connect
    const LeaseCheck renewed = nodes.a.renew(token, 60000ms);
    CHECK(renewed.status.code() == StatusCode::kUnavailable);
    CHECK(renewed.status.message().rfind(server, 0) == 0);
    CHECK_FALSE(renewed.held);
  }
  CHECK(nodes.a.writeFenced(token, "snap", "x").status.code() == StatusCode::kUnavailable);
  CHECK(nodes.b.acquire("tavern", "node-b", "b:1", 1000ms).status.code() ==
        StatusCode::kUnavailable);
  CHECK(nodes.b.liveNodes().status.code() == StatusCode::kUnavailable);
}

TEST_CASE("a key prefix keeps two clusters on one Redis apart", "[lease]") {
  TwoNodes nodes;
  PlaceLeaseStore staging(nodes.connection_b, "staging");
  acquireOrFail(nodes.a, "tavern", "node-a", 60000ms);
  const LeaseToken other = acquireOrFail(staging, "tavern", "node-s", 60000ms);
  CHECK(other.epoch == 1);
  CHECK(staging.placeKey("tavern", "owner") == "staging:{place:tavern}:owner");
}

TEST_CASE("a holder's renew takes its lease back from a Redis that restarted empty", "[lease]") {
  TwoNodes nodes;
  LeaseToken token;
  for (int i = 0; i < 2; ++i) {
    if (i > 0) REQUIRE(nodes.a.release(token).held);
    token = acquireOrFail(nodes.a, "tavern", "node-a", 60000ms);
  }
  REQUIRE(token.epoch == 2);
  nodes.redis.stop();
  REQUIRE(nodes.redis.start().isOk());
  CHECK(nodes.a.renew(token, 60000ms).status.code() == StatusCode::kUnavailable);  // dead socket

  const LeaseCheck back = nodes.a.renew(token, 60000ms);
  REQUIRE(back.status.isOk());
  CHECK(back.held);
  const OwnerResult owner = nodes.b.owner("tavern");
  REQUIRE(owner.holder);
  CHECK(owner.holder->node == "node-a");
  CHECK(owner.holder->epoch == 2);
  // The epoch came back too: the next grant is above the holder's.
  REQUIRE(nodes.a.release(token).held);
  CHECK(acquireOrFail(nodes.b, "tavern", "node-b", 60000ms).epoch == 3);
}

TEST_CASE("a renew does not take back a place granted at a later epoch", "[lease]") {
  TwoNodes nodes;
  const LeaseToken old = acquireOrFail(nodes.a, "tavern", "node-a", 60000ms);
  REQUIRE(nodes.a.release(old).held);
  const LeaseToken later = acquireOrFail(nodes.b, "tavern", "node-b", 60000ms);
  REQUIRE(nodes.b.release(later).held);  // nobody holds it now, but epoch 2 was granted
  const LeaseCheck renewed = nodes.a.renew(old, 60000ms);
  REQUIRE(renewed.status.isOk());
  CHECK_FALSE(renewed.held);
  CHECK_FALSE(nodes.b.owner("tavern").holder);
}
