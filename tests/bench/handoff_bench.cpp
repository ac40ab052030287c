// Place handoff (state/place_handoff.h, server/cluster/README.md "Handoff cost"): what it
// costs to move ONE place of 1,000 agents from node A to node B, stage by stage, in a
// generated world of 4 such places (core/sim/scale_world.h), all leased and held by A and
// ticked for 30 s so that agents have memory, plans and long actions under way.
//
//   A, tick thread   copy     copySimState of A's whole simulation (what a capture copies)
//   A, writer thread build    buildSimState of that copy (all of A's agents), and as the
//                             writer does it: keepPlaces of the places written, then
//                             buildSimState (BM_HandoffBuildKept)
//                    cut      splitPlaces of the one place
//                    encode   PlaceHandoff::SerializeToString
//                    write    the fenced SET, on a connection opened for the capture (as
//                             PlaceSnapshotWriter does)
//   B, keeper thread read     the GET of the place's snapshot key, on the keeper's connection
//   B, tick thread   decode   PlaceHandoff::ParseFromString (ClusterNode takes the change)
//                    adopt    adoptPlace into B, which runs the other 3 places and holds this
//                             one at a later epoch, empty
//
// BM_InputAppend is the cost of keeping a place's inputs in Redis, per tick and place;
// BM_ArrivalAppendTick and BM_ArrivalReadPoll, of npcs and sounds crossing to and from
// other nodes' places, per tick and per poll.
// BM_HandoffChain runs them in a row: the end-to-end figure but for the waits that are
// configuration, B's claim round (up to lease_ttl_s / 4) and the tick or two before B
// adopts. Redis is a private redis-server (tests/support/redis_process.h).
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "cluster/place_lease_store.h"
#include "cluster/redis_connection.h"
#include "demo_sim.h"
#include "place_handoff.h"
#include "sim/scale_world.h"
#include "sim_state_codec.h"
#include "sim_state_copy.h"
#include "support/redis_process.h"

using namespace npc;
using namespace std::chrono_literals;

namespace {

constexpr uint32_t kPlaces = 4;
constexpr uint32_t kAgentsPerPlace = 1000;
constexpr int kTicksOnA = 300;  // 30 s at 10 ticks/s
constexpr int kTicksOnB = 50;
const char* const kMoved = "p0";
const char* const kHash = "bench-defs";
constexpr auto kRedisTimeout = 2000ms;

void hold(Simulation& sim, const std::string& place, bool held, uint64_t epoch) {
  sim.submit({ClientId::kDaemon, 0, HoldPlace{place, held, epoch, {}}});
}

// Node A after kTicksOnA ticks holding every place, node B holding the others, and the
// moved place's handoff as each stage leaves it. Built once, for every case.
struct Nodes {
  WorldFile world;
  bench::DemoSim a, b;
  uint64_t b_epoch = 0;  // B's grant of the moved place
  std::vector<PlaceToHand> moved;
  SimStateCopy copy;
  pb::SimState whole;
  pb::PlaceHandoff handoff;
  std::string bytes;
  RedisProcess redis;
  std::unique_ptr<RedisConnection> keeper_connection;  // B's
  std::unique_ptr<PlaceLeaseStore> keeper_store;
  LeaseToken token;  // A's lease of the moved place

  bool build(benchmark::State& state) {
    ScaleWorldSpec spec;
    spec.agents = kPlaces * kAgentsPerPlace;
    spec.agents_per_place = kAgentsPerPlace;
    world = makeScaleWorld(spec);
    SimConfig config;
    config.hibernation.quiet_s = 20.0;
    config.leased_places = true;
    if (!a.load(world, config, state) || !b.load(world, config, state)) return false;
    // A place at a time, each one's npcs applied before the next are queued.
    for (const Place& p : world.places) {
      hold(*a.sim, p.name, true, 1);
      bool queued = queuePlaceNpcs(world, p.name, *a.sim) > 0;
      a.run(1);
      if (p.name != kMoved) {
        hold(*b.sim, p.name, true, 1);
        queued = queued && queuePlaceNpcs(world, p.name, *b.sim) > 0;
        b.run(1);
      }
      if (!queued) {
        state.SkipWithError("a place's npcs were not queued");
        return false;
      }
    }
    a.run(kTicksOnA);
    b.run(kTicksOnB);
    b_epoch = 2;
    hold(*b.sim, kMoved, true, b_epoch);
    b.run(1);

    const PlaceIndex index = a.sim->world().findPlace(kMoved);
    moved = {{index, kMoved, 1}};
    copySimState(*a.sim, copy);
    buildSimState(copy, whole);
    pb::SimState cut = whole;
    std::vector<pb::PlaceHandoff> out;
    splitPlaces(cut, moved, a.sim->timeS(), {kHash, "node-a"}, out);
    handoff = std::move(out.at(0));
    handoff.SerializeToString(&bytes);

    const Status started = redis.start();
    if (!started.isOk()) {
      state.SkipWithError(started.message().c_str());
      return false;
    }
    keeper_connection = std::make_unique<RedisConnection>("127.0.0.1", redis.port(), kRedisTimeout);
    keeper_store = std::make_unique<PlaceLeaseStore>(*keeper_connection, "bench");
    const AcquireResult lease =
        keeper_store->acquire(kMoved, "node-a", "127.0.0.1:50051", std::chrono::hours(1));
    if (!lease.status.isOk() || !lease.acquired) {
      state.SkipWithError("the moved place's lease was not granted");
      return false;
    }
    token = lease.token;
    return true;
  }

  // B without the moved place's agents, holding it at a new epoch, as a claim leaves it:
  // the release unloads what the last adoption brought, and B ticks on.
  void emptyMovedOnB() {
    hold(*b.sim, kMoved, false, b_epoch);
    b.run(1);
    hold(*b.sim, kMoved, true, ++b_epoch);
    b.run(1);
  }

  // What each stage measures from: the sizes and states the figures are for.
  void report(benchmark::State& state) const {
    const SimStats sa = a.sim->stats();
    state.counters["A_agents"] = static_cast<double>(sa.agents);
    state.counters["A_asleep"] = static_cast<double>(sa.agents_asleep);
    state.counters["A_reduced"] = static_cast<double>(sa.agents_reduced);
    state.counters["A_places_asleep"] = static_cast<double>(sa.places_asleep);
    state.counters["moved_awake"] = handoff.state().agents_size();
    state.counters["moved_asleep"] = handoff.state().hibernation().dormant_size();
    state.counters["bytes"] = static_cast<double>(bytes.size());
    state.counters["bytes_per_agent"] =
        static_cast<double>(bytes.size()) /
        (handoff.state().agents_size() + handoff.state().hibernation().dormant_size());
  }

  static Nodes* get(benchmark::State& state) {
    static std::unique_ptr<Nodes> nodes;
    static bool failed = false;
    if (!nodes && !failed) {
      auto built = std::make_unique<Nodes>();
      if (built->build(state)) {
        nodes = std::move(built);
      } else {
        failed = true;
      }
    } else if (failed) {
      state.SkipWithError("the nodes could not be set up");
    }
    return nodes.get();
  }
};

// A fenced write as PlaceSnapshotWriter makes it: a connection opened for the capture.
bool writeSnapshot(const Nodes& n, const std::string& bytes) {
  RedisConnection redis("127.0.0.1", n.redis.port(), kRedisTimeout);
  PlaceLeaseStore store(redis, "bench");
  const LeaseCheck wrote = store.writeFenced(n.token, kPlaceSnapshotKey, bytes);
  return wrote.status.isOk() && wrote.held;
}

bool adopt(Nodes& n, const pb::PlaceHandoff& handoff, benchmark::State& state) {
  PlaceAdoption report;
  std::string error;
  if (adoptPlace(handoff, kHash, *n.b.sim, report, error)) return true;
  state.SkipWithError(error.c_str());
  return false;
}

void BM_HandoffCopy(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  SimStateCopy copy;
  for (auto _ : state) {
    copySimState(*n->a.sim, copy);
    benchmark::DoNotOptimize(copy);
  }
  n->report(state);
}
BENCHMARK(BM_HandoffCopy)->Unit(benchmark::kMillisecond);

void BM_HandoffBuild(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  pb::SimState whole;
  for (auto _ : state) {
    buildSimState(n->copy, whole);
    benchmark::DoNotOptimize(whole);
  }
}
BENCHMARK(BM_HandoffBuild)->Unit(benchmark::kMillisecond);

// What PlaceSnapshotWriter builds: the copy kept to the places it writes (here one of 4).
void BM_HandoffBuildKept(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  SimStateCopy copy;
  pb::SimState built;
  const std::vector<PlaceIndex> places = {n->moved.at(0).index};
  for (auto _ : state) {
    state.PauseTiming();
    copy = n->copy;
    state.ResumeTiming();
    keepPlaces(copy, places);
    buildSimState(copy, built);
    benchmark::DoNotOptimize(built);
  }
}
BENCHMARK(BM_HandoffBuildKept)->Unit(benchmark::kMillisecond);

// splitPlaces moves the place's agents out of the capture: each cut gets a whole one.
void BM_HandoffCut(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  pb::SimState whole;
  std::vector<pb::PlaceHandoff> out;
  for (auto _ : state) {
    state.PauseTiming();
    whole = n->whole;
    state.ResumeTiming();
    splitPlaces(whole, n->moved, n->a.sim->timeS(), {kHash, "node-a"}, out);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_HandoffCut)->Unit(benchmark::kMillisecond);

void BM_HandoffEncode(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  std::string bytes;
  for (auto _ : state) {
    n->handoff.SerializeToString(&bytes);
    benchmark::DoNotOptimize(bytes);
  }
  n->report(state);
}
BENCHMARK(BM_HandoffEncode)->Unit(benchmark::kMillisecond);

void BM_HandoffDecode(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  pb::PlaceHandoff handoff;
  for (auto _ : state) {
    if (!handoff.ParseFromString(n->bytes)) {
      state.SkipWithError("the handoff did not parse");
      break;
    }
    benchmark::DoNotOptimize(handoff);
  }
}
BENCHMARK(BM_HandoffDecode)->Unit(benchmark::kMillisecond);

void BM_HandoffAdopt(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  for (auto _ : state) {
    state.PauseTiming();
    n->emptyMovedOnB();
    state.ResumeTiming();
    if (!adopt(*n, n->handoff, state)) break;
  }
  state.counters["B_agents_after"] = static_cast<double>(n->b.sim->stats().agents);
}
BENCHMARK(BM_HandoffAdopt)->Unit(benchmark::kMillisecond);

// The fenced SET (connection opened, script run) and the GET on B's open connection.
void BM_HandoffRedis(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  double write_s = 0.0, read_s = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    if (!writeSnapshot(*n, n->bytes)) {
      state.SkipWithError("the fenced write failed");
      break;
    }
    const auto written = std::chrono::steady_clock::now();
    const ReadResult read = n->keeper_store->read(kMoved, kPlaceSnapshotKey);
    if (!read.status.isOk() || !read.bytes || read.bytes->size() != n->bytes.size()) {
      state.SkipWithError("the snapshot did not read back");
      break;
    }
    write_s += std::chrono::duration<double>(written - start).count();
    read_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - written).count();
  }
  const auto iterations = static_cast<double>(state.iterations());
  state.counters["write_ms"] = write_s * 1e3 / iterations;
  state.counters["read_ms"] = read_s * 1e3 / iterations;
  state.counters["bytes"] = static_cast<double>(n->bytes.size());
}
BENCHMARK(BM_HandoffRedis)->Unit(benchmark::kMillisecond);

// A place's inputs of one tick appended to its input stream (PlaceLeaseStore::appendInput,
// as NpcCourier does after each tick on its own open connection): the fenced, idempotent
// script with the stream's trim, one round trip. range(0): the entry's bytes (a tick of
// 50 npc updates is about 1,750; a busy place's 500, 17,500).
void BM_InputAppend(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  RedisConnection redis("127.0.0.1", n->redis.port(), kRedisTimeout);
  PlaceLeaseStore store(redis, "bench");
  const std::string bytes(static_cast<size_t>(state.range(0)), 'x');
  static uint64_t tick = 1000000;  // above any tick appended before: every append is new
  for (auto _ : state) {
    const LeaseCheck appended = store.appendInput(n->token, ++tick, bytes, 60s);
    if (!appended.status.isOk() || !appended.held) {
      state.SkipWithError("the append failed");
      break;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_InputAppend)->Arg(1750)->Arg(17500)->Unit(benchmark::kMicrosecond);

// A tick's or a poll's work over `places` places, each iteration: `batch()` is false when
// Redis did not answer as it should. Arg 0 is `places`; arg 1 says which way (0: one round
// trip per place, 1: pipelined), timed as wall time, since the round trips are waiting.
template <class Batch>
void timeBatches(benchmark::State& state, size_t places, Batch batch) {
  for (auto _ : state) {
    if (!batch()) {
      state.SkipWithError("Redis did not answer as it should");
      break;
    }
  }
  state.counters["places_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * places), benchmark::Counter::kIsRate);
}
void batchCases(benchmark::internal::Benchmark* b) {
  b->ArgsProduct({{10, 200}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();
}

// A batch case's own connection to the benchmark's Redis, and its two arguments.
struct BatchCase {
  RedisConnection redis;
  PlaceLeaseStore store;
  size_t places;
  bool pipelined;
  BatchCase(const Nodes& n, const benchmark::State& state)
      : redis("127.0.0.1", n.redis.port(), kRedisTimeout),
        store(redis, "bench"),
        places(static_cast<size_t>(state.range(0))),
        pipelined(state.range(1) != 0) {}
};

// One tick of a node with `places` busy places: each place's 1,750 B entry appended one
// round trip after another (arg 1 = 0, how the courier appended before), or all in one
// pipelined round trip (arg 1 = 1, PlaceLeaseStore::appendInputs, how it appends now).
void BM_InputAppendTick(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  BatchCase run(*n, state);
  // Leased once for every run: the benchmark calls this function more than once.
  static std::vector<LeaseToken> leases;
  while (leases.size() < run.places) {
    const std::string place = "busy" + std::to_string(leases.size());
    const AcquireResult lease = run.store.acquire(place, "bench-node", "a:1", 600s);
    if (!lease.status.isOk() || !lease.acquired) {
      state.SkipWithError("could not lease the busy places");
      return;
    }
    leases.push_back(lease.token);
  }
  std::vector<PlaceInputEntry> tick(run.places);
  for (size_t p = 0; p < run.places; ++p) tick[p] = {leases[p], 0, std::string(1750, 'x')};
  static uint64_t ticks = 1000000;  // above any tick appended before: every append is new
  timeBatches(state, run.places, [&] {
    ++ticks;
    for (PlaceInputEntry& e : tick) e.tick = ticks;
    bool ok = true;
    if (run.pipelined) {
      for (const LeaseCheck& c : run.store.appendInputs(tick, 60s)) ok = ok && c.status.isOk() && c.held;
    } else {
      for (const PlaceInputEntry& e : tick) {
        const LeaseCheck c = run.store.appendInput(e.token, e.tick, e.bytes, 60s);
        ok = ok && c.status.isOk() && c.held;
      }
    }
    return ok;
  });
}
BENCHMARK(BM_InputAppendTick)->Apply(batchCases);

// One tick's arrivals leaving a node for `places` other places, an 800 B entry each (an npc,
// about what one agent's handoff weighs): XADDs one round trip after another (arg 1 = 0,
// how NpcCourier appended before), or pipelined in one (arg 1 = 1,
// PlaceLeaseStore::appendArrivals, how it appends now).
void BM_ArrivalAppendTick(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  BatchCase run(*n, state);
  std::vector<std::string> names;
  for (size_t p = 0; p < run.places; ++p) names.push_back("dest" + std::to_string(p));
  const std::string bytes(800, 'x');
  std::vector<ArrivalEntry> tick;
  for (const std::string& name : names) tick.push_back({name, kArrivalNpcs, bytes});
  timeBatches(state, run.places, [&] {
    bool ok = true;
    if (run.pipelined) {
      for (const AppendResult& r : run.store.appendArrivals(tick)) ok = ok && r.status.isOk();
    } else {
      for (const ArrivalEntry& e : tick) ok = ok && run.store.appendArrival(e.place, e.field, e.bytes).status.isOk();
    }
    return ok;
  });
}
BENCHMARK(BM_ArrivalAppendTick)->Apply(batchCases);

// One poll of a node holding `places` places, each with one new 800 B arrival after its
// cursor: XREADs one round trip after another (arg 1 = 0, before), or pipelined in one
// (arg 1 = 1, PlaceLeaseStore::readArrivals of every cursor, now).
void BM_ArrivalReadPoll(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  BatchCase run(*n, state);
  std::vector<std::string> names, cursors;
  for (size_t p = 0; p < run.places; ++p) {
    names.push_back("held" + std::to_string(p));
    const AppendResult seen = run.store.appendArrival(names.back(), kArrivalNpcs, "seen");
    const AppendResult next = run.store.appendArrival(names.back(), kArrivalNpcs, std::string(800, 'x'));
    if (!seen.status.isOk() || !next.status.isOk()) {
      state.SkipWithError("could not fill the streams");
      return;
    }
    cursors.push_back(seen.id);
  }
  std::vector<StreamCursor> poll;
  for (size_t p = 0; p < run.places; ++p) poll.push_back({names[p], cursors[p]});
  timeBatches(state, run.places, [&] {
    size_t entries = 0;
    if (run.pipelined) {
      for (const StreamResult& r : run.store.readArrivals(poll, 64)) entries += r.entries.size();
    } else {
      for (const StreamCursor& c : poll) entries += run.store.readArrivals(c.place, c.after, 64).entries.size();
    }
    return entries == run.places;  // one new entry after each cursor
  });
}
BENCHMARK(BM_ArrivalReadPoll)->Apply(batchCases);

// Every stage in a row, from A's capture to the place running on B, but B's claim round.
void BM_HandoffChain(benchmark::State& state) {
  Nodes* n = Nodes::get(state);
  if (!n) return;
  SimStateCopy copy;
  pb::SimState whole;
  std::vector<pb::PlaceHandoff> out;
  std::string bytes;
  pb::PlaceHandoff received;
  const std::vector<PlaceIndex> places = {n->moved.at(0).index};
  for (auto _ : state) {
    state.PauseTiming();
    n->emptyMovedOnB();
    state.ResumeTiming();
    copySimState(*n->a.sim, copy);
    keepPlaces(copy, places);
    buildSimState(copy, whole);
    splitPlaces(whole, n->moved, n->a.sim->timeS(), {kHash, "node-a"}, out);
    out.at(0).SerializeToString(&bytes);
    const bool wrote = writeSnapshot(*n, bytes);
    const ReadResult read = n->keeper_store->read(kMoved, kPlaceSnapshotKey);
    if (!wrote || !read.status.isOk() || !read.bytes || !received.ParseFromString(*read.bytes)) {
      state.SkipWithError("the handoff did not go through Redis");
      break;
    }
    if (!adopt(*n, received, state)) break;
  }
}
BENCHMARK(BM_HandoffChain)->Unit(benchmark::kMillisecond);

}  // namespace
