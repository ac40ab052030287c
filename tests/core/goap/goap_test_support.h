// Shared helpers for the GOAP tests: loading domains from inline JSON or the data
// directory, building requests, and reading plans as action names.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "goap/domain.h"
#include "goap/planner.h"

namespace npc::goap::test {

inline std::string dataPath(const std::string& name) {
  return std::string(NPCD_GOAP_DATA_DIR) + "/" + name;
}

// Loads one domain from inline JSON; fails the test with every error otherwise.
inline const GoapDomain& loadDomain(GoapLibrary& lib, const std::string& json,
                                    const std::string& file = "test.json") {
  const GoapLoadReport report = lib.loadText(file, json);
  INFO(report.text());
  REQUIRE(report.ok());
  REQUIRE(!report.loaded.empty());
  return *lib.find(report.loaded.back());
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Loads tests/core/goap/data/<file> (or any path containing '/').
inline const GoapDomain& loadDataDomain(GoapLibrary& lib, const std::string& file) {
  const std::string path = file.find('/') == std::string::npos ? dataPath(file) : file;
  const std::string text = readFile(path);
  REQUIRE(!text.empty());
  return loadDomain(lib, text, path);
}

inline PlanRequest request(const GoapDomain& d, std::initializer_list<const char*> goals,
                           const GoapState* start = nullptr) {
  PlanRequest r;
  r.domain = &d;
  r.start = start ? *start : d.initialState();
  for (const char* g : goals) {
    const GoalId id = d.findGoal(g);
    REQUIRE(id != GoalId::kNone);
    r.addGoal(id);
  }
  return r;
}

inline std::vector<std::string> names(const GoapDomain& d, const PlanResult& r) {
  std::vector<std::string> out;
  for (int i = 0; i < r.step_count; ++i) out.push_back(d.action(r.steps[i].action).name);
  return out;
}

inline GoapState stateWith(const GoapDomain& d,
                           std::initializer_list<std::pair<const char*, const char*>> facts) {
  GoapState s = d.initialState();
  for (const auto& [f, v] : facts) {
    INFO(f << "=" << v);
    REQUIRE(d.set(s, f, v));
  }
  return s;
}

}  // namespace npc::goap::test
