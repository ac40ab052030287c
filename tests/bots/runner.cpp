#include "runner.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include <sys/resource.h>

#include <grpcpp/grpcpp.h>

#include "bot_client.h"
#include "latency.h"
#include "npc/v1/npc.grpc.pb.h"

namespace npc::bots {

namespace {

// Everything the clients counted, summed.
struct Totals {
  uint32_t welcomed = 0;
  uint32_t failed = 0;
  uint64_t messages_sent = 0;
  FrameCounts items;
  uint64_t late_frames = 0;
  uint64_t late_frames_own = 0;
  uint64_t late_frames_daemon = 0;
  uint64_t split_frames = 0;
  double build_s = 0.0, build_max_s = 0.0, write_s = 0.0, write_max_s = 0.0;
  uint64_t actions = 0;
  uint64_t foreign_actions = 0;
  uint64_t superseded = 0;
  uint64_t ended_by_daemon = 0;
  uint64_t stale_actions = 0;
  double longest_action_s = 0.0;
  uint64_t error_events = 0;
  double tick_dt_s = 0.0;
};

Totals sum(const std::vector<std::unique_ptr<BotClient>>& clients) {
  Totals t;
  for (const auto& c : clients) {
    const ClientCounters k = c->counters();
    t.welcomed += k.welcomed && !k.failed ? 1 : 0;
    t.failed += k.failed ? 1 : 0;
    t.messages_sent += k.messages_sent;
    t.items += k.items;
    t.late_frames += k.late_frames;
    t.late_frames_own += k.late_frames_own;
    t.late_frames_daemon += k.late_frames_daemon;
    t.split_frames += k.split_frames;
    t.build_s += k.build_s;
    t.build_max_s = std::max(t.build_max_s, k.build_max_s);
    t.write_s += k.write_s;
    t.write_max_s = std::max(t.write_max_s, k.write_max_s);
    t.actions += k.actions;
    t.foreign_actions += k.foreign_actions;
    t.superseded += k.superseded;
    t.ended_by_daemon += k.ended_by_daemon;
    t.stale_actions += k.stale_actions;
    t.longest_action_s = std::max(t.longest_action_s, k.longest_action_s);
    t.error_events += k.error_events;
    if (k.tick_dt_s > 0.0) t.tick_dt_s = k.tick_dt_s;
  }
  return t;
}

// 1234567 -> "1,234,567".
std::string grouped(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string grouped(double n) { return grouped(static_cast<uint64_t>(std::llround(std::max(0.0, n)))); }

std::string format(const char* fmt, auto... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, fmt, args...);
  return buffer;
}

std::shared_ptr<grpc::Channel> makeChannel(const std::string& target, int index) {
  grpc::ChannelArguments args;
  // One TCP connection per game client, as separate game servers would have.
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  args.SetInt("npcd_bots.client", index);
  args.SetMaxReceiveMessageSize(-1);
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
}

std::optional<v1::GetStatsResponse> fetchStats(v1::NpcSim::Stub& stub, const std::string& token,
                                    std::chrono::milliseconds timeout) {
  grpc::ClientContext context;
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
  context.set_deadline(std::chrono::system_clock::now() + timeout);
  v1::GetStatsResponse stats;
  if (!stub.GetStats(&context, v1::GetStatsRequest(), &stats).ok()) return std::nullopt;
  return stats;
}

std::string latencyText(const LatencySummary& s, double tick_dt_s) {
  if (s.actions == 0 || tick_dt_s <= 0.0) return "latency -";
  return format("latency p50 %.2f p99 %.2f ticks", s.p50_s / tick_dt_s, s.p99_s / tick_dt_s);
}

void printLive(double t_s, bool warming, uint32_t clients, const Scenario& sc,
               const Totals& now, const Totals& prev, double dt_s, const LatencySummary& lat,
               const std::optional<v1::GetStatsResponse>& stats) {
  const double updates = static_cast<double>(now.items.items() - prev.items.items()) / dt_s;
  const double actions = static_cast<double>(now.actions - prev.actions) / dt_s;
  std::string daemon = "npcd stats -";
  if (stats) {
    daemon = format("npcd agents %s, tick p99 %.1f ms, %.1f ticks/s, overruns %" PRIu64,
                    grouped(stats->agents()).c_str(), stats->tick_p99_ms(),
                    stats->ticks_per_second(), stats->tick_overruns());
  }
  std::printf("[%4.0fs%s] clients %u/%u | players %s | npcs %s | %s updates/s | %s actions/s | "
              "%s | errors %s | late frames %s | %s\n",
              t_s, warming ? " warm-up" : "", now.welcomed, clients,
              grouped(uint64_t{sc.totalPlayers()}).c_str(), grouped(uint64_t{sc.totalNpcs()}).c_str(),
              grouped(updates).c_str(), grouped(actions).c_str(),
              latencyText(lat, now.tick_dt_s).c_str(),
              grouped(now.error_events + now.failed).c_str(), grouped(now.late_frames).c_str(),
              daemon.c_str());
  std::fflush(stdout);
}

// The latency anchor (latency.h) is best taken on an idle daemon, whose ticks take
// microseconds: before the bots add load, a probe stream observes every action and event
// (the demo world's own NPCs act every few seconds) until `until`; each message is one
// anchoring sample. An empty world sends none, and the anchor then comes from the run.
std::vector<LatencySample> probeTickGrid(const std::shared_ptr<grpc::Channel>& channel,
                                         const std::string& token, Clock::time_point epoch,
                                         Clock::time_point until) {
  auto stub = v1::NpcSim::NewStub(channel);
  grpc::ClientContext context;
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::duration_cast<std::chrono::system_clock::duration>(
                           until - Clock::now()));
  auto stream = stub->Connect(&context);
  v1::WorldUpdate hello;
  hello.set_seq(1);
  hello.mutable_subscribe()->set_observe_all_actions(true);
  stream->Write(hello);
  std::vector<LatencySample> samples;
  double tick_dt_s = 0.0;
  v1::ServerMessage message;
  while (stream->Read(&message)) {
    const double t = std::chrono::duration<double>(Clock::now() - epoch).count();
    if (message.has_welcome()) {
      tick_dt_s = message.welcome().tick_dt();  // sent between ticks: not a sample
      continue;
    }
    if (tick_dt_s > 0.0) {
      samples.push_back({t, t - static_cast<double>(message.tick()) * tick_dt_s, 0});
    }
  }
  stream->Finish();  // DEADLINE_EXCEEDED: how the probe ends
  return samples;
}

// One expectation's line ("errors <= 0: ok (0)") and whether it held.
struct Check {
  std::string text;
  bool ok;
};

}  // namespace

int runBots(const Scenario& sc, const RunOptions& options) {
  std::shared_ptr<grpc::Channel> admin_channel = makeChannel(options.target, -1);
  if (!admin_channel->WaitForConnected(std::chrono::system_clock::now() +
                                       std::chrono::seconds(5))) {
    std::fprintf(stderr, "npcd-bots: cannot connect to %s within 5 s\n", options.target.c_str());
    return 1;
  }
  auto admin = v1::NpcSim::NewStub(admin_channel);

  // The clients start at the epoch, after the latency probe (whose samples have negative
  // times on this clock).
  const Clock::time_point epoch = Clock::now() + std::chrono::seconds(2);
  auto since = [&](Clock::time_point t) { return std::chrono::duration<double>(t - epoch).count(); };
  auto at = [&](double s) {
    return epoch + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  const std::vector<LatencySample> probe = probeTickGrid(admin_channel, options.token, epoch, epoch);
  std::this_thread::sleep_until(epoch);

  const double total_s = sc.warmup_s + sc.duration_s;
  std::printf("npcd-bots: %s against %s: %u clients x %u players, %s NPCs, %.0f Hz, %.0f s",
              sc.file.c_str(), options.target.c_str(), sc.clients, sc.players.per_client,
              grouped(uint64_t{sc.totalNpcs()}).c_str(), sc.rate_hz, sc.duration_s);
  if (sc.warmup_s > 0) std::printf(" after %.0f s warm-up", sc.warmup_s);
  std::printf("\n");
  std::fflush(stdout);

  std::vector<std::unique_ptr<BotClient>> clients;
  for (uint32_t i = 0; i < sc.clients; ++i) {
    clients.push_back(std::make_unique<BotClient>(sc, i, makeChannel(options.target, static_cast<int>(i)),
                                                  options.token, epoch, total_s + 60.0));
  }
  for (auto& c : clients) c->start();

  // Wake every second for the live line, and once at the end of the warm-up.
  std::vector<double> wakes;
  for (double s = 1.0; s < total_s; s += 1.0) wakes.push_back(s);
  if (sc.warmup_s > 0.0) wakes.push_back(sc.warmup_s);
  wakes.push_back(total_s);
  std::sort(wakes.begin(), wakes.end());
  wakes.erase(std::unique(wakes.begin(), wakes.end()), wakes.end());

  LatencyBook book;
  for (const LatencySample& s : probe) book.add(s, sc.warmup_s, total_s);
  std::vector<LatencySample> samples;
  auto drain = [&](double to_s) {
    samples.clear();
    for (auto& c : clients) c->takeSamples(samples);
    for (const LatencySample& s : samples) book.add(s, sc.warmup_s, to_s);
  };

  Totals prev;
  double prev_s = 0.0;
  Totals at_warmup;  // zero when there is no warm-up
  double measure_from_s = 0.0;
  double measure_to_s = total_s;
  Totals at_end;
  uint64_t peak_agents = 0;  // the daemon's, from the live lines' GetStats
  for (double wake : wakes) {
    std::this_thread::sleep_until(at(wake));
    const double t = since(Clock::now());
    drain(total_s);
    const Totals now = sum(clients);
    if (wake == sc.warmup_s && sc.warmup_s > 0.0) {
      at_warmup = now;
      measure_from_s = t;
    }
    const bool all_failed = now.failed == sc.clients;  // nothing left to measure
    if (wake == total_s || all_failed) {
      at_end = now;
      measure_to_s = t;
    }
    if (wake == std::floor(wake) || wake == total_s) {
      const auto stats = fetchStats(*admin, options.token, std::chrono::milliseconds(300));
      if (stats) peak_agents = std::max<uint64_t>(peak_agents, stats->agents());
      printLive(t, t < sc.warmup_s, sc.clients, sc, now, prev, std::max(1e-3, t - prev_s),
                book.takeWindow(), stats);
      prev = now;
      prev_s = t;
    }
    if (all_failed) break;
  }

  for (auto& c : clients) c->stop();
  for (auto& c : clients) c->join();
  drain(measure_to_s);
  const Totals final_totals = sum(clients);
  const auto stats = fetchStats(*admin, options.token, std::chrono::seconds(2));

  // ---- report
  const double window_s = std::max(1e-3, measure_to_s - measure_from_s);
  FrameCounts items = at_end.items;
  {
    const FrameCounts& w = at_warmup.items;
    items.upserts -= w.upserts;
    items.removals -= w.removals;
    items.sounds -= w.sounds;
    items.signals -= w.signals;
    items.completed -= w.completed;
    items.failed -= w.failed;
    items.progress -= w.progress;
  }
  const uint64_t messages = at_end.messages_sent - at_warmup.messages_sent;
  const uint64_t actions = at_end.actions - at_warmup.actions;
  const double updates_per_s = static_cast<double>(items.items()) / window_s;
  const double actions_per_s = static_cast<double>(actions) / window_s;
  const LatencySummary lat = book.run();
  const double dt = final_totals.tick_dt_s;
  const uint64_t errors = final_totals.error_events + final_totals.failed;

  std::printf("\n== npcd-bots report ==\n");
  std::printf("scenario       %s%s%s\n", sc.file.c_str(), sc.description.empty() ? "" : " - ",
              sc.description.c_str());
  std::printf("target         %s, measured %.1f s", options.target.c_str(), window_s);
  if (sc.warmup_s > 0) std::printf(" after %.1f s warm-up", measure_from_s);
  std::printf(", game rate %.0f Hz, daemon tick %.0f ms\n", sc.rate_hz, dt * 1000.0);
  std::printf("clients        %u (%u streaming to the end, %u stream failures)\n", sc.clients,
              final_totals.welcomed, final_totals.failed);
  std::printf("players        %s\n", grouped(uint64_t{sc.totalPlayers()}).c_str());
  std::printf("agents         %s NPCs spawned by the bots", grouped(uint64_t{sc.totalNpcs()}).c_str());
  if (peak_agents > 0) {
    std::printf("; the daemon ran up to %s agents", grouped(peak_agents).c_str());
  }
  std::printf("\n");
  std::printf("world updates  %s sent = %s/s (upserts %s, sounds %s, signals %s, results %s "
              "completed / %s failed / %s progress) in %s messages\n",
              grouped(items.items()).c_str(), grouped(updates_per_s).c_str(),
              grouped(items.upserts).c_str(), grouped(items.sounds).c_str(),
              grouped(items.signals).c_str(), grouped(items.completed).c_str(),
              grouped(items.failed).c_str(), grouped(items.progress).c_str(),
              grouped(messages).c_str());
  std::printf("actions        %s received = %s/s (%s for agents of other clients, %s superseded, "
              "%s still running here when the daemon failed them; longest %.1f s)\n",
              grouped(actions).c_str(), grouped(actions_per_s).c_str(),
              grouped(final_totals.foreign_actions).c_str(), grouped(final_totals.superseded).c_str(),
              grouped(final_totals.ended_by_daemon).c_str(), final_totals.longest_action_s);
  if (final_totals.stale_actions > 0) {
    std::printf("stale actions  %s dropped: their place's lease epoch was below one already seen "
                "(a cluster node that lost the place)\n",
                grouped(final_totals.stale_actions).c_str());
  }
  if (lat.actions > 0 && dt > 0.0) {
    std::printf("latency        p50 %.2f ticks (%.1f ms), p99 %.2f ticks (%.1f ms), max %.2f ticks "
                "over %s actions\n"
                "               (arrival after the emitting tick's slot on the daemon's tick grid, "
                "anchored on %s; tests/bots/README.md)\n",
                lat.p50_s / dt, lat.p50_s * 1e3, lat.p99_s / dt, lat.p99_s * 1e3, lat.max_s / dt,
                grouped(lat.actions).c_str(),
                probe.empty() ? "the run's fastest message (no idle-tick messages)"
                              : (grouped(uint64_t{probe.size()}) + " idle-tick messages").c_str());
  } else {
    std::printf("latency        - (no actions received in the measured window)\n");
  }
  std::printf("errors         %s error events, %u stream failures\n",
              grouped(final_totals.error_events).c_str(), final_totals.failed);
  std::printf("late frames    %s (game-loop slots skipped): %s the bots' own lag (building a "
              "frame took the time), %s npcd's back-pressure (a write blocked)\n",
              grouped(final_totals.late_frames).c_str(), grouped(final_totals.late_frames_own).c_str(),
              grouped(final_totals.late_frames_daemon).c_str());
  const double frames = static_cast<double>(std::max<uint64_t>(1, final_totals.messages_sent));
  std::printf("bots lag       building frames %.2f ms per update, %.1f ms max; writing them %.2f ms per update, "
              "%.1f ms max (blocked by npcd); %s frames split over max_items_per_update %u\n",
              1e3 * final_totals.build_s / frames, 1e3 * final_totals.build_max_s,
              1e3 * final_totals.write_s / frames, 1e3 * final_totals.write_max_s,
              grouped(final_totals.split_frames).c_str(), sc.max_items_per_update);
  if (stats) {
    std::printf("daemon         tick %s, %.1f ticks/s, tick p50 %.2f ms p99 %.2f ms, overruns %s, "
                "actions emitted %s, errors %s, clients dropped %s\n",
                grouped(stats->tick()).c_str(), stats->ticks_per_second(), stats->tick_p50_ms(),
                stats->tick_p99_ms(), grouped(stats->tick_overruns()).c_str(),
                grouped(stats->actions_emitted()).c_str(), grouped(stats->errors()).c_str(),
                grouped(stats->clients_dropped()).c_str());
  } else {
    std::printf("daemon         - (GetStats failed)\n");
  }
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) {
    const double cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    const double wall_s = since(Clock::now());
    std::printf("bots CPU       %.1f s over %.1f s (%.0f%% of one core)\n", cpu_s, wall_s,
                100.0 * cpu_s / std::max(1e-3, wall_s));
  }
  std::set<std::string> shown;
  for (const auto& c : clients) {
    const ClientCounters k = c->counters();
    if (k.failed && shown.insert(k.failure).second && shown.size() <= 5) {
      std::printf("stream failure client %u: %s\n", k.client_id, k.failure.c_str());
    }
    for (const std::string& text : c->errorTexts()) {
      if (shown.insert(text).second && shown.size() <= 5) {
        std::printf("error event    client %u %s\n", k.client_id, text.c_str());
      }
    }
  }

  std::vector<Check> checks;
  const Expect& e = sc.expect;
  if (e.max_errors) {
    checks.push_back({format("errors <= %" PRIu64 " (%" PRIu64 ")", *e.max_errors, errors),
                      errors <= *e.max_errors});
  }
  if (e.max_p99_latency_ticks) {
    const bool have = lat.actions > 0 && dt > 0.0;
    const double p99 = have ? lat.p99_s / dt : 0.0;
    checks.push_back({have ? format("p99 latency <= %g ticks (%.2f)", *e.max_p99_latency_ticks, p99)
                           : format("p99 latency <= %g ticks (no actions)", *e.max_p99_latency_ticks),
                      have && p99 <= *e.max_p99_latency_ticks});
  }
  if (e.min_updates_per_s) {
    checks.push_back({format("updates/s >= %s (%s)", grouped(*e.min_updates_per_s).c_str(),
                             grouped(updates_per_s).c_str()),
                      updates_per_s >= *e.min_updates_per_s});
  }
  if (e.min_actions) {
    checks.push_back({format("actions >= %s (%s)", grouped(*e.min_actions).c_str(),
                             grouped(actions).c_str()),
                      actions >= *e.min_actions});
  }
  bool pass = true;
  std::string line;
  for (const Check& c : checks) {
    line += (line.empty() ? "" : " | ") + c.text + (c.ok ? ": ok" : ": FAIL");
    pass = pass && c.ok;
  }
  std::printf("expect         %s\n", line.empty() ? "(none)" : line.c_str());
  std::printf("result         %s\n", pass ? "PASS" : "FAIL");
  std::fflush(stdout);
  return pass ? 0 : 1;
}

}  // namespace npc::bots
