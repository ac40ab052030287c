#include "metrics.h"

#include "build_info.h"
#include "process_metrics.h"

#include <exception>

#include <prometheus/counter.h>
#include <prometheus/exposer.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace npc {

namespace {

prometheus::Counter* counter(prometheus::Registry& r, const std::string& name,
                             const std::string& help, const prometheus::Labels& labels = {}) {
  return &prometheus::BuildCounter().Name(name).Help(help).Register(r).Add(labels);
}

prometheus::Gauge* gauge(prometheus::Registry& r, const std::string& name,
                         const std::string& help, const prometheus::Labels& labels = {}) {
  return &prometheus::BuildGauge().Name(name).Help(help).Register(r).Add(labels);
}

void grow(prometheus::Counter* c, uint64_t now, uint64_t& last) {
  if (now > last) c->Increment(static_cast<double>(now - last));
  last = now;
}

}  // namespace

Metrics::Metrics(const std::string& listen, std::string& error)
    : registry_(std::make_shared<prometheus::Registry>()) {
  try {
    exposer_ = std::make_unique<prometheus::Exposer>(listen);
  } catch (const std::exception& e) {
    error = "metrics: cannot listen on " + listen + ": " + e.what();
    return;
  }
  exposer_->RegisterCollectable(registry_);
  process_ = std::make_shared<ProcessMetrics>();
  exposer_->RegisterCollectable(process_);
  const auto ports = exposer_->GetListeningPorts();
  port_ = ports.empty() ? 0 : ports.front();

  prometheus::Registry& r = *registry_;
  // The info-metric idiom: a constant 1 whose labels say which build is running, so a
  // dashboard can join on it or show a version change as a new series.
  gauge(r, "npcd_build_info", "Version and source revision of this npcd (always 1)",
        {{"version", std::string(buildVersion())}, {"revision", std::string(buildRevision())}})
      ->Set(1);
  // 0.1 ms .. 1 s: a 10 Hz tick has 100 ms to spend.
  tick_duration_ = &prometheus::BuildHistogram()
                        .Name("npcd_tick_duration_seconds")
                        .Help("Wall time of one simulation tick")
                        .Register(r)
                        .Add({}, prometheus::Histogram::BucketBoundaries{
                                     0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                     0.025, 0.05, 0.1, 0.25, 0.5, 1.0});
  // Phases are finer than the tick: 10 us .. 1 s.
  auto& phases = prometheus::BuildHistogram()
                     .Name("npcd_tick_phase_seconds")
                     .Help("Wall time of one phase of a simulation tick")
                     .Register(r);
  for (TickPhase phase : kTickPhases) {
    phase_duration_[index(phase)] =
        &phases.Add({{"phase", std::string(tickPhaseName(phase))}},
                    prometheus::Histogram::BucketBoundaries{0.00001, 0.00005, 0.0001, 0.00025,
                                                            0.0005, 0.001, 0.0025, 0.005, 0.01,
                                                            0.025, 0.05, 0.1, 0.25, 1.0});
  }
  tick_stalls_ = counter(r, "npcd_tick_stalls_total",
                         "Ticks the watchdog saw running past watchdog.warn_budgets budgets");
  ticks_ = counter(r, "npcd_ticks_total", "Simulation ticks run");
  overruns_ = counter(r, "npcd_tick_overrun_total", "Ticks that ended after their successor's slot");
  auto& agents = prometheus::BuildGauge().Name("npcd_agents").Help("Agents by state").Register(r);
  agents_awake_ = &agents.Add({{"state", "awake"}});
  agents_asleep_ = &agents.Add({{"state", "asleep"}});
  agents_reduced_ = &prometheus::BuildGauge()
                         .Name("npcd_agents_reduced_rate")
                         .Help("Awake agents on the reduced rate: no player within tick.lod near_m")
                         .Register(r)
                         .Add({});
  auto& places = prometheus::BuildGauge()
                     .Name("npcd_places")
                     .Help("Places by hibernation state (awake counts draining places)")
                     .Register(r);
  places_awake_ = &places.Add({{"state", "awake"}});
  places_asleep_ = &places.Add({{"state", "asleep"}});
  places_held_ = gauge(r, "npcd_places_held",
                       "Places this node runs: every place alone, its leased ones in a cluster");
  leases_lost_ = counter(r, "npcd_cluster_leases_lost_total",
                         "Place leases this node stopped holding without giving them up "
                         "(not renewed in time, or taken over)");
  renew_failures_ = counter(r, "npcd_cluster_renew_failures_total",
                            "Lease renewals Redis did not answer");
  auto& place_snapshots = prometheus::BuildCounter()
                              .Name("npcd_cluster_place_snapshots_total")
                              .Help("Place snapshots written to Redis for the places' next holders, "
                                    "by result (failed: fenced off or Redis away)")
                              .Register(r);
  place_snapshots_written_ = &place_snapshots.Add({{"result", "written"}});
  place_snapshots_failed_ = &place_snapshots.Add({{"result", "failed"}});
  places_adopted_ = counter(r, "npcd_cluster_places_adopted_total",
                            "Places this node took up from their previous holder's snapshot");
  npcs_handed_over_ = counter(r, "npcd_cluster_npcs_handed_over_total",
                              "Npcs that walked from a place held here into one held elsewhere "
                              "and were handed to it");
  npcs_arrived_ = counter(r, "npcd_cluster_npcs_arrived_total",
                          "Npcs that walked in from places held by other nodes");
  auto& sounds = prometheus::BuildCounter()
                     .Name("npcd_cluster_sounds_total")
                     .Help("Sounds crossing into places held by other nodes: relayed from here "
                           "(way=out), or relayed here and heard (way=in)")
                     .Register(r);
  sounds_relayed_ = &sounds.Add({{"way", "out"}});
  sounds_heard_ = &sounds.Add({{"way", "in"}});
  auto& signals = prometheus::BuildCounter()
                      .Name("npcd_cluster_signals_total")
                      .Help("The game's signals to places held by other nodes, or within a radius "
                            "reaching them: relayed from here (way=out), or relayed here (way=in)")
                      .Register(r);
  signals_relayed_ = &signals.Add({{"way", "out"}});
  signals_heard_ = &signals.Add({{"way", "in"}});
  auto& players = prometheus::BuildCounter()
                      .Name("npcd_cluster_players_total")
                      .Help("Players' states near places held by other nodes: relayed from here "
                            "(way=out), or relayed here as visitors (way=in)")
                      .Register(r);
  players_relayed_ = &players.Add({{"way", "out"}});
  players_visiting_ = &players.Add({{"way", "in"}});
  auto& inputs = prometheus::BuildCounter()
                     .Name("npcd_cluster_place_inputs_total")
                     .Help("Place inputs: ticks' commands appended to their places' input streams "
                           "(way=recorded), not appended as the lease was lost or too many waited "
                           "(way=dropped), commands applied again after an adoption (way=replayed)")
                     .Register(r);
  inputs_recorded_ = &inputs.Add({{"way", "recorded"}});
  inputs_dropped_ = &inputs.Add({{"way", "dropped"}});
  inputs_replayed_ = &inputs.Add({{"way", "replayed"}});
  outbox_messages_ = gauge(r, "npcd_outbox_messages",
                           "Messages queued for Connect streams, all clients together");
  outbox_max_ = gauge(r, "npcd_outbox_messages_max",
                      "Messages queued for the furthest-behind Connect stream (dropped at "
                      "outbox_max_messages)");
  rpc_handled_ = &prometheus::BuildCounter()
                      .Name("grpc_server_handled_total")
                      .Help("gRPC calls completed on the server, by method and status code")
                      .Register(r);
  rpc_seconds_ = &prometheus::BuildHistogram()
                      .Name("grpc_server_handling_seconds")
                      .Help("Duration of gRPC calls until their status was sent (a Connect "
                            "stream: its whole life)")
                      .Register(r);
  entities_ = gauge(r, "npcd_entities", "Entities in the world");
  clients_ = gauge(r, "npcd_stream_clients", "Connected Connect streams");
  clients_dropped_ = counter(r, "npcd_clients_dropped_total", "Clients dropped for falling behind");
  actions_ = counter(r, "npcd_actions_total", "Actions emitted to clients");
  actions_completed_ = counter(r, "npcd_actions_completed_total", "Actions reported completed");
  actions_failed_ = counter(r, "npcd_actions_failed_total", "Actions failed or timed out");
  rays_ = counter(r, "npcd_perception_rays_total", "Line-of-sight rays cast by perception");
  behavior_changes_ = counter(r, "npcd_behavior_changes_total", "Behavior switches by selection trees");
  signals_ = counter(r, "npcd_signals_total", "Signals delivered to agents");
  upserts_coalesced_ = counter(r, "npcd_upserts_coalesced_total",
                               "Entity upserts skipped because a later one of the same entity "
                               "and client, in the same tick, sets the same fields");
  plans_ = counter(r, "npcd_plans_total", "Planner searches");
  plans_failed_ = counter(r, "npcd_plans_failed_total", "Planner searches that found no plan");
  plans_partial_ = counter(r, "npcd_plans_partial_total",
                           "Planner searches cut short by a limit (a partial result)");
  nav_tile_rebuilds_ = counter(r, "npcd_navmesh_tile_rebuilds_total",
                               "Navmesh tile layers rebuilt for obstacle changes");
  nav_changes_waiting_ = gauge(r, "npcd_navmesh_obstacle_changes_waiting",
                               "Obstacle changes waiting for the navmesh's rebuild budget");
  nav_changes_ignored_ = counter(r, "npcd_navmesh_obstacle_changes_ignored_total",
                                 "Obstacle changes a navmesh without a tile cache did not follow");
  nav_long_searches_ = counter(r, "npcd_navmesh_long_searches_total",
                               "MoveTo checks the query gave up on, searched on over ticks and answered");
  nav_long_refused_ = counter(r, "npcd_navmesh_long_searches_refused_total",
                              "MoveTo checks the query gave up on that found the long-search queue full");
  nav_long_waiting_ = gauge(r, "npcd_navmesh_long_searches_waiting",
                            "Long MoveTo checks waiting or being searched");
  prometheus::Histogram::BucketBoundaries plan_bounds;
  for (uint64_t ns : LatencyHistogram::kBoundsNs) plan_bounds.push_back(static_cast<double>(ns) / 1e9);
  plan_seconds_ = &prometheus::BuildHistogram()
                       .Name("npcd_plan_search_seconds")
                       .Help("Wall time of one planner search (GOAP, on the tick thread)")
                       .Register(r)
                       .Add({}, plan_bounds);
  // Error events sent to clients, once per client reached: refused at the edge (input) or
  // by the tick thread (refused).
  auto& errors = prometheus::BuildCounter()
                     .Name("npcd_errors_total")
                     .Help("Error events sent to clients, by kind")
                     .Register(r);
  errors_input_ = &errors.Add({{"kind", "input"}});
  errors_refused_ = &errors.Add({{"kind", "refused"}});
}

Metrics::~Metrics() = default;

void Metrics::onTick(const DaemonStats& s, double tick_s) {
  if (!exposer_) return;
  tick_duration_->Observe(tick_s);
  ticks_->Increment();
  agents_awake_->Set(static_cast<double>(s.sim.agents_awake));
  agents_asleep_->Set(static_cast<double>(s.sim.agents_asleep));
  agents_reduced_->Set(static_cast<double>(s.sim.agents_reduced));
  places_awake_->Set(static_cast<double>(s.sim.places_awake));
  places_asleep_->Set(static_cast<double>(s.sim.places_asleep));
  places_held_->Set(static_cast<double>(s.sim.places_held));
  outbox_messages_->Set(static_cast<double>(s.outbox_messages));
  outbox_max_->Set(static_cast<double>(s.outbox_max));
  entities_->Set(static_cast<double>(s.sim.entities));
  clients_->Set(static_cast<double>(s.clients));
  grow(overruns_, s.tick_overruns, last_.overruns);
  grow(clients_dropped_, s.clients_dropped, last_.dropped);
  grow(actions_, s.sim.actions_emitted, last_.actions);
  grow(actions_completed_, s.sim.actions_completed, last_.completed);
  grow(actions_failed_, s.sim.actions_failed, last_.failed);
  grow(rays_, s.sim.perception_rays, last_.rays);
  grow(behavior_changes_, s.sim.behavior_changes, last_.behavior_changes);
  grow(signals_, s.sim.signals_delivered, last_.signals);
  grow(upserts_coalesced_, s.sim.upserts_coalesced, last_.upserts_coalesced);
  grow(plans_, s.sim.plans, last_.plans);
  grow(plans_failed_, s.sim.plans_failed, last_.plans_failed);
  grow(plans_partial_, s.sim.plans_partial, last_.plans_partial);
  grow(nav_tile_rebuilds_, s.sim.nav_tile_rebuilds, last_.nav_tile_rebuilds);
  grow(nav_changes_ignored_, s.sim.nav_obstacle_changes_ignored, last_.nav_changes_ignored);
  nav_changes_waiting_->Set(static_cast<double>(s.sim.nav_obstacle_changes_waiting));
  grow(nav_long_searches_, s.sim.nav_long_searches_done, last_.nav_long_searches);
  grow(nav_long_refused_, s.sim.nav_long_searches_refused, last_.nav_long_refused);
  nav_long_waiting_->Set(static_cast<double>(s.sim.nav_long_searches_waiting));
  observePlanLatency(s.sim.plan_latency);
  grow(errors_input_, s.errors_input, last_.errors_input);
  grow(errors_refused_, s.errors_refused, last_.errors_refused);
  grow(tick_stalls_, s.tick_stalls, last_.stalls);
  grow(leases_lost_, s.leases_lost, last_.leases_lost);
  grow(renew_failures_, s.lease_renew_failures, last_.renew_failures);
  grow(place_snapshots_written_, s.place_snapshots_written, last_.snapshots_written);
  grow(place_snapshots_failed_, s.place_snapshots_failed, last_.snapshots_failed);
  grow(places_adopted_, s.places_adopted, last_.adopted);
  grow(npcs_handed_over_, s.npcs_handed_over, last_.handed_over);
  grow(npcs_arrived_, s.npcs_arrived, last_.arrived);
  grow(sounds_relayed_, s.sounds_relayed, last_.sounds_relayed);
  grow(sounds_heard_, s.sounds_heard, last_.sounds_heard);
  grow(signals_relayed_, s.signals_relayed, last_.signals_relayed);
  grow(signals_heard_, s.signals_heard, last_.signals_heard);
  grow(players_relayed_, s.players_relayed, last_.players_relayed);
  grow(players_visiting_, s.players_visiting, last_.players_visiting);
  grow(inputs_recorded_, s.inputs_recorded, last_.inputs_recorded);
  grow(inputs_dropped_, s.inputs_dropped, last_.inputs_dropped);
  grow(inputs_replayed_, s.inputs_replayed, last_.inputs_replayed);
}

void Metrics::observePlanLatency(const LatencyHistogram& plan_latency) {
  if (plan_latency.total == last_plan_latency_.total) return;
  std::vector<double> increments(LatencyHistogram::kBuckets);
  for (size_t i = 0; i < increments.size(); ++i) {
    increments[i] = static_cast<double>(plan_latency.counts[i] - last_plan_latency_.counts[i]);
  }
  plan_seconds_->ObserveMultiple(
      increments, static_cast<double>(plan_latency.sum_ns - last_plan_latency_.sum_ns) / 1e9);
  last_plan_latency_ = plan_latency;
}

void Metrics::onRpc(const RpcRecord& rpc) {
  if (!exposer_) return;
  RpcName name = splitRpcName(rpc.method);
  {
    std::lock_guard lock(rpc_methods_mutex_);
    if (rpc_methods_.count(rpc.method) == 0) {
      if (rpc_methods_.size() < kMaxRpcMethods) {
        rpc_methods_.emplace(rpc.method);
      } else {
        name = {"other", "other"};
      }
    }
  }
  prometheus::Labels labels{{"grpc_service", std::string(name.service)},
                            {"grpc_method", std::string(name.method)},
                            {"grpc_type", std::string(rpc.type)}};
  // 1 ms .. 10 s for unary calls (a tick or two); streams land in +Inf.
  rpc_seconds_
      ->Add(labels, prometheus::Histogram::BucketBoundaries{0.001, 0.0025, 0.005, 0.01, 0.025,
                                                            0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                                                            5.0, 10.0})
      .Observe(rpc.seconds);
  labels.emplace("grpc_code", std::string(statusCodeName(rpc.code)));
  rpc_handled_->Add(labels).Increment();
}

void Metrics::onPhases(const TickProfile& profile) {
  if (!exposer_) return;
  for (TickPhase phase : kTickPhases) {
    phase_duration_[index(phase)]->Observe(static_cast<double>(profile.lastNs(phase)) / 1e9);
  }
}

}  // namespace npc
