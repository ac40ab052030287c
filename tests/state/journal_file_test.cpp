// Journal files: records written read back whole; a torn last record (a crash mid-write) or
// a flipped byte ends what is read there and says where; a resumed writer cuts the torn
// tail off; a file that is not a journal, or of another version, is refused by name.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "journal_file.h"

using namespace npc;

namespace {

std::string tempPath(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "npcd-journal-test";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

pb::JournalHeader header(uint64_t after) {
  pb::JournalHeader h;
  h.set_format_version(kJournalFormatVersion);
  h.set_definitions_hash("abc");
  h.set_after_tick(after);
  h.set_world_seed(7);
  return h;
}

pb::JournalTick tick(uint64_t n, int commands) {
  pb::JournalTick t;
  t.set_tick(n);
  t.set_state_checksum(n * 31);
  t.set_output_hash(n * 17);
  for (int i = 0; i < commands; ++i) {
    pb::JournalCommand& c = *t.add_commands();
    c.set_origin(2);
    c.set_item(static_cast<uint32_t>(i));
    c.set_remove_entity(1000 + n);
  }
  return t;
}

std::string writeJournal(const std::string& name, int ticks) {
  const std::string path = tempPath(name);
  Status status;
  auto writer = JournalWriter::create(path, header(100), status);
  REQUIRE(writer);
  for (int i = 1; i <= ticks; ++i) REQUIRE(writer->append(tick(100 + i, i % 3)).isOk());
  REQUIRE(writer->sync().isOk());
  return path;
}

}  // namespace

TEST_CASE("a journal reads back every record in order", "[state][journal]") {
  const std::string path = writeJournal("whole.npcjournal", 5);
  JournalContents in;
  REQUIRE(readJournalFile(path, in).isOk());
  CHECK(in.header.after_tick() == 100);
  CHECK(in.header.definitions_hash() == "abc");
  REQUIRE(in.ticks.size() == 5);
  for (int i = 0; i < 5; ++i) {
    CHECK(in.ticks[i].tick() == 101u + i);
    CHECK(in.ticks[i].state_checksum() == (101u + i) * 31);
    CHECK(in.ticks[i].commands_size() == (i + 1) % 3);
  }
  CHECK(in.stopped.empty());
  CHECK(in.valid_bytes == std::filesystem::file_size(path));
  CHECK(journalFileName(4210) == "journal-000000004210.npcjournal");
}

TEST_CASE("a torn last record ends the journal there, and a resumed writer cuts it off",
          "[state][journal]") {
  const std::string path = writeJournal("torn.npcjournal", 4);
  JournalContents whole;
  REQUIRE(readJournalFile(path, whole).isOk());
  const uint64_t size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size - 3);
  JournalContents torn;
  REQUIRE(readJournalFile(path, torn).isOk());
  CHECK(torn.ticks.size() == 3);
  CHECK_THAT(torn.stopped, Catch::Contains("a torn record"));
  CHECK(torn.valid_bytes < size - 3);
  Status status;
  auto writer = JournalWriter::resume(path, torn.valid_bytes, status);
  REQUIRE(writer);
  REQUIRE(writer->append(tick(104, 2)).isOk());
  writer.reset();
  JournalContents resumed;
  REQUIRE(readJournalFile(path, resumed).isOk());
  CHECK(resumed.stopped.empty());
  REQUIRE(resumed.ticks.size() == 4);
  CHECK(resumed.ticks[3].tick() == 104);
  CHECK(resumed.ticks[3].commands_size() == 2);
}

TEST_CASE("a flipped byte ends the journal at the record it damaged", "[state][journal]") {
  const std::string path = writeJournal("flipped.npcjournal", 6);
  JournalContents whole;
  REQUIRE(readJournalFile(path, whole).isOk());
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(whole.valid_bytes - 5));  // inside the last record
    f.put('\x5a');
  }
  JournalContents damaged;
  REQUIRE(readJournalFile(path, damaged).isOk());
  CHECK(damaged.ticks.size() == 5);
  CHECK_THAT(damaged.stopped, Catch::Contains("fails its checksum"));
}

TEST_CASE("a file that is not a journal, or of another version, is refused by name",
          "[state][journal]") {
  const std::string other = tempPath("other.npcjournal");
  std::ofstream(other) << "not a journal at all";
  JournalContents in;
  Status s = readJournalFile(other, in);
  CHECK_FALSE(s.isOk());
  CHECK(s.message() == other + ": not an npcd journal (no NPCJRNL header)");
  const std::string newer = tempPath("newer.npcjournal");
  pb::JournalHeader h = header(1);
  h.set_format_version(kJournalFormatVersion + 1);
  Status status;
  REQUIRE(JournalWriter::create(newer, h, status));
  s = readJournalFile(newer, in);
  CHECK_FALSE(s.isOk());
  CHECK_THAT(s.message(), Catch::Contains("journal format version 2, this npcd reads version 1"));
  s = readJournalFile(tempPath("missing.npcjournal"), in);
  CHECK_THAT(s.message(), Catch::StartsWith(tempPath("missing.npcjournal") + ": cannot open"));
}
