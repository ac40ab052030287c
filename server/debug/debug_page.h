// DebugPage: the daemon's debug page (config "debug_listen"): an HTTP server on its own
// thread serving the page built into the binary and the JSON it draws (DebugApi), the
// event recorder and the health history it keeps for it. Off unless debug_listen is set;
// Daemon::start refuses an address beyond loopback without credentials, and with them every
// request must carry a token of one (AccessControl: any role reads, admin switches plan
// tracing). See server/debug/README.md.
#pragma once

#include <memory>
#include <string>

#include "debug/debug_api.h"
#include "debug/event_recorder.h"
#include "debug/health_history.h"
#include "debug/http_server.h"
#include "sim/tick_profile.h"

namespace npc {

class DebugPage {
 public:
  DebugPage(Simulation& sim, const StatsBoard& stats, AccessControl access);
  ~DebugPage();  // stop()

  // Binds `listen` and starts serving; false with a message naming the address.
  bool start(const std::string& listen, std::string& error);
  int port() const { return http_.port(); }
  void stop() { http_.stop(); }

  // Tick thread, after each tick: record its events.
  void afterTick(const Simulation& sim) { events_.record(sim); }
  // Tick thread, after each tick: its duration, its phases and the daemon's figures.
  void observe(const DaemonStats& stats, double tick_s, const TickProfile& profile) {
    HealthHistory::PhaseMs phase_ms;
    for (TickPhase phase : kTickPhases) phase_ms[index(phase)] = static_cast<double>(profile.lastNs(phase)) / 1e6;
    health_.observe(stats, tick_s, HealthHistory::Clock::now(), phase_ms);
  }

 private:
  EventRecorder events_;
  HealthHistory health_;
  DebugApi api_;
  HttpServer http_;  // last: stopped (destroyed) before what its handler uses
};

}  // namespace npc
