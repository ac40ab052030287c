// Tests over the real corpus in ../shared/corpus (see SOURCES.md there). Where the corpus
// is not checked out they are reported SKIPPED to ctest (the marker below matches the
// SKIP_REGULAR_EXPRESSION of tests/CMakeLists.txt), never passed; with CI=true a missing
// corpus fails them instead, so CI cannot go green without running them.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string_view>

#include <catch2/catch.hpp>

namespace npc::test {

inline constexpr std::string_view kSkippedMarker = "SKIPPED because";

// True when `dir` exists; otherwise prints the skip marker (or fails under CI=true).
inline bool sharedCorpusPresent(const std::filesystem::path& dir) {
  if (std::filesystem::is_directory(dir)) return true;
  const char* ci = std::getenv("CI");
  if (ci && std::string_view(ci) == "true") {
    FAIL("corpus not found at " << dir.string() << " (CI=true requires it)");
  }
  std::cout << kSkippedMarker << " the corpus is not found at " << dir.string() << "\n";
  return false;
}

}  // namespace npc::test
