#include "daemon.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <future>

#include <boost/asio/post.hpp>
#include <grpcpp/grpcpp.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include "base/thread_name.h"
#include "base/worker_pool.h"
#include "build_info.h"
#include "client_hub.h"
#include "cluster/cluster_node.h"
#include "config_reload.h"
#include "debug/debug_page.h"
#include "input_journal.h"
#include "demo/demo_game.h"
#include "logging.h"
#include "metrics.h"
#include "npc_service.h"
#include "rpc_observer.h"
#include "sim/simulation.h"
#include "sim/world_file.h"
#include "sim_builder.h"
#include "snapshot_restore.h"
#include "snapshot_writer.h"
#include "state_checksum.h"
#include "tick_driver.h"
#include "tick_watchdog.h"

namespace npc {

namespace {

bool isLoopback(const std::string& listen) {
  const auto colon = listen.rfind(':');
  std::string host = listen.substr(0, colon == std::string::npos ? listen.size() : colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

bool readFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// Plaintext, or TLS when a certificate and key are configured; with tls_client_auth,
// client certificates are verified against tls_client_ca (gRPC's own TLS).
std::shared_ptr<grpc::ServerCredentials> credentials(const DaemonConfig& c,
                                                     std::vector<std::string>& errors) {
  if (c.tls_cert.empty()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  if (!readFile(c.tls_cert, pair.cert_chain)) errors.push_back(c.tls_cert + ": cannot read tls_cert");
  if (!readFile(c.tls_key, pair.private_key)) errors.push_back(c.tls_key + ": cannot read tls_key");
  grpc_ssl_client_certificate_request_type request = GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE;
  if (c.tls_client_auth == "request") {
    request = GRPC_SSL_REQUEST_CLIENT_CERTIFICATE_AND_VERIFY;
  } else if (c.tls_client_auth == "require") {
    request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  grpc::SslServerCredentialsOptions options(request);
  if (!c.tls_client_ca.empty() && !readFile(c.tls_client_ca, options.pem_root_certs)) {
    errors.push_back(c.tls_client_ca + ": cannot read tls_client_ca");
  }
  options.pem_key_cert_pairs.push_back(pair);
  return grpc::SslServerCredentials(options);
}

// The configured credentials; the legacy auth_token is one more, an anonymous admin.
AccessControl accessControl(const DaemonConfig& c) {
  std::vector<ClientCredential> credentials = c.clients;
  if (!c.auth_token.empty()) credentials.push_back({"", c.auth_token, "", Role::kAdmin});
  return AccessControl(std::move(credentials));
}

// The access log's line for one call; the client is the credential's name ("-" for a call
// without a valid credential, "anonymous" for the shared token or an open daemon).
std::string accessLine(const RpcRecord& r, const AccessControl& access) {
  std::string client = "-";
  std::string peer = "-";
  if (r.context != nullptr) {
    if (const ClientCredential* c = access.identify(*r.context)) {
      client = c->name.empty() ? "anonymous" : c->name;
    }
    peer = r.context->peer();
  }
  return logEvent("rpc", accessLogLine(r, client, peer),
                  {{"method", r.method},
                   {"client", client},
                   {"peer", peer},
                   {"code", statusCodeName(r.code)},
                   {"ms", r.seconds * 1000.0}});
}

int milliseconds(double seconds) {
  return static_cast<int>(std::min(seconds * 1000.0, 2.0e9));
}

// Bounds on what a connection may hold or how long it may idle (README.md "Security").
void limitConnections(const DaemonConfig& c, grpc::ServerBuilder& builder) {
  // Without this gRPC sets SO_REUSEPORT, and a second daemon on a busy port would start and
  // share it, each receiving some of the calls.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // Also the deadline for the client's HTTP/2 preface and SETTINGS: a connection that sends
  // nothing is closed after it.
  builder.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS,
                             milliseconds(c.handshake_timeout_s));
  if (c.max_connection_idle_s > 0.0) {
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS,
                               milliseconds(c.max_connection_idle_s));
  }
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, milliseconds(c.keepalive_s));
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 20000);
  grpc::ResourceQuota quota("npcd");
  quota.Resize(static_cast<size_t>(c.max_memory_mb) << 20);
  builder.SetResourceQuota(quota);
}

}  // namespace

Daemon::Daemon(DaemonConfig config) : config_(std::move(config)) {}

Daemon::~Daemon() { shutdown(); }

// The journal goes on in the file the restore replayed last, or starts with a snapshot of
// the state now: a journal is only worth something after a snapshot.
bool Daemon::startJournal(const std::string& definitions_hash, const RestoredFrom& restored,
                          std::vector<std::string>& errors) {
  journal_ = std::make_unique<InputJournal>(config_.snapshot, definitions_hash, config_.seed);
  std::string error;
  if (restored.journal_bytes > 0) {
    if (!journal_->attach(*sim_, restored.journal_after, restored.journal_bytes, error)) {
      errors.push_back("input journal: " + error);
      return false;
    }
  } else {
    const SnapshotResult first = snapshots_->takeNow(*sim_);
    if (!first.status.isOk()) {
      errors.push_back("snapshot at start: " + first.status.message());
      return false;
    }
    if (!journal_->attach(*sim_, first.tick, 0, error)) {
      errors.push_back("input journal: " + error);
      return false;
    }
  }
  snapshots_->setOnCapture([this](uint64_t tick) { journal_->snapshotCaptured(tick); });
  return true;
}

bool Daemon::start(std::vector<std::string>& errors) {
  if (config_.auth_token.empty() && config_.clients.empty() && !isLoopback(config_.listen)) {
    errors.push_back("listening on " + config_.listen +
                     " beyond loopback needs auth_token (config) or NPCD_AUTH_TOKEN (env)");
    return false;
  }
  if (!config_.debug_listen.empty() && config_.auth_token.empty() && config_.clients.empty() &&
      !isLoopback(config_.debug_listen)) {
    errors.push_back("debug_listen " + config_.debug_listen +
                     " beyond loopback needs auth_token (config), NPCD_AUTH_TOKEN (env) or "
                     "clients");
    return false;
  }
  const auto creds = credentials(config_, errors);
  if (!errors.empty()) return false;
  WorldFile world;
  if (!buildSimulation(config_, sim_, world, errors)) return false;
  if (const char* stall = std::getenv("NPCD_FAULT_STALL_AGENT")) {
    // Fault injection for tests of the watchdog and of the bounded shutdown: the tick
    // blocks for good when it reaches this agent.
    const EntityId agent{std::strtoull(stall, nullptr, 10)};
    spdlog::warn(logText("NPCD_FAULT_STALL_AGENT: the tick will hang at agent " +
                         std::to_string(raw(agent))));
    sim_->profile().setStallHook(agent, [] {
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    });
  }
  sim_->setTreeLogSink([](const MbtLogMessage& m) {
    spdlog::debug(logText("agent " + std::to_string(raw(m.agent)) + " " + std::string(m.tree) +
                          ": " + std::string(m.text)));
  });
  const std::string definitions_hash =
      config_.snapshot.dir.empty() && config_.snapshot.restore.empty()
          ? std::string()
          : configDefinitionsHash(config_);
  RestoredFrom restored;
  if (!config_.snapshot.restore.empty() &&
      !restoreFromSnapshot(config_, definitions_hash, *sim_, restored, errors)) {
    return false;
  }
  if (!config_.snapshot.dir.empty()) {
    snapshots_ = std::make_unique<SnapshotWriter>(config_.snapshot, definitions_hash, config_.seed);
    if (config_.snapshot.journal && !startJournal(definitions_hash, restored, errors)) return false;
  }
  if (config_.simulated_players) demo_ = std::make_unique<DemoGame>(world.players);

  if (!config_.metrics_listen.empty()) {
    std::string error;
    metrics_ = std::make_unique<Metrics>(config_.metrics_listen, error);
    if (!error.empty()) {
      errors.push_back(error);
      return false;
    }
  }

  if (!config_.debug_listen.empty()) {
    debug_ = std::make_unique<DebugPage>(*sim_, stats_, accessControl(config_));
    std::string error;
    if (!debug_->start(config_.debug_listen, error)) {
      errors.push_back(error);
      return false;
    }
  }

  HubLimits limits;
  limits.outbox_max_messages = config_.outbox_max_messages;
  limits.max_items_per_update = config_.max_items_per_update;
  limits.max_inbox_commands = config_.max_inbox_commands;
  limits.max_updates_per_s = config_.max_updates_per_s;
  limits.max_clients = config_.max_clients;
  hub_ = std::make_unique<ClientHub>(*sim_, limits);
  service_ = std::make_unique<NpcService>(*hub_, stats_, accessControl(config_));
  if (snapshots_) {
    service_->setSnapshotRequests(
        [this](SnapshotWriter::Done done) { snapshots_->request(std::move(done)); });
  }

  grpc::EnableDefaultHealthCheckService(true);
  // Lets grpcurl-style tools list and call the API (grpc.reflection.v1alpha in gRPC 1.51).
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(config_.listen, creds, &port_);
  builder.RegisterService(service_.get());
  builder.SetMaxReceiveMessageSize(config_.max_message_bytes);
  limitConnections(config_, builder);
  // Every call as it ends: per-method metrics and, with access_log, one line each.
  if (metrics_ || config_.access_log) {
    std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> observers;
    observers.push_back(std::make_unique<RpcObserverFactory>(
        [this, access = accessControl(config_)](const RpcRecord& r) {
          if (metrics_) metrics_->onRpc(r);
          if (config_.access_log) spdlog::info(accessLine(r, access));
        }));
    builder.experimental().SetInterceptorCreators(std::move(observers));
  }
  server_ = builder.BuildAndStart();
  if (!server_ || port_ == 0) {
    errors.push_back("cannot listen on " + config_.listen +
                     ": address in use (another npcd?) or invalid");
    server_.reset();
    return false;
  }

  if (config_.cluster.enabled) {
    std::string address = config_.cluster.advertise;
    if (address.empty()) address = config_.listen.substr(0, config_.listen.rfind(':') + 1) + std::to_string(port_);
    cluster_ = std::make_unique<ClusterNode>(config_.cluster, address, world,
                                             configDefinitionsHash(config_));
    // The input journal cannot replay an adoption: the next journal starts from a snapshot
    // taken after it.
    cluster_->setOnAdopt([this] {
      if (snapshots_) snapshots_->request([](const SnapshotResult&) {});
    });
    service_->setClusterView(cluster_.get());
    cluster_->start(*sim_);
  }

  std::error_code no_file;
  if (std::filesystem::is_regular_file(config_.source, no_file)) {
    config_reload_ = std::make_unique<ConfigReload>(config_.source, config_);
  }
  TickDriverOptions options;
  options.tick_hz = config_.tick_hz;
  options.status_interval_s = config_.status_interval_s;
  TickHooks hooks;
  const auto poll_ticks = static_cast<uint64_t>(config_.definitions_poll_s * config_.tick_hz);
  hooks.after_tick = [this, poll_ticks] {
    // Journaled before a snapshot may start the next file, and before the tick's actions
    // reach clients: whatever a client saw is in the journal.
    if (journal_) journal_->afterTick(*sim_);
    const bool poll_due = poll_ticks > 0 && sim_->tickCount() % poll_ticks == 0;
    if (poll_due) reloadDefinitionsIfChanged();
    if (poll_due || config_reload_requested_.exchange(false)) reloadConfigIfChanged();
    if (demo_) {
      demo_->step(*sim_, demo_commands_);
      if (!sim_->submit(demo_commands_)) demo_commands_.clear();
    }
    // A cluster node's lease changes become the next tick's commands; places whose lease
    // ran out during this tick send nothing.
    hub_->publish(*sim_, cluster_ ? cluster_->afterTick(*sim_) : ClusterNews{});
    if (debug_) debug_->afterTick(*sim_);
    if (snapshots_) snapshots_->afterTick(*sim_);
  };
  watchdog_ = std::make_unique<TickWatchdog>(sim_->profile(), 1.0 / config_.tick_hz,
                                             config_.watchdog.warn_budgets);
  hooks.add_stats = [this](DaemonStats& s) {
    s.clients = static_cast<uint32_t>(hub_->clientCount());
    s.clients_dropped = hub_->droppedCount();
    s.tick_stalls = watchdog_->stalls();
    if (journal_) {
      s.state_checksum = journal_->lastChecksum();  // computed for the journal this tick
    } else if (snapshots_) {
      s.state_checksum = stateChecksum(*sim_);
    }
    s.errors_input = hub_->errorCount(ClientHub::ErrorKind::kInput);
    s.errors_refused = hub_->errorCount(ClientHub::ErrorKind::kRefused);
    const ClientHub::OutboxDepth outbox = hub_->outboxDepth();
    s.outbox_messages = outbox.total;
    s.outbox_max = outbox.max;
    if (cluster_) {
      const LeaseKeeperStats leases = cluster_->stats();
      s.leases_lost = leases.lost;
      s.lease_renew_failures = leases.renew_failures;
      const PlaceSnapshotStats snapshots = cluster_->snapshotStats();
      s.place_snapshots_written = snapshots.written;
      s.place_snapshots_failed = snapshots.fenced + snapshots.failed;
      s.places_adopted = cluster_->adopted();
      s.npcs_handed_over = cluster_->handedOver();
      s.npcs_arrived = cluster_->arrived();
      s.sounds_relayed = cluster_->soundsRelayed();
      s.sounds_heard = cluster_->soundsHeard();
      s.signals_relayed = cluster_->signalsRelayed();
      s.signals_heard = cluster_->signalsHeard();
      s.players_relayed = cluster_->playersRelayed();
      s.players_visiting = cluster_->playersVisiting();
      const NpcCourierStats courier = cluster_->courierStats();
      s.inputs_recorded = courier.inputs;
      s.inputs_dropped = courier.inputs_dropped;
      s.inputs_replayed = cluster_->inputsReplayed();
    }
  };
  // The board keeps its own window of tick durations so GetStats's percentiles are current
  // whatever status_interval_s is.
  hooks.observe = [this](const DaemonStats& s, double tick_s) {
    stats_.recordTick(tick_s * 1000.0);
    if (metrics_) {
      metrics_->onTick(s, tick_s);
      metrics_->onPhases(sim_->profile());
    }
    if (debug_) debug_->observe(s, tick_s, sim_->profile());
  };
  driver_ = std::make_unique<TickDriver>(io_, *sim_, stats_, options, std::move(hooks));
  work_ = std::make_unique<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>>(
      io_.get_executor());
  driver_->start();
  tick_thread_ = std::thread([this] {
    setThreadName("npcd-tick");
    io_.run();
  });
  watchdog_->start([budget_ms = watchdog_->budgetMs()](const StallReport& r) {
    spdlog::warn(logEvent("tick stall", "tick watchdog: " + r.text(budget_ms),
                          {{"tick", r.tick},
                           {"elapsed_ms", r.elapsed_ms},
                           {"budgets", r.budgets},
                           {"phase", tickPhaseName(r.phase)},
                           {"agent", raw(r.agent)}}));
  });
  started_ = true;
  spdlog::info(logEvent(
      "listening",
      fmt::format("npcd {} (revision {}) listening on {} (port {}), {:g} ticks/s, world {}{}",
                  buildVersion(), buildRevision(), config_.listen, port_, config_.tick_hz,
                  config_.world.empty() ? "(empty)" : config_.world,
                  demo_ ? ", simulated players on" : ""),
      {{"version", buildVersion()},
       {"revision", buildRevision()},
       {"listen", config_.listen},
       {"port", port_},
       {"tick_hz", config_.tick_hz},
       {"world", config_.world},
       {"simulated_players", demo_ != nullptr}}));
  if (debug_) {
    const std::string host = config_.debug_listen.substr(0, config_.debug_listen.rfind(':'));
    spdlog::info(logText(fmt::format("debug page on http://{}:{}/", host, debug_->port())));
  }
  return true;
}

int Daemon::metricsPort() const { return metrics_ ? metrics_->port() : 0; }

int Daemon::debugPort() const { return debug_ ? debug_->port() : 0; }

std::string Daemon::whereIsTheTick() const {
  return watchdog_ ? watchdog_->whereIsTheTick() : "not ticking";
}

void Daemon::shutdown() {
  if (!started_ || stopped_) return;
  stopped_ = true;
  spdlog::info(logText("npcd shutting down"));
  if (debug_) debug_->stop();
  if (auto* health = server_->GetHealthCheckService()) health->SetServingStatus(false);
  hub_->drain();
  // The tick thread keeps running here so unary calls waiting on a tick still get answers.
  const auto grace = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::duration<double>(config_.shutdown_grace_s));
  server_->Shutdown(std::chrono::system_clock::now() + grace);
  server_->Wait();
  std::promise<void> stopped;
  boost::asio::post(io_, [this, &stopped] {
    driver_->stop();
    stopped.set_value();
  });
  stopped.get_future().wait();
  work_.reset();
  io_.stop();
  tick_thread_.join();
  watchdog_->stop();
  if (snapshots_) {  // the state as the last tick left it
    const SnapshotResult r = snapshots_->takeNow(*sim_);
    if (r.status.isOk()) spdlog::info(logText("snapshot at shutdown: " + r.path));
    snapshots_.reset();
  }
  if (journal_) {
    sim_->clearCommandRecorders();
    journal_.reset();
  }
  // No tick runs any more: the places are written for, and given to, others.
  if (cluster_) cluster_->stop(*sim_, true);
  // The tick thread has stopped: what the planners learned can be written out.
  if (const Status saved = sim_->savePlannerStatistics(); !saved.isOk()) {
    spdlog::warn(logText("planner statistics: " + saved.message()));
  }
  const SimStats s = sim_->stats();
  spdlog::info(logEvent("stopped", "npcd stopped after " + std::to_string(s.tick) + " ticks",
                        {{"tick", s.tick}}));
}

void Daemon::reloadDefinitionsIfChanged() {
  const DefinitionReport report = sim_->loadDefinitions(DefinitionLoad::kChanged);
  if (!report.touched()) return;
  // One line for what changed, then the diagnostics of the kinds that were read.
  if (report.refused.empty()) {
    spdlog::info(logText("definitions reloaded: " + report.summary()));
  } else {
    spdlog::error(logText("definitions reload: " + report.summary() +
                          " (a refused kind keeps its running set)"));
  }
  for (const std::string& e : report.errors) spdlog::error(logText(e));
  for (const std::string& w : report.warnings) spdlog::warn(logText(w));
  if (report.loaded.empty()) return;
  // Snapshots name the definitions they were taken with.
  if (snapshots_) snapshots_->setDefinitionsHash(configDefinitionsHash(config_));
  if (journal_) journal_->setDefinitionsHash(configDefinitionsHash(config_));
}

void Daemon::reloadConfigIfChanged() {
  if (!config_reload_) return;
  std::optional<ConfigChange> change = config_reload_->poll();
  if (!change) return;
  if (!change->errors.empty()) {
    std::string text;
    for (const std::string& e : change->errors) text += "\n" + e;
    spdlog::error(logText("config reload refused, running configuration kept:" + text));
    return;
  }
  for (const std::string& key : change->needs_restart) {
    spdlog::warn(logText(config_reload_->path() + ": " + key +
                         " changed; it takes effect at the next start"));
  }
  if (change->tuning) {
    SetPerceptionTuning tuning = std::move(*change->tuning);
    tuning.reply = [path = config_reload_->path()](const Status& s, const PerceptionTuning& now) {
      if (!s.isOk()) {
        spdlog::error(logText(path + ": " + s.message()));
        return;
      }
      spdlog::info(logText(fmt::format("{}: perception tuning reloaded: som_speed {:g}, "
                                       "decay_per_update {:g}, suspicious_threshold {:g}",
                                       path, now.som_speed, now.decay_per_update,
                                       now.suspicious_threshold)));
    };
    sim_->submit({ClientId::kDaemon, 0, std::move(tuning)});
  }
}

void Daemon::requestConfigReload() { config_reload_requested_ = true; }

}  // namespace npc
