// Reload under load, end to end: the whole daemon (the demo's config copied to a temporary
// directory, plus "courier", a villager that hardly pauses between walks) serves several
// game clients that stream world updates and play their NPCs' actions without pause, while
// ReloadDefinitions swaps good definition sets in and refuses a broken selection tree and a
// broken behavior tree. No stream may break, no client may see an error event, actions must
// keep arriving throughout, and a refused set must leave the loaded one running.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>

#include "daemon.h"
#include "grpc_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

namespace fs = std::filesystem;
using Stub = v1::NpcSim::Stub;

constexpr int kClients = 4;
constexpr uint64_t kNpcsPerClient = 6;
constexpr auto kFlowWait = 20s;  // backstop: how long a client may wait for a few actions
constexpr auto kUpdatePeriod = 20ms;

// The demo's config directory, copied where the test may break and repair definitions.
class ConfigCopy {
 public:
  ConfigCopy()
      : dir_(fs::temp_directory_path() / ("npcd-reload-test-" + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    fs::copy(NPCD_SOURCE_DIR "/config", dir_, fs::copy_options::recursive);
    addCourier();
  }
  ~ConfigCopy() { fs::remove_all(dir_); }

  std::string path(const std::string& relative) const { return (dir_ / relative).string(); }
  std::string read(const std::string& relative) const {
    std::ifstream in(dir_ / relative);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  void write(const std::string& relative, const std::string& text) const {
    std::ofstream(dir_ / relative) << text;
  }

 private:
  // The demo's villager (Villager selection tree, VillagerChase behavior tree) with short
  // pauses, so every client gets a steady flow of actions to play.
  void addCourier() const {
    const nlohmann::json village = nlohmann::json::parse(read("archetypes/village.json"));
    nlohmann::json courier = village.at("villager");
    courier["wander"]["pause_s"] = {0.1, 0.3};
    write("archetypes/courier.json", nlohmann::json{{"courier", courier}}.dump(2));
  }

  fs::path dir_;
};

DaemonConfig reloadConfig(const ConfigCopy& copy) {
  DaemonConfig c;
  std::vector<std::string> errors;
  REQUIRE(loadConfigFile(copy.path("npcd.json"), c, errors));
  c.listen = "127.0.0.1:0";
  c.metrics_listen.clear();
  c.tick_hz = 20;
  c.status_interval_s = 0;
  c.definitions_poll_s = 0;  // only ReloadDefinitions reloads: the test decides when
  c.log_level = "warn";
  c.shutdown_grace_s = 1;
  return c;
}

// One game client: a Connect stream that owns kNpcsPerClient couriers and a player walking
// a circle among them. A writer sends a WorldUpdate every kUpdatePeriod (the player a step
// further, and COMPLETED for every action received since the last update), as a game does;
// a reader counts this client's actions and keeps every error event.
class GameClient {
 public:
  GameClient(const std::shared_ptr<grpc::Channel>& channel, int index)
      : stub_(v1::NpcSim::NewStub(channel)),
        first_id_(10000 + 100 * static_cast<uint64_t>(index)),
        center_y_(-30.f + 20.f * static_cast<float>(index)) {
    context_.set_deadline(deadlineIn(std::chrono::seconds(300)));
    stream_ = stub_->Connect(&context_);
    reader_ = std::thread([this] { readLoop(); });
    writer_ = std::thread([this] { writeLoop(); });
  }
  ~GameClient() {
    stopWriting();
    context_.TryCancel();
    reader_.join();
  }

  void stopWriting() {
    stop_ = true;
    if (writer_.joinable()) writer_.join();
  }
  uint64_t firstNpc() const { return first_id_; }
  uint64_t actions() const {
    std::lock_guard lock(mutex_);
    return actions_;
  }
  std::vector<std::string> errors() const {
    std::lock_guard lock(mutex_);
    return errors_;
  }
  bool ended() const {
    std::lock_guard lock(mutex_);
    return ended_;
  }
  grpc::Status status() const {
    std::lock_guard lock(mutex_);
    return status_;
  }

 private:
  bool ownsAgent(uint64_t id) const { return id >= first_id_ && id < first_id_ + kNpcsPerClient; }

  void readLoop() {
    v1::ServerMessage message;
    while (stream_->Read(&message)) {
      std::lock_guard lock(mutex_);
      for (const auto& action : message.actions()) {
        if (!ownsAgent(action.agent())) continue;
        ++actions_;
        to_complete_.push_back(action);
      }
      for (const auto& event : message.events()) {
        if (event.kind() == v1::EVENT_KIND_ERROR) {
          errors_.push_back("seq " + std::to_string(event.seq()) + ": " + event.text());
        }
      }
    }
    grpc::Status status;
    {
      std::lock_guard lock(write_mutex_);
      finished_ = true;
      status = stream_->Finish();
    }
    std::lock_guard lock(mutex_);
    status_ = status;
    ended_ = true;
  }

  void writeLoop() {
    for (uint64_t seq = 1; !stop_; ++seq) {
      const v1::WorldUpdate update = nextUpdate(seq);
      {
        std::lock_guard lock(write_mutex_);
        if (finished_ || !stream_->Write(update)) return;  // the stream ended: ended() tells
      }
      std::this_thread::sleep_for(kUpdatePeriod);
    }
  }

  v1::WorldUpdate nextUpdate(uint64_t seq) {
    v1::WorldUpdate u;
    u.set_seq(seq);
    if (seq == 1) {
      u.mutable_subscribe()->add_events(v1::EVENT_KIND_ERROR);
      for (uint64_t i = 0; i < kNpcsPerClient; ++i) {
        addEntity(u, first_id_ + i, v1::ENTITY_KIND_NPC, -80.f + 3.f * static_cast<float>(i),
                  center_y_, "courier");
      }
    }
    // 1.5 m/s on a 6 m circle around the couriers: in and out of their sight.
    const float angle = static_cast<float>(seq) * 0.005f;
    addEntity(u, first_id_ + 50, v1::ENTITY_KIND_PLAYER, -72.5f + 6.f * std::cos(angle),
              center_y_ + 6.f * std::sin(angle));
    std::lock_guard lock(mutex_);
    for (const auto& action : to_complete_) {
      v1::ActionResult* r = u.add_results();
      r->set_agent(action.agent());
      r->set_intention(action.intention());
      r->set_outcome(v1::ActionResult::OUTCOME_COMPLETED);
    }
    to_complete_.clear();
    return u;
  }

  std::unique_ptr<v1::NpcSim::Stub> stub_;
  const uint64_t first_id_;
  const float center_y_;
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::WorldUpdate, v1::ServerMessage>> stream_;
  std::atomic<bool> stop_{false};
  std::mutex write_mutex_;  // Write and Finish never overlap
  bool finished_ = false;   // guarded by write_mutex_

  mutable std::mutex mutex_;
  uint64_t actions_ = 0;                 // guarded by mutex_
  std::vector<v1::Action> to_complete_;  // guarded by mutex_
  std::vector<std::string> errors_;      // guarded by mutex_
  bool ended_ = false;                   // guarded by mutex_
  grpc::Status status_;                  // guarded by mutex_
  std::thread reader_;
  std::thread writer_;
};

using Clients = std::vector<std::unique_ptr<GameClient>>;

std::vector<uint64_t> actionCounts(const Clients& clients) {
  std::vector<uint64_t> counts;
  for (const auto& c : clients) counts.push_back(c->actions());
  return counts;
}

// True once every client has received `more` actions beyond `since`.
bool everyClientGot(const Clients& clients, const std::vector<uint64_t>& since, uint64_t more) {
  for (size_t i = 0; i < clients.size(); ++i) {
    if (clients[i]->actions() < since[i] + more) return false;
  }
  return true;
}

bool actionsKeepFlowing(const Clients& clients, uint64_t more = 5) {
  const std::vector<uint64_t> since = actionCounts(clients);
  return eventually([&] { return everyClientGot(clients, since, more); }, kFlowWait);
}

grpc::Status reload(Admin& admin) {
  v1::ReloadDefinitionsResponse reply;
  return admin.call(&Stub::ReloadDefinitions, v1::ReloadDefinitionsRequest(), &reply);
}

grpc::Status setVariable(Admin& admin, uint64_t agent, const std::string& name) {
  v1::SetBehaviorVariableRequest r;
  r.set_agent(agent);
  r.set_name(name);
  r.set_value(true);
  return admin.call(&Stub::SetBehaviorVariable, r);
}

// `text` with `from` (which must occur) replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// The 1-based line of `needle` in `text`.
std::string lineOf(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return std::to_string(1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

}  // namespace

TEST_CASE("Definitions reload under load without disturbing the clients", "[grpc][daemon][reload]") {
  ConfigCopy config;
  Daemon daemon(reloadConfig(config));
  std::vector<std::string> start_errors;
  REQUIRE(daemon.start(start_errors));
  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(daemon.port()),
                                     grpc::InsecureChannelCredentials());
  Admin admin(channel);
  Clients clients;
  for (int i = 0; i < kClients; ++i) clients.push_back(std::make_unique<GameClient>(channel, i));
  const uint64_t courier = clients.front()->firstNpc();
  REQUIRE(actionsKeepFlowing(clients));

  const std::string villager = config.read("selection_trees/Villager.xml");
  const std::string chase = config.read("behavior_trees/VillagerChase.xml");
  // A good set that differs from the original: the tree gains a variable no leaf uses.
  const std::string marked =
      replaced(villager, "</Variables>", "  <Variable name=\"ReloadMarker\"/>\n  </Variables>");

  // Good sets alternate while the clients play, until every client got actions meanwhile.
  const std::vector<uint64_t> before = actionCounts(clients);
  const auto until = std::chrono::steady_clock::now() + kFlowWait;
  int reloads = 0;
  while (reloads < 10 || !everyClientGot(clients, before, 5)) {
    REQUIRE(std::chrono::steady_clock::now() < until);
    config.write("selection_trees/Villager.xml", reloads % 2 == 0 ? marked : villager);
    const grpc::Status s = reload(admin);
    INFO("reload " << reloads << ": " << s.error_message());
    REQUIRE(s.ok());
    ++reloads;
    std::this_thread::sleep_for(50ms);
  }
  config.write("selection_trees/Villager.xml", marked);
  REQUIRE(reload(admin).ok());
  REQUIRE(setVariable(admin, courier, "ReloadMarker").ok());  // running agents use the new set

  // A broken selection tree is refused, naming file:line; the loaded set keeps running.
  const std::string broken_bst =
      replaced(marked, "condition=\"SeesSomeone\"", "condition=\"SeesSomeone and Missing\"");
  config.write("selection_trees/Villager.xml", broken_bst);
  grpc::Status refused = reload(admin);
  CHECK(refused.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  CHECK_THAT(refused.error_message(),
             Catch::Contains("Villager.xml:" + lineOf(broken_bst, "Missing") + ": ") &&
                 Catch::Contains("unknown variable \"Missing\""));
  CHECK(setVariable(admin, courier, "ReloadMarker").ok());
  CHECK(actionsKeepFlowing(clients));

  // The same for a broken behavior tree (VillagerChase runs the couriers' greetings).
  config.write("selection_trees/Villager.xml", marked);
  const std::string broken_mbt = replaced(chase, "<Move to=\"Target\" ", "<Move ");
  config.write("behavior_trees/VillagerChase.xml", broken_mbt);
  refused = reload(admin);
  CHECK(refused.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  CHECK_THAT(refused.error_message(),
             Catch::Contains("VillagerChase.xml:" + lineOf(broken_mbt, "<Move ") +
                             ": <Move> needs attribute \"to\""));
  CHECK(setVariable(admin, courier, "ReloadMarker").ok());
  CHECK(actionsKeepFlowing(clients));

  // Repaired: the original files load again and replace the marked set.
  config.write("selection_trees/Villager.xml", villager);
  config.write("behavior_trees/VillagerChase.xml", chase);
  REQUIRE(reload(admin).ok());
  CHECK(setVariable(admin, courier, "ReloadMarker").error_code() == grpc::StatusCode::NOT_FOUND);
  CHECK(actionsKeepFlowing(clients));

  for (const auto& client : clients) {
    INFO("client with NPCs from " << client->firstNpc());
    CHECK_FALSE(client->ended());
    CHECK(client->errors() == std::vector<std::string>{});
  }
  // Shutdown, as documented, ends every stream with UNAVAILABLE.
  for (const auto& client : clients) client->stopWriting();
  daemon.shutdown();
  for (const auto& client : clients) {
    REQUIRE(eventually([&] { return client->ended(); }));
    CHECK(client->status().error_code() == grpc::StatusCode::UNAVAILABLE);
  }
}
