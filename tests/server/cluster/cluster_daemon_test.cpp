// Whole daemons in a cluster on the demo world, with a private redis-server: a node holds
// places by lease, says so in GetClusterState and in the epochs of its actions, hands its
// places over when it drains (their snapshots adopted by the next node), and stops running a
// place the moment it may have lost it.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>

#include "cluster/cluster_node.h"
#include "cluster/place_lease_store.h"
#include "cluster/redis_connection.h"
#include "daemon.h"
#include "server/daemon_test_support.h"
#include "npc/v1/npc.grpc.pb.h"
#include "support/running_redis.h"

using namespace npc;
using namespace std::chrono_literals;
using test::waitFor;

namespace {

// The demo world's npcs that start inside a place: a cluster runs npcs by place (the others
// are left out, with a warning).
uint64_t demoNpcs() {
  std::ifstream in(NPCD_SOURCE_DIR "/config/demo.json");
  const nlohmann::json world = nlohmann::json::parse(in);
  uint64_t n = 0;
  for (const auto& e : world.at("entities")) {
    if (e.at("kind") != "npc") continue;
    bool inside = false;
    for (const auto& p : world.at("places")) {
      bool in_box = true;
      for (int axis = 0; axis < 3; ++axis) {
        const double v = e.at("position")[axis];
        in_box = in_box && v >= p.at("min")[axis].get<double>() && v <= p.at("max")[axis].get<double>();
      }
      inside = inside || in_box;
    }
    n += inside;
  }
  REQUIRE(n > 0);
  return n;
}

DaemonConfig nodeConfig(const RedisProcess& redis, const std::string& node, double ttl_s = 1.0) {
  DaemonConfig c = test::demoDaemonConfig();
  c.metrics_listen.clear();
  c.cluster.enabled = true;
  c.cluster.redis_port = redis.port();
  c.cluster.node_id = node;
  c.cluster.lease_ttl_s = ttl_s;
  c.cluster.redis_timeout_ms = 100;
  return c;
}

struct Node {
  Daemon daemon;
  std::unique_ptr<v1::NpcSim::Stub> stub;
  explicit Node(DaemonConfig config) : daemon(std::move(config)) {
    std::vector<std::string> errors;
    REQUIRE(daemon.start(errors));
    stub = v1::NpcSim::NewStub(grpc::CreateChannel("127.0.0.1:" + std::to_string(daemon.port()),
                                                   grpc::InsecureChannelCredentials()));
  }
  ~Node() { daemon.shutdown(); }
  SimStats sim() const { return daemon.stats().load().sim; }
  v1::GetClusterStateResponse clusterState() {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 5s);
    v1::GetClusterStateResponse reply;
    const grpc::Status status = stub->GetClusterState(&ctx, {}, &reply);
    INFO(status.error_message());
    REQUIRE(status.ok());
    return reply;
  }
};

using Redis = test::RunningRedis;

// Spawns a villager over gRPC on `node` at x (the square), as the game would.
grpc::Status spawnVillager(Node& node, uint64_t id, float x = 5.f, const std::string& group = {}) {
  v1::SpawnAgentRequest spawn;
  spawn.mutable_agent()->set_id(id);
  spawn.mutable_agent()->set_kind(v1::ENTITY_KIND_NPC);
  spawn.mutable_agent()->set_archetype("villager");
  if (!group.empty()) spawn.mutable_agent()->set_group(group);
  spawn.mutable_agent()->mutable_position()->set_x(x);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 5s);
  v1::SpawnAgentResponse out;
  return node.stub->SpawnAgent(&ctx, spawn, &out);
}

}  // namespace

// Both nodes claim every place (a static list): the second waits for what the first gives up
// (balanced nodes would share the places: the next test case).
static DaemonConfig everyPlace(DaemonConfig c) {
  c.cluster.balanced = false;
  c.cluster.places = {"square", "bakery", "guard_post", "forest"};
  return c;
}

TEST_CASE("Two nodes share the demo world by place; a draining node hands its places over",
          "[cluster][daemon]") {
  Redis redis;
  Node a(everyPlace(nodeConfig(redis.process, "node-a")));
  REQUIRE(waitFor([&] { return a.sim().places_held == 4 && a.sim().agents == demoNpcs(); }));

  const v1::GetClusterStateResponse state = a.clusterState();
  CHECK(state.enabled());
  CHECK(state.node() == "node-a");
  REQUIRE(state.places_size() == 4);
  for (const v1::ClusterPlace& p : state.places()) {
    CHECK(p.node() == "node-a");
    CHECK(p.epoch() == 1);
    CHECK(p.held_here());
    CHECK(p.address() == "127.0.0.1:" + std::to_string(a.daemon.port()));
  }

  SECTION("Actions carry their place's lease epoch") {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 10s);
    auto stream = a.stub->Connect(&ctx);
    v1::ServerMessage msg;
    REQUIRE(stream->Read(&msg));
    v1::WorldUpdate update;
    update.set_seq(1);
    update.mutable_subscribe()->set_observe_all_actions(true);
    REQUIRE(stream->Write(update));
    size_t actions = 0;
    while (actions < 3 && stream->Read(&msg)) {
      for (const v1::Action& action : msg.actions()) {
        CHECK(action.epoch() == 1);
        ++actions;
      }
    }
    CHECK(actions >= 3);
    ctx.TryCancel();
  }
  SECTION("The second node waits; the first one's drain gives it every place") {
    Node b(everyPlace(nodeConfig(redis.process, "node-b")));
    std::this_thread::sleep_for(600ms);  // a few claim rounds: everything is node-a's
    CHECK(b.sim().places_held == 0);
    CHECK(b.sim().agents == 0);
    const v1::GetClusterStateResponse seen_by_b = b.clusterState();
    CHECK(seen_by_b.nodes_size() == 2);
    for (const v1::ClusterPlace& p : seen_by_b.places()) CHECK_FALSE(p.held_here());

    // An npc spawned on b into a place a holds is refused, naming a and where it listens.
    const std::string holder = "node-a at 127.0.0.1:" + std::to_string(a.daemon.port());
    v1::SpawnAgentRequest spawn;
    spawn.mutable_agent()->set_id(77);
    spawn.mutable_agent()->set_kind(v1::ENTITY_KIND_NPC);
    spawn.mutable_agent()->set_archetype("villager");
    spawn.mutable_agent()->set_place("square");
    spawn.mutable_agent()->mutable_position()->set_x(1);
    grpc::Status refused;
    REQUIRE(waitFor([&] {
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + 5s);
      v1::SpawnAgentResponse out;
      refused = b.stub->SpawnAgent(&ctx, spawn, &out);
      return refused.error_message().find(holder) != std::string::npos;
    }, 3000ms));
    CHECK(refused.error_code() == grpc::StatusCode::FAILED_PRECONDITION);
    CHECK(refused.error_message() == "entity 77: place \"square\" is held by another node (" + holder + ")");

    a.daemon.shutdown();
    REQUIRE(waitFor([&] { return b.sim().places_held == 4 && b.sim().agents == demoNpcs(); }, 3000ms));
    const v1::GetClusterStateResponse after = b.clusterState();
    for (const v1::ClusterPlace& p : after.places()) {
      CHECK(p.node() == "node-b");
      CHECK(p.epoch() == 2);
    }
  }
}

TEST_CASE("A draining node's places come back on the next node from their snapshots",
          "[cluster][daemon]") {
  Redis redis;
  Node a(everyPlace(nodeConfig(redis.process, "node-a")));
  REQUIRE(waitFor([&] { return a.sim().places_held == 4 && a.sim().agents == demoNpcs(); }));
  // An npc the game spawned on node-a: no world file knows it, only the square's snapshot.
  const grpc::Status spawned = spawnVillager(a, 77);
  INFO(spawned.error_message());
  REQUIRE(spawned.ok());
  REQUIRE(waitFor([&] { return a.sim().agents == demoNpcs() + 1; }));

  Node b(everyPlace(nodeConfig(redis.process, "node-b")));
  std::this_thread::sleep_for(300ms);
  REQUIRE(b.sim().places_held == 0);
  a.daemon.shutdown();
  CHECK(a.daemon.stats().load().place_snapshots_written >= 4);
  REQUIRE(waitFor([&] { return b.sim().places_held == 4 && b.sim().agents == demoNpcs() + 1; },
                  3000ms));
  CHECK(b.daemon.stats().load().places_adopted == 4);
  // It runs there: the snapshot b writes of the square has it too.
  REQUIRE(waitFor([&] { return b.daemon.stats().load().place_snapshots_written >= 4; }, 8000ms));
}

namespace {

grpc::Status getAgent(Node& node, uint64_t id, v1::GetAgentResponse& out) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 5s);
  v1::GetAgentRequest request;
  request.set_id(id);
  return node.stub->GetAgent(&ctx, request, &out);
}

}  // namespace

TEST_CASE("An npc the game walks into another node's place goes there with its mind",
          "[cluster][daemon]") {
  Redis redis;
  DaemonConfig config_a = nodeConfig(redis.process, "node-a");
  config_a.cluster.balanced = false;
  config_a.cluster.places = {"square", "guard_post", "forest"};
  DaemonConfig config_b = nodeConfig(redis.process, "node-b");
  config_b.cluster.balanced = false;
  config_b.cluster.places = {"bakery"};
  Node a(config_a);
  Node b(config_b);
  REQUIRE(waitFor([&] { return a.sim().places_held == 3 && b.sim().places_held == 1; }));
  const uint64_t a_agents = a.sim().agents;
  const uint64_t b_agents = b.sim().agents;

  // A squad of one, spawned on a in the square: its group name is its own.
  REQUIRE(spawnVillager(a, 77, 5.f, "squad-77").ok());
  REQUIRE(waitFor([&] { return a.sim().agents == a_agents + 1; }));

  // The game walks it into the bakery, through node a.
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 10s);
  auto stream = a.stub->Connect(&ctx);
  v1::WorldUpdate update;
  update.set_seq(1);
  v1::Entity& moved = *update.add_upserts();
  moved.set_id(77);
  moved.set_kind(v1::ENTITY_KIND_NPC);
  moved.mutable_position()->set_x(35);
  REQUIRE(stream->Write(update));

  v1::GetAgentResponse there;
  REQUIRE(waitFor([&] { return getAgent(b, 77, there).ok(); }, 3000ms));
  CHECK(there.agent().place() == "bakery");
  CHECK(there.agent().position().x() == 35.f);
  CHECK(there.agent().group() == "squad-77");
  REQUIRE(waitFor([&] {
    v1::GetAgentResponse here;
    return getAgent(a, 77, here).error_code() == grpc::StatusCode::NOT_FOUND;
  }, 3000ms));
  CHECK(waitFor([&] { return a.sim().agents == a_agents && b.sim().agents == b_agents + 1; }));
  CHECK(a.daemon.stats().load().npcs_handed_over == 1);
  CHECK(b.daemon.stats().load().npcs_arrived == 1);
  // The move is in the square's input stream: a tells the game so on its stream.
  uint64_t stored = 0;
  v1::ServerMessage message;
  while (stored < 1 && stream->Read(&message)) stored = std::max(stored, message.stored_seq());
  CHECK(stored == 1);

  SECTION("A gunshot in the square that reaches the bakery is heard there") {
    v1::WorldUpdate shot;
    shot.set_seq(2);
    v1::Sound& sound = *shot.add_sounds();
    sound.mutable_position()->set_x(20);
    sound.set_radius(15);
    sound.set_kind("gunshot");
    REQUIRE(stream->Write(shot));
    CHECK(waitFor([&] { return b.daemon.stats().load().sounds_heard == 1; }, 3000ms));
    CHECK(a.daemon.stats().load().sounds_relayed == 1);  // the bakery only: a holds the rest
  }
  SECTION("A player the game sends to a, near the bakery, is seen there until it goes") {
    // A villager on b at the bakery's west wall, looking into the square.
    v1::SpawnAgentRequest spawn;
    spawn.mutable_agent()->set_id(78);
    spawn.mutable_agent()->set_kind(v1::ENTITY_KIND_NPC);
    spawn.mutable_agent()->set_archetype("villager");
    spawn.mutable_agent()->mutable_position()->set_x(26);
    spawn.mutable_agent()->mutable_forward()->set_x(-1);
    grpc::ClientContext spawn_ctx;
    spawn_ctx.set_deadline(std::chrono::system_clock::now() + 5s);
    v1::SpawnAgentResponse spawned;
    REQUIRE(b.stub->SpawnAgent(&spawn_ctx, spawn, &spawned).ok());
    auto sees = [&](uint64_t id) {
      v1::GetAgentResponse view;
      if (!getAgent(b, 78, view).ok()) return false;
      for (const v1::PerceivedTarget& t : view.agent().visible()) {
        if (t.target() == id) return true;
      }
      return false;
    };
    v1::WorldUpdate near;
    near.set_seq(2);
    v1::Entity& player = *near.add_upserts();
    player.set_id(900);
    player.set_kind(v1::ENTITY_KIND_PLAYER);
    player.mutable_position()->set_x(20);  // at the square's east edge, 6 m from the villager
    REQUIRE(stream->Write(near));
    CHECK(waitFor([&] { return sees(900); }, 3000ms));
    CHECK(a.daemon.stats().load().players_relayed > 0);
    CHECK(b.daemon.stats().load().players_visiting > 0);
    v1::WorldUpdate gone;
    gone.set_seq(3);
    gone.add_removals(900);
    REQUIRE(stream->Write(gone));
    CHECK(waitFor([&] { return !sees(900); }, 3000ms));  // a second after its last relay
  }
  SECTION("The game's signals to the bakery, or within a radius reaching it, are received there") {
    v1::WorldUpdate signals;
    signals.set_seq(2);
    v1::Signal& around = *signals.add_signals();
    around.set_name("OnAlarm");
    around.mutable_position()->set_x(20);
    around.set_radius(15);
    v1::Signal& to_place = *signals.add_signals();
    to_place.set_name("OnBreadReady");
    to_place.set_place("bakery");
    v1::Signal& near_only = *signals.add_signals();  // inside the square only
    near_only.set_name("OnAlarm");
    near_only.mutable_position()->set_x(5);
    near_only.set_radius(2);
    REQUIRE(stream->Write(signals));
    CHECK(waitFor([&] { return b.daemon.stats().load().signals_heard == 2; }, 3000ms));
    CHECK(a.daemon.stats().load().signals_relayed == 2);
  }
  SECTION("A node that takes the bakery over later finds it there") {
    b.daemon.shutdown();  // drains: the bakery's snapshot has it
    DaemonConfig config_c = nodeConfig(redis.process, "node-c");
    config_c.cluster.balanced = false;
    config_c.cluster.places = {"bakery"};
    Node c(config_c);
    v1::GetAgentResponse again;
    REQUIRE(waitFor([&] { return getAgent(c, 77, again).ok(); }, 3000ms));
    CHECK(again.agent().group() == "squad-77");
    // Read on after the entry the snapshot had adopted: it did not arrive twice.
    CHECK(c.daemon.stats().load().npcs_arrived == 0);
  }
  ctx.TryCancel();
}

TEST_CASE("A balanced node gives places up to a node that joins, which adopts them",
          "[cluster][daemon]") {
  Redis redis;
  Node a(nodeConfig(redis.process, "node-a"));
  REQUIRE(waitFor([&] { return a.sim().places_held == 4 && a.sim().agents == demoNpcs(); }));
  Node b(nodeConfig(redis.process, "node-b"));
  REQUIRE(waitFor([&] { return a.sim().places_held == 2 && b.sim().places_held == 2; }, 5000ms));
  REQUIRE(waitFor([&] { return a.sim().agents + b.sim().agents == demoNpcs(); }));
  CHECK(b.daemon.stats().load().places_adopted == 2);
  std::set<std::string> on_a, on_b;
  const v1::GetClusterStateResponse state = b.clusterState();
  for (const v1::ClusterPlace& p : state.places()) {
    (p.node() == "node-a" ? on_a : on_b).insert(p.place());
    CHECK(p.epoch() == (p.node() == "node-a" ? 1u : 2u));
  }
  CHECK(on_a.size() == 2);
  CHECK(on_b.size() == 2);
  // Settled: nothing moves back and forth.
  std::this_thread::sleep_for(1000ms);
  CHECK(a.sim().places_held == 2);
  CHECK(b.sim().places_held == 2);
  CHECK(b.daemon.stats().load().places_adopted == 2);
}

TEST_CASE("A node that cannot renew stops running its places, and takes them up again",
          "[cluster][daemon]") {
  Redis redis;
  Node a(nodeConfig(redis.process, "node-a"));
  REQUIRE(waitFor([&] { return a.sim().places_held == 4 && a.sim().agents == demoNpcs(); }));
  redis.process.pause();
  // Valid for 0.6 s after the last renew; the leases live 1 s in Redis.
  REQUIRE(waitFor([&] { return a.sim().places_held == 0; }, 1500ms));
  CHECK(a.sim().agents == 0);  // unloaded: nothing of them acts here any more
  redis.process.resume();
  REQUIRE(waitFor([&] { return a.sim().places_held == 4 && a.sim().agents == demoNpcs(); }, 3000ms));
  const v1::GetClusterStateResponse after = a.clusterState();
  for (const v1::ClusterPlace& p : after.places()) CHECK(p.epoch() == 2);
}

TEST_CASE("A place taken up again after a loss has what was applied after its snapshot",
          "[cluster][daemon]") {
  Redis redis;
  DaemonConfig config = nodeConfig(redis.process, "node-a");
  config.cluster.snapshot_interval_s = 3600;  // one snapshot, when the places are first held
  Node a(config);
  REQUIRE(waitFor([&] {
    const DaemonStats s = a.daemon.stats().load();
    return s.sim.places_held == 4 && s.sim.agents == demoNpcs() && s.place_snapshots_written >= 4;
  }));

  // Acknowledged after the snapshot: only the square's input stream has it.
  REQUIRE(spawnVillager(a, 7100).ok());
  REQUIRE(waitFor([&] { return a.daemon.stats().load().inputs_recorded >= 1; }));
  CHECK(a.daemon.stats().load().place_snapshots_written == 4);

  // The node loses every lease (Redis stops answering), then takes the places up again at
  // the next epoch, from their snapshots, as a node taking over after a crash would.
  redis.process.pause();
  REQUIRE(waitFor([&] { return a.sim().places_held == 0; }, 1500ms));
  CHECK(a.sim().agents == 0);
  redis.process.resume();
  REQUIRE(waitFor([&] { return a.sim().places_held == 4 && a.sim().agents == demoNpcs() + 1; }, 3000ms));
  v1::GetAgentResponse back;
  REQUIRE(getAgent(a, 7100, back).ok());
  CHECK(back.agent().place() == "square");
  CHECK(a.daemon.stats().load().places_adopted == 4);
  CHECK(a.daemon.stats().load().inputs_replayed >= 1);

  // What it applied again is not recorded again: a second loss brings the npc back once.
  RedisConnection connection("127.0.0.1", redis.process.port(), 1000ms);
  PlaceLeaseStore store(connection);
  size_t spawns = 0;
  for (const StreamEntry& e : store.readInputs("square", "", 100000).entries) {
    pb::PlaceInput input;
    REQUIRE(input.ParseFromString(e.bytes));
    for (const pb::JournalCommand& c : input.commands()) spawns += c.spawn_agent().id() == 7100;
  }
  CHECK(spawns == 1);
}

TEST_CASE("A static place list must name the world's places", "[cluster][daemon]") {
  Redis redis;
  DaemonConfig c = nodeConfig(redis.process, "node-a");
  c.cluster.balanced = false;
  c.cluster.places = {"square", "harbour"};
  Daemon daemon(c);
  std::vector<std::string> errors;
  REQUIRE_FALSE(daemon.start(errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("/cluster/places: \"harbour\" is not a place of ") != std::string::npos);
}

TEST_CASE("Alone, GetClusterState says the cluster is off", "[cluster][daemon]") {
  DaemonConfig c = test::demoDaemonConfig();
  c.metrics_listen.clear();
  Node a(c);
  const v1::GetClusterStateResponse state = a.clusterState();
  CHECK_FALSE(state.enabled());
  CHECK(state.places_size() == 0);
}
