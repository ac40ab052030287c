// End-to-end tests of the gRPC adapter over real gRPC on 127.0.0.1: a Simulation ticked by
// a test thread, a ClientHub, an NpcService, and sync-stub clients. Every client call has a
// deadline and every wait has a timeout, so a bug fails a test instead of hanging it.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <nlohmann/json.hpp>

#include "client_hub.h"
#include "npc/v1/npc.grpc.pb.h"
#include "npc_service.h"
#include "stats_board.h"

using namespace npc;
using namespace std::chrono_literals;

namespace {

constexpr auto kWait = 5s;             // how long a test waits for something that must happen
constexpr auto kStreamDeadline = 60s;  // backstop for a stream whose test has gone wrong
constexpr uint32_t kUnownedRaw = 0xfffffffeu;

std::chrono::system_clock::time_point deadlineIn(std::chrono::seconds s) {
  return std::chrono::system_clock::now() + s;
}

// Polls `condition` until it holds or `timeout` passes.
bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout = kWait) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (condition()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return condition();
}

ArchetypeSet testArchetypes() {
  ArchetypeSet set;
  Archetype villager;
  villager.name = "villager";
  villager.species = "human";
  villager.notice_radius_m = 10.f;
  villager.action_timeout_s = 1e6f;  // results from a slow test must never race a timeout
  villager.greet.action = "Greet";
  villager.greet.duration_s = 2.f;
  villager.greet.cooldown_s = 20.f;
  villager.wander.radius_m = 5.f;
  villager.wander.pause_min_s = 0.1f;
  villager.wander.pause_max_s = 0.2f;
  set.add(villager);
  Archetype statue = villager;  // never acts: handy for agents that only need to exist
  statue.name = "statue";
  statue.notice_radius_m = 0.f;
  statue.wander.radius_m = 0.f;
  set.add(statue);
  return set;
}

SimConfig testSimConfig() {
  SimConfig config;
  config.tick_dt_s = 0.05;
  return config;
}

struct ServerSetup {
  HubLimits limits;
  int max_receive_bytes = 0;  // 0: gRPC's default (4 MiB)
  std::chrono::milliseconds tick_sleep{2};
};

// Everything the daemon wires together, minus config: sim + hub + service + server, and a
// thread that runs tick() and publish() until the server goes away.
class TestServer {
 public:
  explicit TestServer(const ServerSetup& setup = {})
      : sim_(testSimConfig(), testArchetypes()),
        hub_(sim_, setup.limits),
        service_(hub_, stats_),
        tick_sleep_(setup.tick_sleep) {
    REQUIRE(sim_.world().addPlace("square", Aabb{{-100.f, -100.f, -10.f}, {100.f, 100.f, 10.f}}));
    grpc::EnableDefaultHealthCheckService(true);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(&service_);
    if (setup.max_receive_bytes > 0) builder.SetMaxReceiveMessageSize(setup.max_receive_bytes);
    server_ = builder.BuildAndStart();
    REQUIRE(server_);
    REQUIRE(port_ > 0);
    ticker_ = std::thread([this] { tickLoop(); });
  }

  ~TestServer() {
    // As the daemon does it: streams end first, unary calls still get their tick.
    hub_.drain();
    server_->Shutdown(deadlineIn(5s));
    stop_ = true;
    ticker_.join();
  }

  std::shared_ptr<grpc::Channel> channel() const {
    return grpc::CreateChannel("127.0.0.1:" + std::to_string(port_),
                               grpc::InsecureChannelCredentials());
  }
  ClientHub& hub() { return hub_; }
  Simulation& sim() { return sim_; }  // submit()/queuedCommands() only: thread-safe
  void pauseTicks(bool paused) { paused_ = paused; }

 private:
  void tickLoop() {
    while (!stop_) {
      if (!paused_) {
        sim_.tick();
        hub_.publish(sim_);
        DaemonStats stats;
        stats.sim = sim_.stats();
        stats_.store(stats);
      }
      std::this_thread::sleep_for(tick_sleep_);
    }
  }

  Simulation sim_;
  ClientHub hub_;
  StatsBoard stats_;
  NpcService service_;
  std::chrono::milliseconds tick_sleep_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> paused_{false};
  std::thread ticker_;
};

// One Connect stream. A background thread reads every ServerMessage into a list the test
// waits on; with read=false nothing is read (a client that cannot keep up).
class StreamClient {
 public:
  explicit StreamClient(std::shared_ptr<grpc::Channel> channel, bool read = true)
      : stub_(v1::NpcSim::NewStub(std::move(channel))) {
    context_.set_deadline(std::chrono::system_clock::now() + kStreamDeadline);
    stream_ = stub_->Connect(&context_);
    if (read) reader_ = std::thread([this] { readAll(); });
  }

  ~StreamClient() {
    context_.TryCancel();
    if (reader_.joinable()) reader_.join();
  }

  bool send(const v1::WorldUpdate& update) {
    std::lock_guard lock(write_mutex_);
    return !finished_ && stream_->Write(update);
  }
  void halfClose() {
    std::lock_guard lock(write_mutex_);
    if (!finished_) stream_->WritesDone();
  }
  // The client vanishes: its call is cancelled as if the process had died.
  void vanish() {
    context_.TryCancel();
    if (reader_.joinable()) reader_.join();
  }

  // For read=false clients: reads whatever is buffered, then the final status.
  grpc::Status readToEnd() {
    v1::ServerMessage message;
    while (stream_->Read(&message)) {
    }
    std::lock_guard lock(write_mutex_);
    finished_ = true;
    return stream_->Finish();
  }

  std::optional<v1::ServerMessage> waitMessage(
      const std::function<bool(const v1::ServerMessage&)>& match) {
    std::unique_lock lock(mutex_);
    std::optional<v1::ServerMessage> found;
    cv_.wait_for(lock, kWait, [&] {
      for (const auto& m : messages_) {
        if (match(m)) {
          found = m;
          return true;
        }
      }
      return done_;
    });
    return found;
  }
  std::optional<v1::Action> waitAction(const std::function<bool(const v1::Action&)>& match) {
    std::optional<v1::Action> found;
    waitMessage([&](const v1::ServerMessage& m) {
      for (const auto& a : m.actions()) {
        if (match(a)) {
          found = a;
          return true;
        }
      }
      return false;
    });
    return found;
  }
  std::optional<v1::Event> waitEvent(const std::function<bool(const v1::Event&)>& match) {
    std::optional<v1::Event> found;
    waitMessage([&](const v1::ServerMessage& m) {
      for (const auto& e : m.events()) {
        if (match(e)) {
          found = e;
          return true;
        }
      }
      return false;
    });
    return found;
  }
  std::optional<v1::Event> waitError(uint64_t seq, const std::string& text) {
    return waitEvent([&](const v1::Event& e) {
      return e.kind() == v1::EVENT_KIND_ERROR && e.seq() == seq && e.text() == text;
    });
  }
  // Waits for the Welcome and returns the client id it carries (0 if none came).
  uint32_t waitWelcome() {
    auto m = waitMessage([](const v1::ServerMessage& m) { return m.has_welcome(); });
    return m ? m->welcome().client_id() : 0;
  }

  std::optional<grpc::Status> waitDone() {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_for(lock, kWait, [&] { return done_; })) return std::nullopt;
    return status_;
  }
  std::vector<v1::ServerMessage> messages() const {
    std::lock_guard lock(mutex_);
    return messages_;
  }

 private:
  void readAll() {
    v1::ServerMessage message;
    while (stream_->Read(&message)) {
      std::lock_guard lock(mutex_);
      messages_.push_back(message);
      cv_.notify_all();
    }
    grpc::Status status;
    {
      std::lock_guard lock(write_mutex_);
      finished_ = true;
      status = stream_->Finish();
    }
    std::lock_guard lock(mutex_);
    status_ = status;
    done_ = true;
    cv_.notify_all();
  }

  std::unique_ptr<v1::NpcSim::Stub> stub_;
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::WorldUpdate, v1::ServerMessage>> stream_;
  std::mutex write_mutex_;  // Write, WritesDone and Finish never overlap
  bool finished_ = false;   // guarded by write_mutex_

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<v1::ServerMessage> messages_;  // guarded by mutex_
  bool done_ = false;                        // guarded by mutex_
  grpc::Status status_;                      // guarded by mutex_
  std::thread reader_;
};

void setVec(v1::Vec3* v, float x, float y, float z) {
  v->set_x(x);
  v->set_y(y);
  v->set_z(z);
}

v1::Entity* addEntity(v1::WorldUpdate& u, uint64_t id, v1::EntityKind kind, float x, float y,
                      const std::string& archetype = {}) {
  v1::Entity* e = u.add_upserts();
  e->set_id(id);
  e->set_kind(kind);
  setVec(e->mutable_position(), x, y, 0.f);
  e->set_archetype(archetype);
  return e;
}

bool hasEntityParam(const v1::Action& a, const std::string& name, uint64_t entity) {
  for (const auto& p : a.params()) {
    if (p.name() == name && p.has_entity() && p.entity() == entity) return true;
  }
  return false;
}

// Sync unary helpers with a deadline each.
struct Admin {
  explicit Admin(const std::shared_ptr<grpc::Channel>& channel)
      : stub(v1::NpcSim::NewStub(channel)) {}

  grpc::Status spawn(uint64_t id, const std::string& archetype, v1::EntityKind kind,
                     v1::SpawnAgentReply* reply = nullptr) {
    grpc::ClientContext ctx;
    ctx.set_deadline(deadlineIn(5s));
    v1::SpawnAgentRequest req;
    req.mutable_agent()->set_id(id);
    req.mutable_agent()->set_kind(kind);
    req.mutable_agent()->set_archetype(archetype);
    setVec(req.mutable_agent()->mutable_position(), 7.f, 8.f, 0.f);
    v1::SpawnAgentReply local;
    return stub->SpawnAgent(&ctx, req, reply ? reply : &local);
  }
  grpc::Status despawn(uint64_t id) {
    grpc::ClientContext ctx;
    ctx.set_deadline(deadlineIn(5s));
    v1::DespawnAgentRequest req;
    req.set_id(id);
    v1::DespawnAgentReply reply;
    return stub->DespawnAgent(&ctx, req, &reply);
  }
  grpc::Status get(uint64_t id, std::string* json = nullptr) {
    grpc::ClientContext ctx;
    ctx.set_deadline(deadlineIn(5s));
    v1::GetAgentRequest req;
    req.set_id(id);
    v1::GetAgentReply reply;
    grpc::Status s = stub->GetAgent(&ctx, req, &reply);
    if (json) *json = reply.json();
    return s;
  }
  grpc::Status stats(v1::Stats* out) {
    grpc::ClientContext ctx;
    ctx.set_deadline(deadlineIn(5s));
    return stub->GetStats(&ctx, v1::GetStatsRequest(), out);
  }
  // The agent's "owner" from GetAgent, or -1 if the call failed.
  int64_t owner(uint64_t id) {
    std::string json;
    if (!get(id, &json).ok()) return -1;
    return nlohmann::json::parse(json).at("owner").get<int64_t>();
  }

  std::unique_ptr<v1::NpcSim::Stub> stub;
};

}  // namespace

TEST_CASE("A game client streams its world and performs its NPCs' actions", "[grpc]") {
  TestServer server;
  StreamClient client(server.channel());

  SECTION("Should greet first, report the outcome, then carry on with the next action") {
    auto welcome = client.waitMessage([](const v1::ServerMessage& m) { return m.has_welcome(); });
    REQUIRE(welcome);
    CHECK(welcome->welcome().client_id() >= 1);
    CHECK(welcome->welcome().tick_dt() == Approx(0.05));
    CHECK(client.messages().front().has_welcome());  // the first message of the stream

    v1::WorldUpdate update;
    update.set_seq(1);
    addEntity(update, 1, v1::ENTITY_KIND_NPC, 0.f, 0.f, "villager");
    addEntity(update, 2, v1::ENTITY_KIND_PLAYER, 3.f, 0.f);
    REQUIRE(client.send(update));

    auto spawned = client.waitEvent([](const v1::Event& e) {
      return e.kind() == v1::EVENT_KIND_AGENT_SPAWNED && e.agent() == 1;
    });
    REQUIRE(spawned);
    CHECK(spawned->place() == "square");
    CHECK(spawned->text() == "villager");

    auto greet = client.waitAction([](const v1::Action& a) { return a.agent() == 1; });
    REQUIRE(greet);
    CHECK(greet->name() == "Greet");
    CHECK(greet->intention() != 0);
    CHECK(greet->place() == "square");
    CHECK(hasEntityParam(*greet, "target", 2));

    v1::WorldUpdate result;
    result.set_seq(2);
    v1::ActionResult* r = result.add_results();
    r->set_agent(1);
    r->set_intention(greet->intention());
    r->set_outcome(v1::ActionResult::OUTCOME_COMPLETED);
    REQUIRE(client.send(result));

    auto completed = client.waitEvent([&](const v1::Event& e) {
      return e.kind() == v1::EVENT_KIND_INTENTION_COMPLETED && e.agent() == 1;
    });
    REQUIRE(completed);
    CHECK(completed->place() == "square");

    auto next = client.waitAction([&](const v1::Action& a) {
      return a.agent() == 1 && a.intention() != greet->intention();
    });
    REQUIRE(next);
    CHECK(next->name() == "MoveTo");
    CHECK(next->intention() > greet->intention());
  }

  SECTION("Should flush the replies to the last update before finishing OK on half-close") {
    REQUIRE(client.waitWelcome() != 0);
    v1::WorldUpdate update;
    update.set_seq(9);
    addEntity(update, 50, v1::ENTITY_KIND_NPC, 0.f, 0.f, "ghost");
    REQUIRE(client.send(update));
    client.halfClose();

    auto status = client.waitDone();
    REQUIRE(status);
    CHECK(status->error_code() == grpc::StatusCode::OK);
    CHECK(client.waitError(9, "entity 50: archetype \"ghost\" is unknown"));
    CHECK(eventually([&] { return server.hub().clientCount() == 0; }));
  }
}

TEST_CASE("Bad input is reported to its sender only, item by item", "[grpc]") {
  TestServer server;
  Admin admin(server.channel());
  StreamClient first(server.channel());
  StreamClient second(server.channel());
  REQUIRE(first.waitWelcome() != 0);
  REQUIRE(second.waitWelcome() != 0);

  SECTION("Should name item, field and seq of each error and still apply the valid item") {
    v1::WorldUpdate update;
    update.set_seq(11);
    setVec(addEntity(update, 100, v1::ENTITY_KIND_NPC, 0.f, 0.f, "villager")->mutable_position(),
           std::numeric_limits<float>::quiet_NaN(), 0.f, 0.f);
    addEntity(update, 101, v1::ENTITY_KIND_NPC, 0.f, 0.f, "nope");
    addEntity(update, 0, v1::ENTITY_KIND_NPC, 0.f, 0.f, "villager");
    addEntity(update, 102, v1::ENTITY_KIND_NPC, 5.f, 5.f, "villager");
    v1::ActionResult* r = update.add_results();
    r->set_agent(999);
    r->set_intention(1);
    REQUIRE(first.send(update));

    // Checked by the adapter before the simulation sees the update:
    CHECK(first.waitError(11, "upserts[0] (id 100).position: must be finite"));
    CHECK(first.waitError(11, "upserts[2]: id must not be 0"));
    // Checked by the simulation, routed back to this client with the same seq:
    CHECK(first.waitError(11, "entity 101: archetype \"nope\" is unknown"));
    CHECK(first.waitError(11, "action result: entity 999 is not an agent"));

    std::string json;
    REQUIRE(admin.get(102, &json).ok());
    CHECK(nlohmann::json::parse(json).at("archetype").get<std::string>() == "villager");
    CHECK(admin.get(100).error_code() == grpc::StatusCode::NOT_FOUND);

    // The second client's own error comes after the first client's ones were published;
    // its stream is ordered, so had it been sent those, they would be here already.
    v1::WorldUpdate other;
    other.set_seq(500);
    other.add_removals(0);
    REQUIRE(second.send(other));
    REQUIRE(second.waitError(500, "removals[0]: id must not be 0"));
    int leaked = 0;
    for (const auto& m : second.messages()) {
      for (const auto& e : m.events()) leaked += e.kind() == v1::EVENT_KIND_ERROR && e.seq() == 11;
    }
    CHECK(leaked == 0);
  }

  SECTION("Should refuse an update with too many items as a whole") {
    v1::WorldUpdate update;
    update.set_seq(12);
    for (int i = 0; i < 10001; ++i) update.add_removals(1000 + i);
    REQUIRE(first.send(update));

    CHECK(first.waitError(
        12, "update: 10001 items exceed the limit of 10000 per update; nothing was applied"));
  }
}

TEST_CASE("Admin calls are answered from the tick thread", "[grpc]") {
  TestServer server;
  Admin admin(server.channel());

  SECTION("Should spawn once, refuse a duplicate, and describe the agent as JSON") {
    v1::SpawnAgentReply reply;
    grpc::Status first = admin.spawn(200, "villager", v1::ENTITY_KIND_UNSPECIFIED, &reply);
    REQUIRE(first.ok());
    CHECK(reply.id() == 200);

    grpc::Status again = admin.spawn(200, "villager", v1::ENTITY_KIND_NPC);
    CHECK(again.error_code() == grpc::StatusCode::ALREADY_EXISTS);
    CHECK(again.error_message() == "entity 200: already exists");

    std::string json;
    REQUIRE(admin.get(200, &json).ok());
    const auto view = nlohmann::json::parse(json);
    CHECK(view.at("id").get<uint64_t>() == 200);
    CHECK(view.at("archetype").get<std::string>() == "villager");
    REQUIRE(view.at("position").size() == 3);
    CHECK(view.at("position")[0].get<double>() == Approx(7.0));
    CHECK(view.at("position")[1].get<double>() == Approx(8.0));
    CHECK(view.at("owner").get<uint64_t>() == kUnownedRaw);  // admin agents belong to no client
  }

  SECTION("Should map core errors to gRPC codes") {
    grpc::Status gone = admin.despawn(12345);
    CHECK(gone.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(gone.error_message() == "entity 12345: no such agent");
    CHECK(admin.get(12345).error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(admin.spawn(201, "nope", v1::ENTITY_KIND_NPC).error_code() ==
          grpc::StatusCode::INVALID_ARGUMENT);
  }

  SECTION("Should validate before queuing anything") {
    grpc::Status player = admin.spawn(202, "villager", v1::ENTITY_KIND_PLAYER);
    CHECK(player.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(player.error_message() == "agent.kind: must be ENTITY_KIND_NPC or unset");
    grpc::Status no_archetype = admin.spawn(203, "", v1::ENTITY_KIND_NPC);
    CHECK(no_archetype.error_message() == "agent.archetype: is required");
    CHECK(admin.despawn(0).error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  }

  SECTION("Should despawn an existing agent") {
    REQUIRE(admin.spawn(204, "statue", v1::ENTITY_KIND_NPC).ok());
    CHECK(admin.despawn(204).ok());
    CHECK(admin.get(204).error_code() == grpc::StatusCode::NOT_FOUND);
  }

  SECTION("Should report stats with the hub's client count") {
    StreamClient client(server.channel());
    REQUIRE(client.waitWelcome() != 0);
    REQUIRE(admin.spawn(205, "statue", v1::ENTITY_KIND_NPC).ok());
    v1::Stats stats;
    REQUIRE(eventually([&] { return admin.stats(&stats).ok() && stats.agents() == 1; }));
    CHECK(stats.clients() == 1);
    CHECK(stats.clients_dropped() == 0);
    CHECK(stats.tick() > 0);
    CHECK(stats.places() == 1);
  }
}

TEST_CASE("An oversized message ends only its own stream", "[grpc]") {
  ServerSetup setup;
  setup.max_receive_bytes = 64 * 1024;
  TestServer server(setup);
  StreamClient big(server.channel());
  StreamClient other(server.channel());
  REQUIRE(big.waitWelcome() != 0);
  REQUIRE(other.waitWelcome() != 0);

  SECTION("Should end that stream with RESOURCE_EXHAUSTED and keep serving the other") {
    v1::WorldUpdate update;
    update.set_seq(1);
    update.add_signals()->set_name(std::string(100 * 1024, 'x'));
    big.send(update);  // may already fail: the server is allowed to reset the stream early

    auto status = big.waitDone();
    REQUIRE(status);
    CHECK(status->error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED);
    CHECK(eventually([&] { return server.hub().clientCount() == 1; }));

    v1::WorldUpdate small;
    small.set_seq(2);
    small.add_removals(0);
    REQUIRE(other.send(small));
    CHECK(other.waitError(2, "removals[0]: id must not be 0"));
  }
}

TEST_CASE("A client that vanishes releases its agents and leaves the others alone", "[grpc]") {
  TestServer server;
  Admin admin(server.channel());
  StreamClient stays(server.channel());
  REQUIRE(stays.waitWelcome() != 0);

  SECTION("Should drop the client count and hand its agents to nobody") {
    auto vanishing = std::make_unique<StreamClient>(server.channel());
    const uint32_t id = vanishing->waitWelcome();
    REQUIRE(id != 0);
    REQUIRE(server.hub().clientCount() == 2);
    v1::WorldUpdate update;
    update.set_seq(1);
    addEntity(update, 300, v1::ENTITY_KIND_NPC, 1.f, 1.f, "statue");
    REQUIRE(vanishing->send(update));
    REQUIRE(eventually([&] { return admin.owner(300) == id; }));

    vanishing->vanish();
    vanishing.reset();

    CHECK(eventually([&] { return server.hub().clientCount() == 1; }));
    CHECK(eventually([&] { return admin.owner(300) == kUnownedRaw; }));
    v1::WorldUpdate bad;
    bad.set_seq(2);
    bad.add_removals(0);
    REQUIRE(stays.send(bad));
    CHECK(stays.waitError(2, "removals[0]: id must not be 0"));
  }
}

TEST_CASE("A client that cannot keep up is dropped, the others keep receiving", "[grpc]") {
  ServerSetup setup;
  setup.limits.outbox_max_messages = 4;
  setup.tick_sleep = 5ms;
  TestServer server(setup);
  StreamClient slow(server.channel(), /*read=*/false);
  StreamClient noisy(server.channel());
  REQUIRE(noisy.waitWelcome() != 0);
  REQUIRE(eventually([&] { return server.hub().clientCount() == 2; }));

  SECTION("Should finish the slow stream with RESOURCE_EXHAUSTED and count it") {
    // The noisy client hears only its own errors; every agent it spawns and removes is
    // broadcast to the slow one, until the HTTP/2 window and then the outbox are full.
    v1::WorldUpdate quiet;
    quiet.set_seq(1);
    quiet.mutable_subscribe()->add_events(v1::EVENT_KIND_ERROR);
    REQUIRE(noisy.send(quiet));

    uint64_t seq = 2;
    uint64_t next_id = 1'000'000;
    const auto until = std::chrono::steady_clock::now() + 20s;
    while (server.hub().droppedCount() == 0 && std::chrono::steady_clock::now() < until) {
      v1::WorldUpdate churn;
      churn.set_seq(seq++);
      for (int i = 0; i < 1000; ++i) {
        addEntity(churn, next_id + i, v1::ENTITY_KIND_NPC, float(i % 100), float(i / 100),
                  "statue");
        if (next_id > 1'000'000) churn.add_removals(next_id - 1000 + i);
      }
      next_id += 1000;
      REQUIRE(noisy.send(churn));
      // Pace on the simulation, not the clock: one update per tick however slow ticks are.
      eventually([&] { return server.sim().queuedCommands() == 0; });
    }

    REQUIRE(server.hub().droppedCount() == 1);
    CHECK(eventually([&] { return server.hub().clientCount() == 1; }));

    v1::WorldUpdate bad;
    bad.set_seq(seq);
    bad.add_removals(0);
    REQUIRE(noisy.send(bad));
    CHECK(noisy.waitError(seq, "removals[0]: id must not be 0"));

    grpc::Status status = slow.readToEnd();
    CHECK(status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED);
    CHECK_THAT(status.error_message(),
               Catch::Matches("client [0-9]+ too slow: outbox exceeded 4 messages"));
  }
}

TEST_CASE("Reads pause while the simulation's queue is over its bound", "[grpc]") {
  ServerSetup setup;
  setup.limits.max_inbox_commands = 10;
  TestServer server(setup);
  StreamClient client(server.channel());
  REQUIRE(client.waitWelcome() != 0);

  SECTION("Should not read the next update until a tick has drained the queue") {
    server.pauseTicks(true);
    v1::WorldUpdate flood;
    flood.set_seq(1);
    for (int i = 0; i < 20; ++i) flood.add_removals(5000 + i);
    REQUIRE(client.send(flood));
    REQUIRE(eventually([&] { return server.sim().queuedCommands() == 20; }));

    v1::WorldUpdate next;
    next.set_seq(2);
    next.add_removals(6000);
    next.add_removals(0);
    REQUIRE(client.send(next));
    std::this_thread::sleep_for(200ms);  // time enough to read it, were reads not paused
    CHECK(server.sim().queuedCommands() == 20);

    server.pauseTicks(false);
    CHECK(client.waitError(2, "removals[1]: id must not be 0"));
    CHECK(client.waitError(2, "entity 6000: unknown"));
  }
}

TEST_CASE("Draining ends every stream and refuses new ones", "[grpc]") {
  TestServer server;
  StreamClient client(server.channel());
  REQUIRE(client.waitWelcome() != 0);

  SECTION("Should finish open streams and new ones with UNAVAILABLE") {
    server.hub().drain();

    auto status = client.waitDone();
    REQUIRE(status);
    CHECK(status->error_code() == grpc::StatusCode::UNAVAILABLE);
    CHECK(status->error_message() == "npcd is shutting down");

    StreamClient late(server.channel());
    auto late_status = late.waitDone();
    REQUIRE(late_status);
    CHECK(late_status->error_code() == grpc::StatusCode::UNAVAILABLE);
    CHECK(late.messages().empty());
    CHECK(eventually([&] { return server.hub().clientCount() == 0; }));
  }
}

TEST_CASE("The standard health service reports SERVING", "[grpc]") {
  TestServer server;

  SECTION("Should answer grpc.health.v1.Health/Check with SERVING") {
    grpc::GenericStub stub(server.channel());
    grpc::ClientContext ctx;
    ctx.set_deadline(deadlineIn(5s));
    grpc::Slice empty("");
    grpc::ByteBuffer request(&empty, 1);  // HealthCheckRequest{service: ""} is zero bytes
    grpc::ByteBuffer response;
    std::promise<grpc::Status> done;
    stub.UnaryCall(&ctx, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request,
                   &response, [&](grpc::Status s) { done.set_value(std::move(s)); });
    auto future = done.get_future();
    REQUIRE(future.wait_for(10s) == std::future_status::ready);
    REQUIRE(future.get().ok());

    std::vector<grpc::Slice> slices;
    REQUIRE(response.Dump(&slices).ok());
    std::string bytes;
    for (const auto& s : slices) bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
    // HealthCheckResponse{status = 1 (SERVING)}: field 1, varint -> 0x08 0x01.
    CHECK(bytes == std::string("\x08\x01", 2));
  }
}
