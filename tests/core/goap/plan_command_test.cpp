// `npcd plan` (core/goap/plan_command.h): arguments, text and JSON reports, exit codes and
// located domain errors. The binary itself is exercised by tests/server/npcd_plan_test.sh.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "goap/plan_command.h"
#include "goap_test_support.h"

using namespace npc::goap;
using namespace npc::goap::test;

namespace {

const char* kErrand = R"({
  "domain": "errand",
  "facts": [ { "name": "coins", "type": "int", "min": 0, "max": 2, "initial": 2 },
             { "name": "has_food", "type": "bool" }, { "name": "rich", "type": "bool" } ],
  "actions": [
    { "name": "buy_food", "pre": [ { "fact": "coins", "op": ">=", "value": 1 } ],
      "effects": [ { "fact": "coins", "sub": 1 }, { "fact": "has_food", "set": true } ], "cost": 2 } ],
  "goals": [ { "name": "eat", "desired": [ { "fact": "has_food", "value": true } ] },
             { "name": "get_rich", "desired": [ { "fact": "rich", "value": true } ] } ]
})";

// Writes `text` to a fresh file under the temporary directory; returns its path.
std::string writeTemp(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "npcd_plan_command_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

PlanCommandResult run(std::vector<std::string> args) { return planCommandMain(args, nullptr); }

}  // namespace

TEST_CASE("npcd plan prints each goal's plan, no plan with its why, and exits 1",
          "[goap][plan_command]") {
  const std::string path = writeTemp("errand.json", kErrand);
  const PlanCommandResult r = run({path});
  CHECK(r.exit_code == 1);
  CHECK(r.err.empty());
  CHECK(r.out == "domain errand (" + path + ")\n"
                 "goal eat: plan, cost 2, 1 step, 1 expansions, 0 us\n"
                 "  1. buy_food  2\n"
                 "goal get_rich: no_plan, 0 expansions, 0 us\n"
                 "  no plan for \"get_rich\": \"rich = true\" never held (unreachable even "
                 "ignoring negative effects); no action in the bucket achieves it\n");
}

TEST_CASE("npcd plan --goal --set --json: one object per goal, exit 0 when planned",
          "[goap][plan_command]") {
  const std::string path = writeTemp("errand.json", kErrand);
  SECTION("Should plan only the named goal") {
    const PlanCommandResult r = run({path, "--goal", "eat", "--json"});
    CHECK(r.exit_code == 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK(j == nlohmann::json::parse(R"({"goal": "eat", "status": "plan", "cost": 2.0,
        "steps": ["buy_food"], "expansions": 1, "micros": 0})"));
  }
  SECTION("Should start from the --set values") {
    const PlanCommandResult r = run({path, "--goal", "eat", "--set", "coins=0", "--json"});
    CHECK(r.exit_code == 1);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK(j["status"] == "no_plan");
    CHECK(j["why"] == "no plan for \"eat\": \"has_food = true\" never held (unreachable even "
                      "ignoring negative effects); achievers: buy_food (never \"coins >= 1\")");
  }
  SECTION("Should refuse an unknown fact, value or goal with exit code 2") {
    PlanCommandResult r = run({path, "--set", "gold=1"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == path + ": --set gold=1: no fact \"gold\"\n");
    r = run({path, "--set", "coins=7"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == path + ": --set coins=7: not a value of \"coins\"\n");
    r = run({path, "--goal", "fly"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == path + ": no goal \"fly\"\n");
  }
}

TEST_CASE("npcd plan reports a domain error as the loader locates it, exit 2",
          "[goap][plan_command]") {
  std::string broken = kErrand;
  broken.replace(broken.find("\"op\": \">=\""), 10, "\"op\": \"~\"");
  const std::string path = writeTemp("broken.json", broken);
  const PlanCommandResult r = run({path});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == path + ":6:61: /actions/0/pre/0/op: expected one of = != < <= > >=\n");
}

TEST_CASE("npcd plan refuses bad arguments with the usage, exit 2", "[goap][plan_command]") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{}, {"a.json", "--goal"}, {"a.json", "--set", "x"},
        {"a.json", "--fast"}, {"a.json", "b.json"}}) {
    const PlanCommandResult r = run(args);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("npcd plan: ") && Catch::Contains("usage: npcd plan"));
  }
  CHECK(run({"a.json", "--goal"}).err.starts_with("npcd plan: --goal needs a value\n"));
  CHECK(run({"/nonexistent/x.json"}).err == "/nonexistent/x.json: cannot read the file\n");
}
