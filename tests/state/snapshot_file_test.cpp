// Snapshot files: what is written reads back; every damaged or foreign file is refused
// with a message naming the file and the reason.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <catch2/catch.hpp>

#include "snapshot_file.h"

using namespace npc;
namespace pb = ::npc::state::v1;

namespace {

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("npcd-snapshot-test-" + std::to_string(::getpid()) + "-" +
            std::to_string(reinterpret_cast<uintptr_t>(this)));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

pb::SimState smallState() {
  pb::SimState s;
  s.set_tick(42);
  s.set_next_intention_id(7);
  pb::EntityState& e = *s.mutable_world()->add_entities();
  e.set_id(9001);
  e.set_species("player");
  e.mutable_position()->set_x(3.5f);
  pb::AgentState& a = *s.add_agents();
  a.set_id(1101);
  a.set_archetype("baker");
  pb::ItemCount& bread = *a.mutable_inventory()->add_items();
  bread.set_item("bread");
  bread.set_count(14);
  return s;
}

SnapshotInfo info(const std::string& hash = "00000000cafef00d") {
  SnapshotInfo i;
  i.definitions_hash = hash;
  i.world_seed = 1;
  i.sim_time_s = 4.2;
  return i;
}

void writeRaw(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace

TEST_CASE("a snapshot written atomically reads back whole", "[state][file]") {
  TempDir dir;
  const std::string path = dir.file("a.npcsnap");
  REQUIRE(writeFileAtomically(path, encodeSnapshot(smallState(), info())).isOk());
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  pb::SnapshotHeader header;
  pb::SimState state;
  const Status s = readSnapshotFile(path, "00000000cafef00d", header, state);
  INFO(s.message());
  REQUIRE(s.isOk());
  CHECK(header.format_version() == kSnapshotFormatVersion);
  CHECK(header.tick() == 42);
  CHECK(header.agents() == 1);
  CHECK(header.definitions_hash() == "00000000cafef00d");
  CHECK(state.agents(0).inventory().items(0).count() == 14);
  CHECK(state.world().entities(0).id() == 9001);
}

TEST_CASE("a truncated snapshot is refused", "[state][file]") {
  TempDir dir;
  const std::string path = dir.file("cut.npcsnap");
  const std::string bytes = encodeSnapshot(smallState(), info());
  writeRaw(path, bytes.substr(0, bytes.size() - 5));
  pb::SnapshotHeader header;
  pb::SimState state;
  const Status s = readSnapshotFile(path, "", header, state);
  CHECK_FALSE(s.isOk());
  CHECK(s.message() == path + ": truncated: the body has " +
                           std::to_string(header.body_bytes() - 5) + " bytes, the header says " +
                           std::to_string(header.body_bytes()));

  writeRaw(path, bytes.substr(0, 10));
  CHECK(readSnapshotFile(path, "", header, state).message() ==
        path + ": truncated: 10 bytes, the header is missing");
  writeRaw(path, bytes.substr(0, 14));
  CHECK_THAT(readSnapshotFile(path, "", header, state).message(),
             Catch::Matches(".*cut\\.npcsnap: truncated: the header needs [0-9]+ bytes, 2 are left"));
}

TEST_CASE("a snapshot with a flipped byte is refused by its checksum", "[state][file]") {
  TempDir dir;
  const std::string path = dir.file("flip.npcsnap");
  std::string bytes = encodeSnapshot(smallState(), info());
  bytes[bytes.size() - 3] = static_cast<char>(bytes[bytes.size() - 3] ^ 0x10);
  writeRaw(path, bytes);
  pb::SnapshotHeader header;
  pb::SimState state;
  const Status s = readSnapshotFile(path, "", header, state);
  CHECK_FALSE(s.isOk());
  CHECK_THAT(s.message(), Catch::Matches(".*flip\\.npcsnap: checksum mismatch \\(body crc32 "
                                         "0x[0-9a-f]{8}, header says 0x[0-9a-f]{8}\\): the "
                                         "file is corrupt"));
}

// The file of `bytes` with a header claiming `version`.
std::string withFormatVersion(const std::string& bytes, uint32_t version) {
  const uint32_t head_bytes = static_cast<uint8_t>(bytes[8]) | static_cast<uint8_t>(bytes[9]) << 8;
  pb::SnapshotHeader header;
  REQUIRE(header.ParseFromString(bytes.substr(12, head_bytes)));
  header.set_format_version(version);
  const std::string head = header.SerializeAsString();
  std::string rebuilt = bytes.substr(0, 8);
  for (int i = 0; i < 4; ++i) rebuilt.push_back(static_cast<char>((head.size() >> (8 * i)) & 0xFF));
  return rebuilt + head + bytes.substr(12 + head_bytes);
}

TEST_CASE("a snapshot of another format version is refused", "[state][file]") {
  TempDir dir;
  const std::string bytes = encodeSnapshot(smallState(), info());
  pb::SnapshotHeader header;
  pb::SimState state;
  SECTION("Should refuse version 1, whose sleepers had nested records with names") {
    const std::string path = dir.file("v1.npcsnap");
    writeRaw(path, withFormatVersion(bytes, 1));
    CHECK(readSnapshotFile(path, "", header, state).message() ==
          path + ": format version 1, this npcd reads version 2 (an older npcd wrote it)");
  }
  SECTION("Should refuse a version from a newer npcd") {
    const std::string path = dir.file("v3.npcsnap");
    writeRaw(path, withFormatVersion(bytes, 3));
    CHECK(readSnapshotFile(path, "", header, state).message() ==
          path + ": format version 3, this npcd reads version 2 (a newer npcd wrote it)");
  }
}

TEST_CASE("a snapshot taken with other definitions is refused", "[state][file]") {
  TempDir dir;
  const std::string path = dir.file("other.npcsnap");
  REQUIRE(writeFileAtomically(path, encodeSnapshot(smallState(), info("1111222233334444"))).isOk());
  pb::SnapshotHeader header;
  pb::SimState state;
  CHECK(readSnapshotFile(path, "aaaabbbbccccdddd", header, state).message() ==
        path + ": taken with other definitions (hash 1111222233334444, loaded aaaabbbbccccdddd): "
               "restore it with the definitions it was taken with");
}

TEST_CASE("a file that is not a snapshot, or is missing, is refused", "[state][file]") {
  TempDir dir;
  const std::string path = dir.file("notes.txt");
  writeRaw(path, "hello, this is not a snapshot");
  pb::SnapshotHeader header;
  pb::SimState state;
  CHECK(readSnapshotFile(path, "", header, state).message() ==
        path + ": not an npcd snapshot (no NPCSNAP header)");
  CHECK(readSnapshotFile(dir.file("absent.npcsnap"), "", header, state).message() ==
        dir.file("absent.npcsnap") + ": cannot read: No such file or directory");
}
