// CommandInbox: submission order across batches and singles, all-or-nothing capacity,
// batch buffers handed back for reuse, and who destroys what was applied.
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "sim/command_inbox.h"

using namespace npc;

namespace {

Command removal(uint64_t id, uint64_t seq) {
  Command c;
  c.seq = seq;
  c.body = RemoveEntity{static_cast<EntityId>(id)};
  return c;
}

std::vector<Command> batchOf(std::initializer_list<uint64_t> ids, uint64_t seq) {
  std::vector<Command> batch;
  for (uint64_t id : ids) batch.push_back(removal(id, seq));
  return batch;
}

// A single carrying a reply that holds `token`, as an admin call's reply holds its caller.
Command signalHolding(std::shared_ptr<int> token) {
  Command c;
  SignalEvent signal;
  signal.name = "alarm";
  signal.reply = [token](const Status&) {};
  c.body = std::move(signal);
  return c;
}

std::vector<uint64_t> drainIds(CommandInbox& inbox) {
  std::vector<uint64_t> ids;
  inbox.drain([&](Command& c) {
    if (auto* r = std::get_if<RemoveEntity>(&c.body)) ids.push_back(raw(r->id));
  });
  return ids;
}

}  // namespace

TEST_CASE("CommandInbox applies batches and singles in submission order") {
  CommandInbox inbox(100);
  auto first = batchOf({1, 2, 3}, 1);
  REQUIRE(inbox.push(removal(10, 0)));
  REQUIRE(inbox.push(first));
  CHECK(first.empty());
  REQUIRE(inbox.push(removal(11, 0)));
  REQUIRE(inbox.push(removal(12, 0)));
  auto second = batchOf({4, 5}, 2);
  REQUIRE(inbox.push(second));
  CHECK(inbox.size() == 8);
  CHECK(drainIds(inbox) == std::vector<uint64_t>{10, 1, 2, 3, 11, 12, 4, 5});
  CHECK(inbox.size() == 0);
  CHECK(drainIds(inbox).empty());
}

TEST_CASE("CommandInbox refuses a batch whole when it would pass its capacity") {
  CommandInbox inbox(4);
  auto three = batchOf({1, 2, 3}, 1);
  REQUIRE(inbox.push(three));
  auto two = batchOf({4, 5}, 2);
  CHECK_FALSE(inbox.push(two));
  CHECK(two.size() == 2);  // left as it was, for the caller to report
  CHECK(inbox.size() == 3);
  REQUIRE(inbox.push(removal(6, 3)));
  CHECK_FALSE(inbox.push(removal(7, 4)));
  CHECK(drainIds(inbox) == std::vector<uint64_t>{1, 2, 3, 6});
  CHECK(inbox.push(two));  // room again after the tick
  CHECK(drainIds(inbox) == std::vector<uint64_t>{4, 5});
}

TEST_CASE("CommandInbox hands an applied batch's buffer back, emptied") {
  CommandInbox inbox(10000);
  std::vector<Command> batch;
  for (uint64_t i = 1; i <= 500; ++i) batch.push_back(removal(i, 1));
  REQUIRE(inbox.push(batch));
  CHECK(batch.capacity() == 0);  // nothing applied yet: nothing to hand back
  CHECK(drainIds(inbox).size() == 500);

  std::vector<Command> next = batchOf({7}, 2);
  REQUIRE(inbox.push(next));
  CHECK(next.empty());
  CHECK(next.capacity() >= 500);  // the first batch's buffer, to refill without allocating
  CHECK(drainIds(inbox) == std::vector<uint64_t>{7});
}

TEST_CASE("CommandInbox::pushExchanging hands an applied batch back with its commands") {
  // A stream overwrites the commands it gets back with its next update's rather than
  // destroying them and building new ones (server/proto_convert.cpp CommandWriter).
  CommandInbox inbox(10000);
  std::vector<Command> batch;
  for (uint64_t i = 1; i <= 500; ++i) batch.push_back(removal(i, 1));
  REQUIRE(inbox.pushExchanging(batch));
  CHECK(batch.empty());  // nothing applied yet: nothing to hand back
  CHECK(drainIds(inbox).size() == 500);

  std::vector<Command> next = batchOf({7, 8}, 2);
  REQUIRE(inbox.pushExchanging(next));
  REQUIRE(next.size() == 500);  // the first batch, as the tick left it
  CHECK(raw(std::get<RemoveEntity>(next.front().body).id) == 1);
  CHECK(raw(std::get<RemoveEntity>(next.back().body).id) == 500);
  CHECK(drainIds(inbox) == std::vector<uint64_t>{7, 8});

  auto too_many = batchOf({1, 2}, 3);
  CommandInbox small(1);
  CHECK_FALSE(small.pushExchanging(too_many));
  CHECK(too_many.size() == 2);  // refused: left as it was
}

TEST_CASE("CommandInbox hands back every batch of a flood while their room fits its capacity") {
  // A slow tick drains hundreds of updates at once: each goes back to a submitter, none
  // is destroyed on the tick thread, as long as their buffers add up to no more than the
  // inbox's capacity in commands.
  constexpr size_t kBatches = 600, kPerBatch = 8;
  CommandInbox inbox(kBatches * kPerBatch);
  for (size_t b = 0; b < kBatches; ++b) {
    std::vector<Command> batch;
    batch.reserve(kPerBatch);
    for (size_t i = 0; i < kPerBatch; ++i) batch.push_back(removal(b * kPerBatch + i, b));
    REQUIRE(inbox.push(batch));
  }
  CHECK(drainIds(inbox).size() == kBatches * kPerBatch);
  size_t handed_back = 0;
  for (size_t b = 0; b < kBatches; ++b) {
    auto next = batchOf({b}, b);
    REQUIRE(inbox.push(next));
    if (next.capacity() >= kPerBatch) ++handed_back;
  }
  CHECK(handed_back == kBatches);
  drainIds(inbox);
}

TEST_CASE("CommandInbox keeps no more spare room than its capacity") {
  CommandInbox inbox(100);
  for (int b = 0; b < 3; ++b) {
    std::vector<Command> batch;
    batch.reserve(60);  // two of these are more room than 100 commands
    batch.push_back(removal(uint64_t(b), uint64_t(b)));
    REQUIRE(inbox.push(batch));
  }
  drainIds(inbox);
  size_t handed_back = 0;
  for (int b = 0; b < 3; ++b) {
    auto next = batchOf({9}, 9);
    REQUIRE(inbox.push(next));
    if (next.capacity() >= 60) ++handed_back;
  }
  CHECK(handed_back == 1);  // the other two were freed
  drainIds(inbox);
}

TEST_CASE("CommandInbox destroys an admin call as soon as it is applied") {
  CommandInbox inbox(100);
  auto token = std::make_shared<int>(1);
  REQUIRE(inbox.push(signalHolding(token)));
  CHECK(token.use_count() == 2);
  size_t applied = inbox.drain([](Command&) {});
  CHECK(applied == 1);
  CHECK(token.use_count() == 1);  // its reply (and what it held) is gone
}

TEST_CASE("CommandInbox leaves a stream batch's commands to the next submitter to destroy") {
  CommandInbox inbox(100);
  auto token = std::make_shared<int>(1);
  std::vector<Command> batch;
  batch.push_back(signalHolding(token));
  REQUIRE(inbox.push(batch));
  inbox.drain([](Command&) {});
  CHECK(token.use_count() == 2);  // kept with its buffer, off the tick thread
  auto next = batchOf({1}, 2);
  REQUIRE(inbox.push(next));  // takes that buffer and clears it
  CHECK(token.use_count() == 1);
}

TEST_CASE("CommandInbox::clear forgets what was queued") {
  CommandInbox inbox(100);
  auto batch = batchOf({1, 2}, 1);
  REQUIRE(inbox.push(batch));
  inbox.clear();
  CHECK(inbox.size() == 0);
  CHECK(drainIds(inbox).empty());
}

TEST_CASE("CommandInbox keeps each submitter's order while a tick drains beside them",
          "[command_inbox][threads]") {
  // Streams push batches and singles from their own threads while the tick thread drains:
  // every command arrives once, and each submitter's in the order it pushed them.
  constexpr int kSubmitters = 4, kBatches = 300, kPerBatch = 7;
  CommandInbox inbox(1'000'000);
  std::atomic<int> done{0};
  std::atomic<bool> pushed_all{true};  // Catch2's assertions are for the test's own thread
  std::vector<std::thread> submitters;
  for (int s = 0; s < kSubmitters; ++s) {
    submitters.emplace_back([&, s] {
      std::vector<Command> batch;
      uint64_t next = 0;
      for (int b = 0; b < kBatches; ++b) {
        for (int i = 0; i < kPerBatch; ++i) batch.push_back(removal(next++, uint64_t(s)));
        if (!inbox.push(batch) || !batch.empty()) pushed_all = false;
        if (b % 10 == 0 && !inbox.push(removal(next++, uint64_t(s)))) pushed_all = false;
      }
      done.fetch_add(1);
    });
  }
  std::vector<uint64_t> last(kSubmitters, 0);
  std::vector<uint64_t> seen(kSubmitters, 0);
  bool in_order = true;
  auto apply = [&](Command& c) {
    const auto s = static_cast<size_t>(c.seq);
    const uint64_t id = raw(std::get<RemoveEntity>(c.body).id);
    if (seen[s] > 0 && id != last[s] + 1) in_order = false;
    if (seen[s] == 0 && id != 0) in_order = false;
    last[s] = id;
    ++seen[s];
  };
  while (done.load() < kSubmitters) inbox.drain(apply);
  for (std::thread& t : submitters) t.join();
  inbox.drain(apply);
  CHECK(pushed_all);
  CHECK(in_order);
  for (int s = 0; s < kSubmitters; ++s) {
    CHECK(seen[size_t(s)] == kBatches * kPerBatch + kBatches / 10);
  }
}

TEST_CASE("CommandInbox keeps a digest of every command with its batch") {
  // The tick reads the digests to coalesce upserts without fetching the commands
  // (core/sim/upsert_coalescer.h); they must match the commands one for one.
  CommandInbox inbox(10000);
  std::vector<Command> batch = batchOf({1, 2}, 1);
  EntityState moved;
  moved.id = EntityId{3};
  moved.kind = EntityKind::kPlayer;
  moved.position = Vec3{1, 2, 3};
  moved.velocity = Vec3{0, 1, 0};
  batch.push_back({ClientId{9}, 1, UpsertEntity{moved}});
  EntityState named = moved;
  named.id = EntityId{4};
  named.place = "square";
  batch.push_back({ClientId{9}, 1, UpsertEntity{named}});
  REQUIRE(inbox.push(batch));
  REQUIRE(inbox.push(removal(5, 2)));

  const std::span<CommandInbox::Batch> taken = inbox.take();
  REQUIRE(taken.size() == 2);
  REQUIRE(taken[0].digests.size() == 4);
  CHECK(taken[0].digests[0].kind == CommandDigest::Kind::kOther);
  const CommandDigest& plain = taken[0].digests[2];
  CHECK(plain.kind == CommandDigest::Kind::kPlainUpsert);
  CHECK(plain.id == EntityId{3});
  CHECK(plain.origin == ClientId{9});
  CHECK(plain.entity_kind == EntityKind::kPlayer);
  CHECK(plain.fields == (CommandDigest::kPosition | CommandDigest::kVelocity));
  CHECK(plain.position.z == 3.f);
  CHECK(taken[0].digests[3].kind == CommandDigest::Kind::kUpsert);  // names a place
  REQUIRE(taken[1].digests.size() == 1);
  CHECK(taken[1].digests[0].kind == CommandDigest::Kind::kOther);
  inbox.recycle();
  CHECK(inbox.size() == 0);
}
