// ClusterNode on the threads the daemon gives it, without the daemon's gRPC server (so that
// it runs under TSan, scripts/sanitize.sh): two nodes on the demo world and a private
// redis-server, each a simulation ticked on a tick thread of its own that calls afterTick
// after every tick, beside the node's keeper, snapshot writer and courier threads, while
// the test's thread submits commands and reads the nodes' counters.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "cluster/cluster_node.h"
#include "cluster/place_lease_store.h"
#include "cluster/redis_connection.h"
#include "server/daemon_test_support.h"
#include "sim/simulation.h"
#include "sim/world_file.h"
#include "sim_builder.h"
#include "snapshot_restore.h"
#include "support/running_redis.h"

using namespace npc;
using namespace std::chrono_literals;
using test::waitFor;

namespace {

// A node as the daemon runs one: start() before the first tick, afterTick() after each on
// the tick thread, stop() with a drain once that thread has ended.
class TickingNode {
 public:
  TickingNode(const RedisProcess& redis, const std::string& id, std::vector<std::string> places) {
    DaemonConfig c = test::demoDaemonConfig();
    c.cluster.enabled = true;
    c.cluster.redis_port = redis.port();
    c.cluster.node_id = id;
    c.cluster.lease_ttl_s = 1.0;
    c.cluster.redis_timeout_ms = 100;
    c.cluster.balanced = false;
    c.cluster.places = std::move(places);
    WorldFile world;
    std::vector<std::string> errors;
    REQUIRE(buildSimulation(c, sim_, world, errors));
    node_ = std::make_unique<ClusterNode>(c.cluster, id + ".local:50051", world,
                                          configDefinitionsHash(c));
    node_->start(*sim_);
    tick_thread_ = std::thread([this] { run(); });
  }
  ~TickingNode() {
    running_ = false;
    tick_thread_.join();
    node_->stop(*sim_, true);
  }

  // Any thread: queued for the next tick.
  void submit(CommandBody body) { REQUIRE(sim_->submit(Command{ClientId::kDaemon, 0, std::move(body)})); }
  // Any thread: as a client's stream update `seq` would come.
  void stream(ClientId client, uint64_t seq, CommandBody body) {
    REQUIRE(sim_->submit(Command{client, seq, std::move(body)}));
  }
  // Any thread: what the node has told clients of their stream updates so far.
  uint64_t storedSeq(ClientId client) const {
    std::lock_guard lock(news_mutex_);
    auto it = stored_.find(client);
    return it == stored_.end() ? 0 : it->second;
  }
  std::vector<UnkeptUpdates> unkept() const {
    std::lock_guard lock(news_mutex_);
    return unkept_;
  }
  // Any thread: as of the last tick.
  size_t agents() const { return agents_.load(); }
  size_t placesHeld() const { return places_held_.load(); }
  size_t visitors() const { return visitors_.load(); }  // players relayed from other nodes
  const ClusterNode& node() const { return *node_; }

 private:
  void run() {
    while (running_) {
      sim_->tick();
      const ClusterNews news = node_->afterTick(*sim_);
      {
        std::lock_guard lock(news_mutex_);
        for (const StoredUpdate& s : news.stored) stored_[s.client] = s.seq;
        unkept_.insert(unkept_.end(), news.unkept.begin(), news.unkept.end());
      }
      const SimStats s = sim_->stats();
      agents_ = s.agents;
      places_held_ = s.places_held;
      const auto rows = sim_->world().entities().rows();
      visitors_ = static_cast<size_t>(std::count_if(rows.begin(), rows.end(), isVisitor));
      std::this_thread::sleep_for(5ms);
    }
  }

  std::unique_ptr<Simulation> sim_;
  std::unique_ptr<ClusterNode> node_;
  std::atomic<bool> running_{true};
  std::atomic<size_t> agents_{0};
  std::atomic<size_t> places_held_{0};
  std::atomic<size_t> visitors_{0};
  mutable std::mutex news_mutex_;
  std::map<ClientId, uint64_t> stored_;
  std::vector<UnkeptUpdates> unkept_;
  std::thread tick_thread_;
};

EntityState villagerAt(uint64_t id, float x) {
  EntityState s;
  s.id = EntityId{id};
  s.kind = EntityKind::kNpc;
  s.archetype = "villager";
  s.position = Vec3{x, 0.f, 0.f};
  return s;
}

}  // namespace

TEST_CASE("A node's tick thread hands npcs, sounds and players to the courier's thread, and back",
          "[cluster][threads]") {
  test::RunningRedis redis;
  TickingNode a(redis.process, "node-a", {"square", "guard_post", "forest"});
  TickingNode b(redis.process, "node-b", {"bakery"});
  REQUIRE(waitFor([&] { return a.placesHeld() == 3 && b.placesHeld() == 1; }));
  REQUIRE(waitFor([&] { return a.agents() > 0 && b.agents() > 0; }));  // world npcs queued
  const size_t a_agents = a.agents();
  const size_t b_agents = b.agents();

  // Spawned in the square (a's), then walked by the game into the bakery (b's).
  a.submit(SpawnAgent{villagerAt(77, 5.f), nullptr});
  REQUIRE(waitFor([&] { return a.agents() == a_agents + 1; }));
  a.submit(UpsertEntity{villagerAt(77, 35.f)});
  CHECK(waitFor([&] { return b.agents() == b_agents + 1 && a.agents() == a_agents; }));
  CHECK(a.node().handedOver() == 1);
  CHECK(b.node().arrived() == 1);
  CHECK(a.node().courierStats().sent == 1);

  // Gunshots in the square that reach the bakery, one a tick: each is relayed once.
  for (int i = 0; i < 5; ++i) {
    SoundEvent shot;
    shot.position = Vec3{20.f, 0.f, 0.f};
    shot.radius_m = 15.f;
    shot.kind = "gunshot";
    a.submit(std::move(shot));
    std::this_thread::sleep_for(10ms);
  }
  CHECK(waitFor([&] { return b.node().soundsHeard() == 5; }));
  CHECK(a.node().soundsRelayed() == 5);

  // A player in the square 15 m from the bakery, within the demo's sight ranges: a relays
  // it, b keeps it as a visitor while it is relayed, and lets it go once it is not.
  EntityState player;
  player.id = EntityId{900};
  player.kind = EntityKind::kPlayer;
  player.position = Vec3{10.f, 0.f, 0.f};
  a.submit(UpsertEntity{player});
  CHECK(waitFor([&] { return b.visitors() == 1; }));
  CHECK(a.node().playersRelayed() > 0);
  CHECK(b.node().playersVisiting() > 0);
  a.submit(RemoveEntity{EntityId{900}});
  CHECK(waitFor([&] { return b.visitors() == 0; }));
  CHECK(a.node().courierStats().send_failures == 0);
}

namespace {

// The input stream entries Redis has for `place`.
size_t inputEntries(const RedisProcess& redis, const std::string& place) {
  RedisConnection connection("127.0.0.1", redis.port(), 500ms);
  PlaceLeaseStore store(connection);
  const StreamResult read = store.readInputs(place, "", 1000);
  REQUIRE(read.status.isOk());
  return read.entries.size();
}

}  // namespace

TEST_CASE("A command's answer waits until Redis has it in its place's input stream",
          "[cluster][threads]") {
  test::RunningRedis redis;
  TickingNode a(redis.process, "node-a", {"square", "guard_post", "forest"});
  REQUIRE(waitFor([&] { return a.placesHeld() == 3 && a.agents() > 0; }));
  const size_t before = a.agents();
  const size_t entries = inputEntries(redis.process, "square");
  std::atomic<int> answers{0};
  std::atomic<bool> ok{false};
  // Redis frozen for less than the leases' validity (0.6 s of the 1 s ttl): the spawn
  // applies, but its input cannot be appended, so the node may not answer yet.
  redis.process.pause();
  a.submit(SpawnAgent{villagerAt(78, 5.f), [&](const Status& s) {
                        ok = s.isOk();
                        ++answers;
                      }});
  REQUIRE(waitFor([&] { return a.agents() == before + 1; }));
  std::this_thread::sleep_for(150ms);  // some 20 ticks
  CHECK(answers == 0);
  a.stream(ClientId{9}, 41, UpsertEntity{villagerAt(80, 6.f)});  // a game's stream update
  std::this_thread::sleep_for(150ms);
  CHECK(a.storedSeq(ClientId{9}) == 0);
  redis.process.resume();
  REQUIRE(waitFor([&] { return answers == 1; }));
  CHECK(ok);
  CHECK(inputEntries(redis.process, "square") > entries);  // the answer came after the append
  CHECK(waitFor([&] { return a.storedSeq(ClientId{9}) == 41; }));
  CHECK(a.unkept().empty());
}

TEST_CASE("A command whose place was lost before Redis had it is answered as not kept",
          "[cluster][threads]") {
  test::RunningRedis redis;
  TickingNode a(redis.process, "node-a", {"square", "guard_post", "forest"});
  REQUIRE(waitFor([&] { return a.placesHeld() == 3 && a.agents() > 0; }));
  std::atomic<int> answers{0};
  std::string why;
  std::mutex why_mutex;
  // Frozen past the ttl: the node gives its places up on its own clock, and by the time
  // Redis answers again the lease the input was recorded under has expired there too.
  redis.process.pause();
  a.submit(SpawnAgent{villagerAt(79, 5.f), [&](const Status& s) {
                        std::lock_guard lock(why_mutex);
                        why = s.isOk() ? "ok" : std::string(toString(s.code())) + ": " + s.message();
                        ++answers;
                      }});
  a.stream(ClientId{9}, 42, UpsertEntity{villagerAt(81, 6.f)});  // a game's stream update
  std::this_thread::sleep_for(1300ms);
  CHECK(answers == 0);
  redis.process.resume();
  REQUIRE(waitFor([&] { return answers == 1; }));
  // The stream's update is settled too, and named as not kept.
  CHECK(waitFor([&] { return a.storedSeq(ClientId{9}) == 42; }));
  const std::vector<UnkeptUpdates> unkept = a.unkept();
  REQUIRE(unkept.size() == 1);
  CHECK(unkept[0].client == ClientId{9});
  CHECK(unkept[0].first_seq == 42);
  CHECK(unkept[0].place == "square");
  std::lock_guard lock(why_mutex);
  CHECK(why.find("place \"square\" was given up before Redis stored this command: it is not kept") !=
        std::string::npos);
}
