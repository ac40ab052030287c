// Action latency: how long after the tick that emitted it an action reaches the game.
//
// The daemon stamps every ServerMessage with its `tick`; it does not send wall-clock time.
// Its ticks are due on a fixed grid (t0 + k * tick_dt, server README "Tick policy"), so on
// the harness's steady clock the message of tick T arrives at
//     recv = t0 + T * tick_dt + latency(T)
// and each message yields an offset  recv - T * tick_dt = t0 + latency(T).  The Welcome
// gives tick_dt and the first tick number (it is sent between ticks, so it is not itself a
// sample). The anchor is  base = the smallest offset seen:  t0 plus the fastest turnaround.
// To make that turnaround tiny, the runner first listens for 2 s to an idle daemon (before
// the bots add load; the demo world's NPCs act every few seconds), whose ticks take
// microseconds; every message of the run then refines it. An action's latency is
//     offset - base,  in seconds and in ticks (/ tick_dt):
// the time from its tick's slot on the grid to its arrival at the client — the tick's own
// work (perception, decisions, publish), outbox queueing, transport and the client's read,
// minus the idle tick's few microseconds. If the daemon falls behind its grid (overruns
// skip slots), simulated time lags the game's clock and latencies grow accordingly: that
// lag is a delay the game sees too. With no idle-tick messages (an empty world) the anchor
// is the run's fastest message, and latencies read as "beyond the best case".
//
// Thread safety: none; the runner owns one LatencyBook and feeds it from the clients.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace npc::bots {

struct LatencySample {
  double recv_s = 0.0;    // harness clock when the message arrived
  double offset_s = 0.0;  // recv_s - tick * tick_dt
  uint32_t actions = 0;   // actions it carried (0: it only anchors)
};

struct LatencySummary {
  uint64_t actions = 0;  // actions the percentiles are over
  double p50_s = 0.0;
  double p99_s = 0.0;
  double max_s = 0.0;
};

class LatencyBook {
 public:
  // Every sample moves the anchor; samples with actions are kept for the live line until
  // the next takeWindow(), and for the run's percentiles when recv_s is within
  // [measure_from_s, measure_to_s).
  void add(const LatencySample& sample, double measure_from_s, double measure_to_s);

  double base() const { return base_; }
  bool anchored() const { return base_ < std::numeric_limits<double>::infinity(); }

  // Percentiles over the kept samples, weighted by their actions, against base().
  LatencySummary run() const { return summarize(kept_); }
  // Percentiles since the previous call, then forgets them.
  LatencySummary takeWindow();

 private:
  LatencySummary summarize(std::vector<LatencySample> samples) const;

  double base_ = std::numeric_limits<double>::infinity();
  std::vector<LatencySample> kept_;
  std::vector<LatencySample> window_;
};

}  // namespace npc::bots
