#include "goap/plan_command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace npc::goap {

namespace {

const char* statusWord(const PlanResult& r) {
  switch (r.status) {
    case PlanStatus::kFound: return "plan";
    case PlanStatus::kPartial: return "partial";
    default: return "no_plan";
  }
}

std::string number(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  return buf;
}

BucketId bucketOf(const GoapDomain& d, GoalId goal) {
  for (size_t b = 0; b < d.buckets().size(); ++b) {
    const auto& goals = d.buckets()[b].goals;
    if (std::find(goals.begin(), goals.end(), goal) != goals.end()) return static_cast<BucketId>(b);
  }
  return BucketId{0};
}

struct GoalRun {
  const PlanResult* result;
  uint64_t micros;
};

void printText(const GoapDomain& d, const GoalDef& goal, const GoalRun& run, std::string& out) {
  const PlanResult& r = *run.result;
  out += "goal " + goal.name + ": " + statusWord(r);
  if (r.status == PlanStatus::kFound || r.status == PlanStatus::kPartial)
    out += ", cost " + number(r.cost) + ", " + std::to_string(r.step_count) +
           (r.step_count == 1 ? " step" : " steps");
  if (r.flags & kPlanAlreadySatisfied) out += " (already satisfied)";
  out += ", " + std::to_string(r.expansions) + " expansions, " + std::to_string(run.micros) +
         " us\n";
  for (int i = 0; i < r.step_count; ++i)
    out += "  " + std::to_string(i + 1) + ". " + d.action(r.steps[i].action).name + "  " +
           number(r.steps[i].cost) + "\n";
  if (r.status != PlanStatus::kFound) {
    std::istringstream why(explain(r, d));
    for (std::string line; std::getline(why, line);) out += "  " + line + "\n";
  }
}

void printJson(const GoapDomain& d, const GoalDef& goal, const GoalRun& run, std::string& out) {
  const PlanResult& r = *run.result;
  nlohmann::json j = {{"goal", goal.name}, {"status", statusWord(r)}, {"cost", r.cost},
                      {"steps", nlohmann::json::array()}, {"expansions", r.expansions},
                      {"micros", run.micros}};
  for (int i = 0; i < r.step_count; ++i) j["steps"].push_back(d.action(r.steps[i].action).name);
  if (r.status != PlanStatus::kFound) j["why"] = explain(r, d);
  out += j.dump() + "\n";
}

}  // namespace

const char* planCommandUsage() {
  return "usage: npcd plan DOMAIN.json|DIR [--goal NAME] [--set fact=value ...] [--json]\n"
         "  plans each goal (or NAME) from the domain's initial state; exit 0 when every goal\n"
         "  was planned, 1 when one was not, 2 on a domain error or bad arguments\n";
}

bool parsePlanCommand(std::span<const std::string> args, PlanCommandOptions& out,
                      std::string& error) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) -> const std::string* {
      if (i + 1 < args.size()) return &args[++i];
      error = std::string(flag) + " needs a value";
      return nullptr;
    };
    if (a == "--json") {
      out.json = true;
    } else if (a == "--goal") {
      const std::string* v = value("--goal");
      if (!v) return false;
      out.goal = *v;
    } else if (a == "--set") {
      const std::string* v = value("--set");
      if (!v) return false;
      const size_t eq = v->find('=');
      if (eq == std::string::npos || eq == 0) {
        error = "--set " + *v + ": expected fact=value";
        return false;
      }
      out.sets.emplace_back(v->substr(0, eq), v->substr(eq + 1));
    } else if (a.starts_with("--")) {
      error = "unknown option " + a;
      return false;
    } else if (out.path.empty()) {
      out.path = a;
    } else {
      error = "one domain file or directory expected, got also " + a;
      return false;
    }
  }
  if (out.path.empty()) error = "a domain file or directory is required";
  return error.empty();
}

PlanCommandResult runPlanCommand(const PlanCommandOptions& o, const PlanClock* clock) {
  PlanCommandResult res;
  GoapLibrary lib;
  GoapLoadReport report;
  std::error_code ec;
  if (std::filesystem::is_directory(o.path, ec)) {
    report = lib.loadDirectory(o.path);
  } else {
    std::ifstream in(o.path, std::ios::binary);
    if (!in) {
      res.err = o.path + ": cannot read the file\n";
      res.exit_code = 2;
      return res;
    }
    std::stringstream text;
    text << in.rdbuf();
    report = lib.loadText(o.path, text.str());
  }
  if (!report.ok()) {
    for (const std::string& e : report.errors) res.err += e + "\n";
    res.exit_code = 2;
    return res;
  }
  bool goal_found = o.goal.empty();
  GoapPlanner planner;
  for (size_t di = 0; di < lib.size(); ++di) {
    const GoapDomain& d = lib.domain(di);
    GoapState start = d.initialState();
    for (const auto& [fact, value] : o.sets) {
      if (d.findFact(fact) == FactId::kNone) {
        res.err += d.file() + ": --set " + fact + "=" + value + ": no fact \"" + fact + "\"\n";
        res.exit_code = 2;
      } else if (!d.set(start, fact, value)) {
        res.err += d.file() + ": --set " + fact + "=" + value + ": not a value of \"" + fact + "\"\n";
        res.exit_code = 2;
      }
    }
    if (res.exit_code == 2) return res;
    if (!o.json) res.out += "domain " + d.name() + " (" + d.file() + ")\n";
    std::vector<TargetPosition> targets(d.targets().size());
    for (TargetPosition& t : targets) t.present = true;  // every target at the origin
    for (size_t g = 0; g < d.goals().size(); ++g) {
      const GoalDef& goal = d.goals()[g];
      if (!o.goal.empty() && goal.name != o.goal) continue;
      goal_found = true;
      PlanRequest r;
      r.domain = &d;
      r.bucket = bucketOf(d, static_cast<GoalId>(g));
      r.start = start;
      r.targets = targets;
      r.addGoal(static_cast<GoalId>(g));
      const uint64_t t0 = clock ? clock->nowNs() : 0;
      const PlanResult& result = planner.plan(r);
      const uint64_t micros = clock ? (clock->nowNs() - t0) / 1000 : 0;
      if (result.status != PlanStatus::kFound) res.exit_code = 1;
      (o.json ? printJson : printText)(d, goal, {&result, micros}, res.out);
    }
  }
  if (!goal_found) {
    res.err += o.path + ": no goal \"" + o.goal + "\"\n";
    res.exit_code = 2;
  }
  return res;
}

PlanCommandResult planCommandMain(std::span<const std::string> args, const PlanClock* clock) {
  PlanCommandOptions options;
  std::string error;
  if (!parsePlanCommand(args, options, error)) {
    PlanCommandResult res;
    res.exit_code = 2;
    res.err = "npcd plan: " + error + "\n" + planCommandUsage();
    return res;
  }
  return runPlanCommand(options, clock);
}

}  // namespace npc::goap
