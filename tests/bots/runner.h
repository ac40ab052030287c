// runBots: one npcd-bots run. Connects (5 s at most), starts every BotClient, prints a live
// line every second, and after warmup_s + duration_s stops the clients, asks the daemon for
// its stats and prints the final report with the scenario's expectations checked.
//
// Rates (updates/s, actions/s) and latency percentiles cover the measured window only
// (after warm-up, before the farewell); errors and stream failures cover the whole run.
#pragma once

#include <string>

#include "scenario.h"

namespace npc::bots {

struct RunOptions {
  std::string target = "127.0.0.1:50051";  // host:port of npcd
  std::string token;                       // bearer token; "" = none
};

// Returns the process exit code: 0 when every expectation of the scenario held, 1 when one
// did not or the daemon could not be reached.
int runBots(const Scenario& scenario, const RunOptions& options);

}  // namespace npc::bots
