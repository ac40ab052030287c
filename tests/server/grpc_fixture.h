// The in-process gRPC fixture shared by the server's end-to-end tests: a Simulation ticked by
// a test thread, a ClientHub, an NpcService and a real gRPC server on 127.0.0.1, plus
// sync-stub clients (StreamClient for Connect, Admin for the unary calls). Every client call
// has a deadline and every wait has a timeout, so a bug fails a test instead of hanging it.
#pragma once

#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <catch2/catch.hpp>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <nlohmann/json.hpp>

#include "client_hub.h"
#include "config.h"
#include "npc/v1/npc.grpc.pb.h"
#include "npc_service.h"
#include "stats_board.h"

namespace npc::test {

using namespace std::chrono_literals;

inline constexpr auto kWait = 5s;  // how long a test waits for something that must happen
inline constexpr auto kStreamDeadline = 60s;  // backstop for a stream gone wrong
inline constexpr uint32_t kUnownedRaw = 0xfffffffeu;

inline std::chrono::system_clock::time_point deadlineIn(std::chrono::seconds s) {
  return std::chrono::system_clock::now() + s;
}

// Polls `condition` until it holds or `timeout` passes.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = kWait) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (condition()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return condition();
}

inline BehaviorDef behaviorDef(std::string name, BehaviorMode mode) {
  BehaviorDef def;
  def.name = std::move(name);
  def.mode = mode;
  return def;
}

// villager: sees 10 m, greets and wanders; statue: senses nothing and never acts.
inline ArchetypeSet testArchetypes() {
  ArchetypeSet set;
  Archetype villager;
  villager.name = "villager";
  villager.species = "human";
  villager.sensors.sight_range_m = 10.f;
  villager.behaviors.push_back(behaviorDef("Ambient", BehaviorMode::kAmbient));
  villager.behavior = "Ambient";
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
  statue.sensors.vision = false;  // perceives nothing, so never turns to face anything
  statue.sensors.hearing = false;
  statue.wander.radius_m = 0.f;
  set.add(statue);
  return set;
}

inline SimConfig testSimConfig() {
  SimConfig config;
  config.tick_dt_s = 0.05;
  return config;
}

struct ServerSetup {
  HubLimits limits;
  int max_receive_bytes = 0;  // 0: gRPC's default (4 MiB)
  std::chrono::milliseconds tick_sleep{2};
  ArchetypeSet archetypes = testArchetypes();
  // Selection trees loaded before the first tick, from a directory (which ReloadDefinitions
  // then re-reads) or from in-memory files. The load must succeed.
  std::string selection_tree_dir;
  std::vector<BstSourceFile> selection_trees;
  InfluenceSet influences;  // registered before the first tick; must all register
  // GOAP domains (path, JSON text) for archetypes with a "planner"; must load.
  std::vector<std::pair<std::string, std::string>> planner_domains;
  std::vector<ClientCredential> credentials;  // none: open, every caller an admin
  int handshake_timeout_ms = 0;  // 0: gRPC's default (120 s)
};

// Everything the daemon wires together, minus config: sim + hub + service + server, and a
// thread that runs tick() and publish() until the server goes away.
class TestServer {
 public:
  explicit TestServer(const ServerSetup& setup = {})
      : sim_(testSimConfig(), setup.archetypes),
        hub_(sim_, setup.limits),
        service_(hub_, stats_, AccessControl(setup.credentials)),
        tick_sleep_(setup.tick_sleep) {
    REQUIRE(sim_.world().addPlace("square", Aabb{{-100.f, -100.f, -10.f}, {100.f, 100.f, 10.f}}));
    REQUIRE(sim_.setInfluences(setup.influences).empty());
    if (!setup.selection_tree_dir.empty()) {
      sim_.setDefinitionSources({"", "", "", setup.selection_tree_dir});
      const DefinitionReport report = sim_.loadDefinitions(DefinitionLoad::kFirst);
      INFO(report.text());
      REQUIRE(report.ok());
    }
    if (!setup.selection_trees.empty()) {
      const DefinitionReport report = sim_.loadSelectionTrees(setup.selection_trees);
      INFO(report.text());
      REQUIRE(report.ok());
    }
    if (!setup.planner_domains.empty()) {
      const DefinitionReport report = sim_.loadPlannerDomains(setup.planner_domains);
      INFO(report.text());
      REQUIRE(report.ok());
    }
    grpc::EnableDefaultHealthCheckService(true);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(&service_);
    if (setup.max_receive_bytes > 0) builder.SetMaxReceiveMessageSize(setup.max_receive_bytes);
    if (setup.handshake_timeout_ms > 0) {
      builder.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS, setup.handshake_timeout_ms);
    }
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
  int port() const { return port_; }
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
  // `token`: sent as "authorization: Bearer <token>" when not empty.
  explicit StreamClient(std::shared_ptr<grpc::Channel> channel, bool read = true,
                        const std::string& token = {})
      : stub_(v1::NpcSim::NewStub(std::move(channel))) {
    context_.set_deadline(std::chrono::system_clock::now() + kStreamDeadline);
    if (!token.empty()) context_.AddMetadata("authorization", "Bearer " + token);
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

inline void setVec(v1::Vec3* v, float x, float y, float z) {
  v->set_x(x);
  v->set_y(y);
  v->set_z(z);
}

inline v1::Entity* addEntity(v1::WorldUpdate& u, uint64_t id, v1::EntityKind kind, float x,
                             float y, const std::string& archetype = {}) {
  v1::Entity* e = u.add_upserts();
  e->set_id(id);
  e->set_kind(kind);
  setVec(e->mutable_position(), x, y, 0.f);
  e->set_archetype(archetype);
  return e;
}

inline bool hasEntityParam(const v1::Action& a, const std::string& name, uint64_t entity) {
  for (const auto& p : a.params()) {
    if (p.name() == name && p.has_entity() && p.entity() == entity) return true;
  }
  return false;
}

// Sync unary calls with a deadline each.
struct Admin {
  // `token`: sent as "authorization: Bearer <token>" with every call when not empty.
  explicit Admin(const std::shared_ptr<grpc::Channel>& channel, std::string token = {})
      : stub(v1::NpcSim::NewStub(channel)), token(std::move(token)) {}

  // Any unary RPC: admin.call(&v1::NpcSim::Stub::SetSensors, request, &reply).
  template <class Request, class Reply>
  grpc::Status call(grpc::Status (v1::NpcSim::Stub::*rpc)(grpc::ClientContext*, const Request&,
                                                          Reply*),
                    const Request& request, Reply* reply) {
    grpc::ClientContext ctx;
    ctx.set_deadline(deadlineIn(5s));
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    return (stub.get()->*rpc)(&ctx, request, reply);
  }
  // The same when the reply does not matter.
  template <class Request, class Reply>
  grpc::Status call(grpc::Status (v1::NpcSim::Stub::*rpc)(grpc::ClientContext*, const Request&,
                                                          Reply*),
                    const Request& request) {
    Reply reply;
    return call(rpc, request, &reply);
  }

  grpc::Status spawn(uint64_t id, const std::string& archetype, v1::EntityKind kind,
                     v1::SpawnAgentResponse* reply = nullptr) {
    v1::SpawnAgentRequest req;
    req.mutable_agent()->set_id(id);
    req.mutable_agent()->set_kind(kind);
    req.mutable_agent()->set_archetype(archetype);
    setVec(req.mutable_agent()->mutable_position(), 7.f, 8.f, 0.f);
    v1::SpawnAgentResponse local;
    return call(&v1::NpcSim::Stub::SpawnAgent, req, reply ? reply : &local);
  }
  grpc::Status despawn(uint64_t id) {
    v1::DespawnAgentRequest req;
    req.set_id(id);
    return call(&v1::NpcSim::Stub::DespawnAgent, req);
  }
  grpc::Status get(uint64_t id, std::string* json = nullptr) {
    v1::GetAgentRequest req;
    req.set_id(id);
    v1::GetAgentResponse reply;
    grpc::Status s = call(&v1::NpcSim::Stub::GetAgent, req, &reply);
    if (json) *json = reply.json();
    return s;
  }
  // The agent's GetAgent view, or null if the call failed.
  nlohmann::json view(uint64_t id) {
    std::string json;
    return get(id, &json).ok() ? nlohmann::json::parse(json) : nlohmann::json();
  }
  grpc::Status stats(v1::GetStatsResponse* out) {
    return call(&v1::NpcSim::Stub::GetStats, v1::GetStatsRequest(), out);
  }
  // The agent's "owner" from GetAgent, or -1 if the call failed.
  int64_t owner(uint64_t id) {
    const nlohmann::json v = view(id);
    return v.is_null() ? -1 : v.at("owner").get<int64_t>();
  }

  std::unique_ptr<v1::NpcSim::Stub> stub;
  std::string token;
};

// A daemon config for in-process daemons: an empty world on an ephemeral loopback port, no
// status line, warnings only, a short shutdown.
inline DaemonConfig quietDaemonConfig() {
  DaemonConfig c;
  c.listen = "127.0.0.1:0";
  c.status_interval_s = 0;
  c.log_level = "warn";
  c.shutdown_grace_s = 1;
  return c;
}

// Opens `count` TCP connections to `port` that never send a byte (no HTTP/2 preface) and
// returns how many the server closed within `within`.
inline size_t idleConnectionsClosed(int port, size_t count, std::chrono::milliseconds within) {
  boost::asio::io_context io;
  const boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::make_address("127.0.0.1"),
                                                static_cast<unsigned short>(port));
  std::vector<boost::asio::ip::tcp::socket> idle;
  for (size_t i = 0; i < count; ++i) idle.emplace_back(io).connect(endpoint);
  const auto until = std::chrono::steady_clock::now() + within;
  // A closed connection reads end-of-file (or a reset); one still open has nothing to read.
  std::vector<pollfd> fds;
  for (auto& s : idle) fds.push_back({s.native_handle(), POLLIN, 0});
  size_t closed = 0;
  while (closed < fds.size() && std::chrono::steady_clock::now() < until) {
    ::poll(fds.data(), fds.size(), 20);
    for (pollfd& fd : fds) {
      if (fd.events == 0 || fd.revents == 0) continue;
      char byte;
      if (::recv(fd.fd, &byte, 1, MSG_DONTWAIT) <= 0) {
        fd.events = 0;  // done with it
        ++closed;
      }
    }
  }
  return closed;
}

}  // namespace npc::test
