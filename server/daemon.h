// Daemon: wires config, definitions, the simulation, the gRPC server and the tick thread
// together, and takes them down gracefully. main() is a thin shell around it; tests start
// whole daemons in-process on an ephemeral port ("127.0.0.1:0").
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "config.h"
#include "stats_board.h"

namespace grpc {
class Server;
}

namespace npc {

class ClientHub;
class ClusterNode;
class ConfigReload;
class DebugPage;
class DemoGame;
class InputJournal;
class Metrics;
class NpcService;
class Simulation;
class SnapshotWriter;
class TickDriver;
class TickWatchdog;

class Daemon {
 public:
  explicit Daemon(DaemonConfig config);
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Loads archetypes and the world, starts serving and ticking. Returns false with every
  // problem in `errors` (nothing is left running then).
  bool start(std::vector<std::string>& errors);
  // The TCP port actually bound (useful with port 0). 0 before start().
  int port() const { return port_; }
  // The Prometheus port actually bound; 0 when metrics are off.
  int metricsPort() const;
  // The debug page's port; 0 when debug_listen is off.
  int debugPort() const;

  // Graceful stop, idempotent, from any thread but the tick thread: health turns
  // NOT_SERVING, streams end with UNAVAILABLE, in-flight RPCs get shutdown_grace_s, the
  // tick in progress finishes, the tick thread is joined.
  void shutdown();

  // Where the tick thread is now, in words (for the bounded shutdown's last log line).
  std::string whereIsTheTick() const;

  // Reads the config file again at the next tick (SIGHUP), as its poll would: perception
  // tuning changes live, other changed keys are logged as needing a restart.
  void requestConfigReload();

  const StatsBoard& stats() const { return stats_; }
  const DaemonConfig& config() const { return config_; }
  // The cluster side (leases in Redis); null when running alone.
  const ClusterNode* cluster() const { return cluster_.get(); }

 private:
  void reloadDefinitionsIfChanged();  // tick thread, every definitions_poll_s
  void reloadConfigIfChanged();       // tick thread: that poll, or after requestConfigReload
  bool startJournal(const std::string& definitions_hash, const struct RestoredFrom& restored,
                    std::vector<std::string>& errors);

  DaemonConfig config_;
  StatsBoard stats_;
  // Before sim_: answers still queued in the simulation refer to its connections.
  std::unique_ptr<DebugPage> debug_;
  std::unique_ptr<Simulation> sim_;
  std::unique_ptr<DemoGame> demo_;
  std::unique_ptr<Metrics> metrics_;
  std::unique_ptr<ClientHub> hub_;
  std::unique_ptr<NpcService> service_;
  std::unique_ptr<grpc::Server> server_;
  boost::asio::io_context io_;
  std::unique_ptr<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::unique_ptr<TickDriver> driver_;
  std::unique_ptr<TickWatchdog> watchdog_;  // declared after sim_: watches its profile
  std::unique_ptr<SnapshotWriter> snapshots_;  // null when snapshot.dir is not set
  std::unique_ptr<InputJournal> journal_;      // null without snapshots or with journal off
  std::unique_ptr<ConfigReload> config_reload_;  // null when the config is not a file
  std::unique_ptr<ClusterNode> cluster_;          // null without a "cluster" section
  std::atomic<bool> config_reload_requested_{false};
  std::thread tick_thread_;
  std::vector<Command> demo_commands_;  // tick thread scratch, capacity reused
  int port_ = 0;
  bool started_ = false;
  bool stopped_ = false;
};

}  // namespace npc
