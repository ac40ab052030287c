// The snapshot directory: files named by tick, only the newest `keep` kept, and `latest`
// falling back past a damaged newest file, saying why.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "snapshot_store.h"

using namespace npc;
namespace pb = ::npc::state::v1;

namespace {

std::string snapshotAt(uint64_t tick) {
  pb::SimState s;
  s.set_tick(tick);
  SnapshotInfo info;
  info.definitions_hash = "feedfeedfeedfeed";
  return encodeSnapshot(s, info);
}

struct StoreDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("npcd-store-test-" + std::to_string(::getpid()));
  StoreDir() { std::filesystem::remove_all(path); }
  ~StoreDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("the store keeps the newest snapshots only", "[state][store]") {
  StoreDir dir;
  SnapshotStore store(dir.path.string(), 2);
  std::string path;
  for (uint64_t tick : {100, 200, 300}) REQUIRE(store.write(tick, snapshotAt(tick), path).isOk());
  CHECK(path == (dir.path / "snapshot-000000000300.npcsnap").string());
  const std::vector<std::string> files = store.list();
  REQUIRE(files.size() == 2);
  CHECK(files[0] == store.pathFor(300));
  CHECK(files[1] == store.pathFor(200));
}

TEST_CASE("latest falls back past a damaged snapshot and says why", "[state][store]") {
  StoreDir dir;
  SnapshotStore store(dir.path.string(), 5);
  std::string path;
  REQUIRE(store.write(100, snapshotAt(100), path).isOk());
  REQUIRE(store.write(200, snapshotAt(200), path).isOk());
  std::string bytes = snapshotAt(200);
  std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() - 1);
  pb::SnapshotHeader header;
  pb::SimState state;
  std::string error;
  const SnapshotStore::Restored r = store.latest("feedfeedfeedfeed", header, state, error);
  CHECK(r.path == store.pathFor(100));
  CHECK(state.tick() == 100);
  REQUIRE(r.skipped.size() == 1);
  CHECK_THAT(r.skipped[0], Catch::StartsWith(store.pathFor(200) + ": truncated: the body has"));
}

TEST_CASE("latest with no usable snapshot names the directory", "[state][store]") {
  StoreDir dir;
  SnapshotStore store(dir.path.string(), 5);
  pb::SnapshotHeader header;
  pb::SimState state;
  std::string error;
  CHECK(store.latest("x", header, state, error).path.empty());
  CHECK(error == dir.path.string() + ": no snapshot to restore");
  std::string path;
  REQUIRE(store.write(100, snapshotAt(100), path).isOk());
  CHECK(store.latest("other", header, state, error).path.empty());
  CHECK_THAT(error, Catch::StartsWith(dir.path.string() + ": no usable snapshot (1 refused; newest: " +
                                      store.pathFor(100) + ": taken with other definitions"));
}
