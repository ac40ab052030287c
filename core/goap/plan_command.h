// `npcd plan DOMAIN.json|DIR [--goal NAME] [--set fact=value ...] [--json]`: plans goals of
// a domain from its initial state, for designers checking a domain without a game.
//
// What it does
// - Loads one domain file, or every *.json of a directory (as the daemon does); a domain
//   error is reported exactly as the loader words it ("file: /json/path: message").
// - Plans each goal (or only NAME) of each domain separately with the domain's own search
//   settings (what the daemon uses), in the first bucket that lists the goal. There is no
//   world: the agent and every declared target stand at the origin and there are no smart
//   objects, so object actions are pruned ("no_candidate") and say so in the "why".
// - `--set fact=value` changes the start state (bool true/false, enum value name, integer).
//
// Output: per goal the status (plan / no plan with its "why" / partial), each step with its
// cost, the total cost, expansions and the time taken; with --json one object per line:
//   {"goal": "...", "status": "plan" | "no_plan" | "partial", "cost": c, "steps": [names],
//    "expansions": n, "micros": t, "why": "..." (when not a plan)}
// Exit code: 0 when every goal was planned (or already held), 1 when one was not (no plan or
// partial), 2 on a domain error, an unknown goal or fact, or bad arguments.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "goap/planner.h"

namespace npc::goap {

struct PlanCommandOptions {
  std::string path;                                       // domain file or directory
  std::string goal;                                       // empty: every goal
  std::vector<std::pair<std::string, std::string>> sets;  // fact=value, in order
  bool json = false;
};

struct PlanCommandResult {
  int exit_code = 0;
  std::string out;  // the report (stdout)
  std::string err;  // errors (stderr)
};

// Parses the words after "plan". False with `error` (one line) on misuse.
bool parsePlanCommand(std::span<const std::string> args, PlanCommandOptions& out,
                      std::string& error);

// Runs the command; `clock` (may be null: times show as 0) measures each search.
PlanCommandResult runPlanCommand(const PlanCommandOptions& options, const PlanClock* clock);

// parsePlanCommand + runPlanCommand; bad arguments give exit code 2 and the usage.
PlanCommandResult planCommandMain(std::span<const std::string> args, const PlanClock* clock);

const char* planCommandUsage();

}  // namespace npc::goap
