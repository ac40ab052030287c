// `npcd check`: the shipped config passes; broken files of every kind are each named once,
// relative to the config's directory, and the exit code says whether anything is wrong.
#include <catch2/catch.hpp>

#include <sstream>

#include "check_command.h"
#include "config_copy.h"

namespace npc {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

size_t countStarting(const std::vector<std::string>& lines, const std::string& prefix) {
  size_t n = 0;
  for (const std::string& l : lines) n += l.compare(0, prefix.size(), prefix) == 0;
  return n;
}

}  // namespace

TEST_CASE("npcd check passes the shipped definitions", "[check]") {
  const CheckCommandResult r = checkCommandMain({NPCD_SOURCE_DIR "/config/npcd.json"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find(": 0 errors, 0 warnings") != std::string::npos);
}

TEST_CASE("npcd check names every broken file once, relative to the config", "[check]") {
  const test::ConfigCopy config("check");
  config.edit("behavior_trees/GuardCombat.xml", "<Sequence>", "<Sequenc>");
  config.edit("selection_trees/Grunt.xml", "<Priority", "<Priorit");
  config.edit("long_actions.json", "\"turn_s\"", "\"turn_z\"");
  config.edit("demo.json", "\"archetype\": \"guard\"", "\"archetype\": \"gaurd\"");

  // A directory stands for its npcd.json.
  const CheckCommandResult r = checkCommandMain({config.path()});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  const std::vector<std::string> errors = lines(r.err);
  CHECK(countStarting(errors, "behavior_trees/GuardCombat.xml:") == 1);
  CHECK(countStarting(errors, "selection_trees/Grunt.xml:") == 1);
  CHECK(countStarting(errors, "long_actions.json") >= 1);
  CHECK(countStarting(errors, "demo.json") >= 1);
  CHECK(r.err.find("not loaded") == std::string::npos);  // no cascade from the broken tree
  CHECK(r.err.find(config.path()) == std::string::npos);  // paths relative to the config
  CHECK(r.out == config.path("npcd.json") + ": " + std::to_string(errors.size()) +
                     " errors, 0 warnings\n");
}

TEST_CASE("npcd check refuses a config it cannot read", "[check]") {
  const CheckCommandResult missing = checkCommandMain({"/nonexistent/npcd.json"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("/nonexistent/npcd.json") != std::string::npos);
  const CheckCommandResult two = checkCommandMain({"a.json", "b.json"});
  CHECK(two.exit_code == 2);
  CHECK(two.err == "usage: npcd check [CONFIG.json|DIR]\n");
}

}  // namespace npc
