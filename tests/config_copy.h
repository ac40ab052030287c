// A scratch copy of the shipped config/ directory (npcd.json, definitions, world), removed
// again at the end of the test: for tests that edit or break definition files the way a
// designer does. Needs NPCD_SOURCE_DIR; uses Catch2's REQUIRE.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace npc::test {

class ConfigCopy {
 public:
  // `tag` keeps the copies of different test binaries running at once apart.
  explicit ConfigCopy(const std::string& tag)
      : root_(std::filesystem::temp_directory_path() /
              ("npcd_" + tag + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(root_);
    std::filesystem::copy(NPCD_SOURCE_DIR "/config", root_,
                          std::filesystem::copy_options::recursive);
  }
  ~ConfigCopy() { std::filesystem::remove_all(root_); }
  ConfigCopy(const ConfigCopy&) = delete;
  ConfigCopy& operator=(const ConfigCopy&) = delete;

  // The copy's directory, or a file in it.
  std::string path(const std::string& file = "") const {
    return (root_ / file).lexically_normal().string();
  }
  // Replaces the first `from` in the file with `to`; the test fails if there is none.
  void edit(const std::string& file, const std::string& from, const std::string& to) const {
    std::ifstream in(root_ / file);
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    const size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    s.replace(at, from.size(), to);
    std::ofstream(root_ / file, std::ios::trunc) << s;
  }
  void write(const std::string& file, const std::string& text) const {
    std::filesystem::create_directories((root_ / file).parent_path());
    std::ofstream(root_ / file, std::ios::trunc) << text;
  }

 private:
  std::filesystem::path root_;
};

}  // namespace npc::test
