// stream_bench: npcd's Connect stream path against a bare gRPC echo, side by side in one
// run, with the same client (stream_load.h) and the same message sizes.
//
//   1. npcd: a whole daemon in-process (Daemon: Simulation, ClientHub, NpcService, tick
//      thread) on a loopback port, demo archetypes, empty world, no hibernation, ticking at
//      --tick-hz (default 1000: back to back, so the tick rate does not cap what goes out).
//      --max-inbox-commands sets its back-pressure threshold (config max_inbox_commands).
//      The client floods WorldUpdates (every NPC and player upserted, results for every
//      action received) and reads the actions npcd sends.
//   2. echo: EchoService on another loopback port, answering each update with one
//      ServerMessage of as many actions as npcd's messages carried on average, copied from
//      actions npcd sent. The same client sends the same frames.
//
// Reported: world updates/s in, messages/s and actions/s out, each as a ratio of the echo's;
// and the CPU time each kind of thread spent per update in the window (readThreadCpu):
// npcd's tick thread and pool, the client's "load-" threads, and gRPC's own threads, which
// read and parse the updates on the server side.
// --check turns the run into a smoke test: exit 1 unless every echo update was answered,
// every stream ended OK, npcd welcomed every stream and sent actions. Error events (late
// results refused) are counted in the report, not failed on.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <grpcpp/grpcpp.h>

#include "config.h"
#include "daemon.h"
#include "echo_service.h"
#include "process_metrics.h"
#include "stream_load.h"

using namespace npc;
using namespace npc::bench;

namespace {

struct Options {
  LoadShape shape;
  double warmup_s = 1.0;
  double seconds = 5.0;
  double tick_hz = 1000.0;
  bool check = false;
  uint32_t max_inbox_commands = 0;  // 0: as config/npcd.json has it
};

// What a thread of this process is, by its name.
std::string threadGroup(const std::string& name) {
  if (name == "npcd-tick") return "npcd tick";
  if (name.rfind("npcd-pool", 0) == 0) return "npcd pool";
  if (name.rfind("npcd-", 0) == 0) return "npcd other";
  if (name.rfind("load-", 0) == 0) return "client";
  return "gRPC";  // gRPC's threads (both sides of the loopback) and the bench's main
}

// CPU seconds (user + system) of this process's live threads, by threadGroup().
using CpuByGroup = std::map<std::string, double>;
CpuByGroup threadCpu() {
  CpuByGroup cpu;
  for (const ThreadCpu& t : readThreadCpu()) cpu[threadGroup(t.name)] += t.cpu_seconds;
  return cpu;
}

CpuByGroup minus(const CpuByGroup& a, const CpuByGroup& b) {
  CpuByGroup d = a;
  for (const auto& [group, seconds] : b) d[group] -= seconds;
  return d;
}

// Rates over the measured window, and what the whole run ended with.
struct Measured {
  double seconds = 0.0;
  LoadCounts window;  // differences over the window
  CpuByGroup cpu;     // CPU seconds per thread group over the window
  LoadCounts total;   // after stop(): everything
  std::vector<StreamEnd> ends;
  std::vector<v1::Action> sample;
  double rate(uint64_t n) const { return seconds > 0 ? double(n) / seconds : 0.0; }
};

LoadCounts minus(const LoadCounts& a, const LoadCounts& b) {
  return {a.updates_sent - b.updates_sent,         a.update_bytes - b.update_bytes,
          a.results_sent - b.results_sent,         a.messages_received - b.messages_received,
          a.message_bytes - b.message_bytes,       a.actions_received - b.actions_received,
          a.error_events - b.error_events};
}

Measured measure(const Options& o, int port) {
  StreamLoad load(o.shape, "127.0.0.1:" + std::to_string(port));
  load.start();
  std::this_thread::sleep_for(std::chrono::duration<double>(o.warmup_s));
  const LoadCounts before = load.counts();
  const CpuByGroup cpu_before = threadCpu();
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
  const LoadCounts after = load.counts();
  Measured m;
  m.cpu = minus(threadCpu(), cpu_before);
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m.window = minus(after, before);
  m.sample = load.sampleActions();
  m.ends = load.stop();
  m.total = load.counts();
  return m;
}

DaemonConfig benchDaemonConfig(const Options& o) {
  DaemonConfig c;
  std::vector<std::string> errors;
  if (!loadConfigFile(NPCD_SOURCE_DIR "/config/npcd.json", c, errors)) {
    for (const auto& e : errors) std::fprintf(stderr, "%s\n", e.c_str());
    std::exit(2);
  }
  c.listen = "127.0.0.1:0";
  c.world = "";                 // only the bench's bodies
  c.simulated_players = false;  // no demo game
  c.hibernation.enabled = false;
  c.metrics_listen = "";
  c.debug_listen = "";
  c.status_interval_s = 0;
  c.definitions_poll_s = 0;
  c.log_level = "warn";
  c.shutdown_grace_s = 1;
  c.tick_hz = o.tick_hz;
  c.watchdog.warn_budgets = 1e6;  // back-to-back ticks overrun their 1 ms budget by design
  if (o.max_inbox_commands > 0) c.max_inbox_commands = o.max_inbox_commands;
  c.max_items_per_update = static_cast<uint32_t>(o.shape.max_items_per_update);
  return c;
}

// The echo's one reply: `count` actions cycled from what npcd sent.
v1::ServerMessage echoReply(const std::vector<v1::Action>& sample, size_t count) {
  v1::ServerMessage reply;
  reply.set_tick(1);
  reply.set_sim_time(0.1);
  for (size_t i = 0; i < count && !sample.empty(); ++i) *reply.add_actions() = sample[i % sample.size()];
  return reply;
}

double perMessage(uint64_t n, uint64_t messages) { return messages ? double(n) / double(messages) : 0.0; }

void printRow(const char* what, const Measured& m) {
  const LoadCounts& w = m.window;
  std::printf("%-6s %12.0f %12.0f %12.0f %10.0f %10.0f %10.1f\n", what, m.rate(w.updates_sent),
              m.rate(w.messages_received), m.rate(w.actions_received),
              perMessage(w.update_bytes, w.updates_sent), perMessage(w.message_bytes, w.messages_received),
              perMessage(w.actions_received, w.messages_received));
}

bool streamsEndedOk(const char* what, const Measured& m, bool need_welcome) {
  bool ok = true;
  for (size_t i = 0; i < m.ends.size(); ++i) {
    if (!m.ends[i].status.ok()) {
      std::printf("FAIL %s stream %zu ended %d: %s\n", what, i, int(m.ends[i].status.error_code()),
                  m.ends[i].status.error_message().c_str());
      ok = false;
    }
    // Not a failure: flooding, a result can reach npcd after the agent gave the intention
    // up ("not in the agent's queue"); the count is in the report.
    if (!m.ends[i].first_error.empty()) {
      std::printf("note: %s stream %zu first error event: %s\n", what, i, m.ends[i].first_error.c_str());
    }
    if (need_welcome && !m.ends[i].welcomed) {
      std::printf("FAIL %s stream %zu: no Welcome first\n", what, i);
      ok = false;
    }
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app("npcd's Connect stream path against a bare gRPC echo, same client, same sizes");
  app.add_option("--streams", o.shape.streams, "Connect streams (one TCP connection each)");
  app.add_option("--npcs", o.shape.npcs_per_stream, "NPCs upserted per update, per stream");
  app.add_option("--players", o.shape.players_per_stream, "players upserted per update, per stream");
  app.add_option("--warmup", o.warmup_s, "seconds before the window");
  app.add_option("--seconds", o.seconds, "measured window, seconds");
  app.add_option("--tick-hz", o.tick_hz, "npcd's tick rate (1000: back to back)");
  app.add_option("--max-inbox-commands", o.max_inbox_commands,
                 "npcd's back-pressure: reads pause while more commands wait for the tick");
  app.add_flag("--check", o.check, "exit 1 unless every update was answered and nothing failed");
  CLI11_PARSE(app, argc, argv);

  // 1. npcd.
  Daemon daemon(benchDaemonConfig(o));
  std::vector<std::string> errors;
  if (!daemon.start(errors)) {
    for (const auto& e : errors) std::fprintf(stderr, "%s\n", e.c_str());
    return 2;
  }
  const uint64_t tick_before = daemon.stats().load().sim.tick;
  const Measured npcd = measure(o, daemon.port());
  const DaemonStats stats = daemon.stats().load();
  daemon.shutdown();

  // 2. echo, with npcd's mean message size.
  const double actions_per_message = perMessage(npcd.window.actions_received, npcd.window.messages_received);
  const size_t echo_actions = std::max<size_t>(1, static_cast<size_t>(actions_per_message + 0.5));
  const v1::ServerMessage reply = echoReply(npcd.sample, echo_actions);
  EchoService echo(reply, /*max_owed=*/8);
  int echo_port = 0;
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &echo_port);
  builder.RegisterService(&echo);
  builder.SetMaxReceiveMessageSize(4 << 20);  // npcd's max_message_bytes default
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || echo_port == 0) {
    std::fprintf(stderr, "echo server did not start\n");
    return 2;
  }
  const Measured bare = measure(o, echo_port);
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));

  // Report.
  std::printf("stream_bench: %zu streams x (%zu NPCs + %zu players) per update, %.1f s window, "
              "npcd tick_hz %.0f, %u hardware threads\n",
              o.shape.streams, o.shape.npcs_per_stream, o.shape.players_per_stream, o.seconds,
              o.tick_hz, std::thread::hardware_concurrency());
  std::printf("%-6s %12s %12s %12s %10s %10s %10s\n", "", "updates/s in", "messages/s", "actions/s",
              "B/update", "B/message", "actions/msg");
  printRow("echo", bare);
  printRow("npcd", npcd);
  const auto ratio = [](double a, double b) { return b > 0 ? 100.0 * a / b : 0.0; };
  std::printf("npcd / echo: updates in %.0f %%, messages out %.0f %%, actions out %.0f %%\n",
              ratio(npcd.rate(npcd.window.updates_sent), bare.rate(bare.window.updates_sent)),
              ratio(npcd.rate(npcd.window.messages_received), bare.rate(bare.window.messages_received)),
              ratio(npcd.rate(npcd.window.actions_received), bare.rate(bare.window.actions_received)));
  std::printf("npcd: %llu ticks run (%.0f/s), tick p50 %.2f ms p99 %.2f ms; %llu agents; "
              "%llu commands refused, %llu error events received; %.0f %% of commands applied "
              "were upserts a later one superseded\n",
              static_cast<unsigned long long>(stats.sim.tick - tick_before),
              double(stats.sim.tick - tick_before) / (o.warmup_s + o.seconds), stats.tick_p50_ms,
              stats.tick_p99_ms, static_cast<unsigned long long>(stats.sim.agents),
              static_cast<unsigned long long>(stats.sim.errors),
              static_cast<unsigned long long>(npcd.total.error_events),
              ratio(static_cast<double>(stats.sim.upserts_coalesced),
                    static_cast<double>(stats.sim.commands_applied)));
  std::printf("CPU per update, us (by thread):");
  for (const auto* run : {&bare, &npcd}) {
    const double updates = static_cast<double>(run->window.updates_sent);
    std::printf("\n  %-5s", run == &bare ? "echo" : "npcd");
    double total = 0.0;
    for (const auto& [group, seconds] : run->cpu) {
      if (seconds <= 0.0) continue;
      std::printf(" %s %.1f,", group.c_str(), updates > 0 ? 1e6 * seconds / updates : 0.0);
      total += seconds;
    }
    std::printf(" total %.1f", updates > 0 ? 1e6 * total / updates : 0.0);
  }
  std::printf("\n");
  std::printf("npcd phases p50 / p99 ms:");
  for (TickPhase phase : kTickPhases) {
    const auto& p = stats.phases[index(phase)];
    std::printf(" %s %.2f/%.2f", std::string(tickPhaseName(phase)).c_str(), p.p50_ms, p.p99_ms);
  }
  std::printf("\n");

  if (!o.check) return 0;
  bool ok = streamsEndedOk("echo", bare, false) && streamsEndedOk("npcd", npcd, true);
  if (bare.total.messages_received != bare.total.updates_sent) {
    std::printf("FAIL echo: %llu updates sent, %llu replies received\n",
                static_cast<unsigned long long>(bare.total.updates_sent),
                static_cast<unsigned long long>(bare.total.messages_received));
    ok = false;
  }
  if (npcd.total.actions_received == 0) {
    std::printf("FAIL npcd: no action received\n");
    ok = false;
  }
  std::printf(ok ? "check: ok\n" : "check: FAILED\n");
  return ok ? 0 : 1;
}
