// Metrics: Prometheus exposition (prometheus-cpp) on its own HTTP port, updated by the tick
// thread once per tick from the same figures as GetStats. Names follow Prometheus
// conventions (npcd_*, seconds, _total for counters); see README.md "Metrics".
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "base/latency_histogram.h"
#include "rpc_observer.h"
#include "stats_board.h"

namespace prometheus {
class Collectable;
class Counter;
class Exposer;
class Gauge;
class Histogram;
class Registry;
template <typename T>
class Family;
}  // namespace prometheus

namespace npc {

class Metrics {
 public:
  // Starts serving /metrics on `listen` ("host:port", port 0 picks one). Throws nothing:
  // on failure `error` is set and the object serves nothing.
  Metrics(const std::string& listen, std::string& error);
  ~Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  bool serving() const { return exposer_ != nullptr; }
  int port() const { return port_; }

  // Tick thread, after every tick: `tick_s` is the tick's wall duration.
  void onTick(const DaemonStats& stats, double tick_s);
  // Tick thread, after every tick: the wall time of each phase of the last tick.
  void onPhases(const TickProfile& profile);
  // Any gRPC thread, as a call ends (RpcObserver): grpc_server_handled_total and
  // grpc_server_handling_seconds, labelled as the Go and Java gRPC middleware label them
  // (grpc_service, grpc_method, grpc_type, and grpc_code for the count).
  void onRpc(const RpcRecord& rpc);

 private:
  // The planner-search histogram moves by the searches counted since the last tick.
  void observePlanLatency(const LatencyHistogram& plan_latency);

  // Counters move by the growth of the cumulative figures since the last tick.
  struct Cumulative {
    uint64_t actions = 0, completed = 0, failed = 0, errors_input = 0, errors_refused = 0,
             rays = 0, behavior_changes = 0, signals = 0, overruns = 0, dropped = 0, plans = 0,
             plans_failed = 0, plans_partial = 0, stalls = 0, leases_lost = 0,
             renew_failures = 0, snapshots_written = 0, snapshots_failed = 0, adopted = 0,
             handed_over = 0, arrived = 0, sounds_relayed = 0, sounds_heard = 0,
             signals_relayed = 0, signals_heard = 0, players_relayed = 0,
             players_visiting = 0, inputs_recorded = 0, inputs_dropped = 0,
             inputs_replayed = 0, nav_tile_rebuilds = 0, nav_changes_ignored = 0,
             nav_long_searches = 0, nav_long_refused = 0, upserts_coalesced = 0;
  };
  std::shared_ptr<prometheus::Registry> registry_;
  std::shared_ptr<prometheus::Collectable> process_;  // the exposer keeps only a weak_ptr
  std::unique_ptr<prometheus::Exposer> exposer_;
  int port_ = 0;
  Cumulative last_;
  LatencyHistogram last_plan_latency_;

  prometheus::Histogram* tick_duration_ = nullptr;
  std::array<prometheus::Histogram*, kTickPhaseCount> phase_duration_{};  // by TickPhase
  prometheus::Histogram* plan_seconds_ = nullptr;
  prometheus::Counter* tick_stalls_ = nullptr;
  prometheus::Counter* ticks_ = nullptr;
  prometheus::Counter* overruns_ = nullptr;
  prometheus::Gauge* agents_awake_ = nullptr;
  prometheus::Gauge* agents_asleep_ = nullptr;
  prometheus::Gauge* agents_reduced_ = nullptr;
  prometheus::Gauge* places_awake_ = nullptr;   // npcd_places{state="awake"} (draining too)
  prometheus::Gauge* places_asleep_ = nullptr;  // npcd_places{state="asleep"}
  prometheus::Gauge* places_held_ = nullptr;    // npcd_places_held (cluster leases)
  prometheus::Counter* leases_lost_ = nullptr;
  prometheus::Counter* renew_failures_ = nullptr;
  prometheus::Counter* place_snapshots_written_ = nullptr;  // npcd_cluster_place_snapshots_total
  prometheus::Counter* place_snapshots_failed_ = nullptr;
  prometheus::Counter* places_adopted_ = nullptr;
  prometheus::Counter* npcs_handed_over_ = nullptr;
  prometheus::Counter* npcs_arrived_ = nullptr;
  prometheus::Counter* sounds_relayed_ = nullptr;  // npcd_cluster_sounds_total{way}
  prometheus::Counter* sounds_heard_ = nullptr;
  prometheus::Counter* signals_relayed_ = nullptr;  // npcd_cluster_signals_total{way}
  prometheus::Counter* signals_heard_ = nullptr;
  prometheus::Counter* players_relayed_ = nullptr;  // npcd_cluster_players_total{way}
  prometheus::Counter* players_visiting_ = nullptr;
  prometheus::Counter* inputs_recorded_ = nullptr;  // npcd_cluster_place_inputs_total{way}
  prometheus::Counter* inputs_dropped_ = nullptr;
  prometheus::Counter* inputs_replayed_ = nullptr;
  prometheus::Gauge* outbox_messages_ = nullptr;
  prometheus::Gauge* outbox_max_ = nullptr;
  prometheus::Family<prometheus::Counter>* rpc_handled_ = nullptr;
  prometheus::Family<prometheus::Histogram>* rpc_seconds_ = nullptr;
  // Method paths come from callers: at most kMaxRpcMethods get their own series, the rest
  // count as grpc_method "other", so no client can grow the registry without bound.
  static constexpr size_t kMaxRpcMethods = 64;
  std::mutex rpc_methods_mutex_;
  std::set<std::string, std::less<>> rpc_methods_;  // guarded by rpc_methods_mutex_
  prometheus::Gauge* entities_ = nullptr;
  prometheus::Gauge* clients_ = nullptr;
  prometheus::Counter* clients_dropped_ = nullptr;
  prometheus::Counter* actions_ = nullptr;
  prometheus::Counter* actions_completed_ = nullptr;
  prometheus::Counter* actions_failed_ = nullptr;
  prometheus::Counter* rays_ = nullptr;
  prometheus::Counter* behavior_changes_ = nullptr;
  prometheus::Counter* signals_ = nullptr;
  prometheus::Counter* upserts_coalesced_ = nullptr;
  prometheus::Counter* plans_ = nullptr;
  prometheus::Counter* plans_failed_ = nullptr;
  prometheus::Counter* plans_partial_ = nullptr;
  prometheus::Counter* nav_tile_rebuilds_ = nullptr;
  prometheus::Counter* nav_changes_ignored_ = nullptr;
  prometheus::Gauge* nav_changes_waiting_ = nullptr;
  prometheus::Counter* nav_long_searches_ = nullptr;
  prometheus::Counter* nav_long_refused_ = nullptr;
  prometheus::Gauge* nav_long_waiting_ = nullptr;
  prometheus::Counter* errors_input_ = nullptr;    // npcd_errors_total{kind="input"}
  prometheus::Counter* errors_refused_ = nullptr;  // npcd_errors_total{kind="refused"}
};

}  // namespace npc
