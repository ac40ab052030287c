// The definitions hash: the same files give the same hash, any changed byte or name
// another one.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "definitions_hash.h"

using namespace npc;

namespace {

struct DefinitionsDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("npcd-hash-test-" + std::to_string(::getpid()));
  DefinitionsDir() {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path / "trees" / "sub");
    write("trees/a.xml", "<BehaviorTree/>");
    write("trees/sub/b.xml", "<BehaviorTree name=\"b\"/>");
    write("world.json", "{}");
  }
  ~DefinitionsDir() { std::filesystem::remove_all(path); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(path / name, std::ios::binary) << text;
  }
  std::vector<std::string> paths() const {
    return {(path / "trees").string(), "", (path / "world.json").string()};
  }
};

}  // namespace

TEST_CASE("the definitions hash is stable and sees every change", "[state][hash]") {
  DefinitionsDir dir;
  const std::string hash = definitionsHash(dir.paths());
  CHECK(hash.size() == 16);
  CHECK(definitionsHash(dir.paths()) == hash);

  SECTION("Should change with a file's contents") {
    dir.write("trees/sub/b.xml", "<BehaviorTree name=\"c\"/>");
    CHECK(definitionsHash(dir.paths()) != hash);
  }
  SECTION("Should change with a new file") {
    dir.write("trees/c.xml", "");
    CHECK(definitionsHash(dir.paths()) != hash);
  }
  SECTION("Should change with a renamed file") {
    std::filesystem::rename(dir.path / "trees/a.xml", dir.path / "trees/z.xml");
    CHECK(definitionsHash(dir.paths()) != hash);
  }
  SECTION("Should not depend on where the directory is") {
    const auto moved = dir.path.string() + "-moved";
    std::filesystem::rename(dir.path, moved);
    const std::string there = definitionsHash(
        {moved + "/trees", "", moved + "/world.json"});
    std::filesystem::rename(moved, dir.path);
    CHECK(there == hash);
  }
}
