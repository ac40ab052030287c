// build_info: the version and revision `npcd --version`, the start-up log line and the
// npcd_build_info metric report.
#include <regex>
#include <string>

#include <catch2/catch.hpp>

#include "build_info.h"

using namespace npc;

TEST_CASE("The build reports CMake's project version as semver", "[build_info]") {
  const std::string version(buildVersion());
  REQUIRE(version == NPCD_PROJECT_VERSION);
  REQUIRE(std::regex_match(version, std::regex(R"(\d+\.\d+\.\d+)")));
}

TEST_CASE("The build reports a git revision or says it has none", "[build_info]") {
  const std::string revision(buildRevision());
  INFO("revision " << revision);
  REQUIRE((revision == "unknown" || std::regex_match(revision, std::regex("[0-9a-f]{12}(-dirty)?"))));
}

TEST_CASE("The version line names the program, version and revision", "[build_info]") {
  REQUIRE(versionLine() ==
          "npcd " NPCD_PROJECT_VERSION " (revision " + std::string(buildRevision()) + ")");
}
