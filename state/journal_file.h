// Journal files: the input journal on disk (journal.proto). One file follows one snapshot:
// "journal-<tick>.npcjournal" beside "snapshot-<tick>.npcsnap" holds every tick after it.
//
// Layout: the 8 bytes "NPCJRNL\n", the header's length (4 bytes, little-endian), the
// npc.state.v1.JournalHeader, then one record per tick: its length (4 bytes), the CRC-32 of
// its bytes (4 bytes) and the npc.state.v1.JournalTick. Records are appended as ticks end,
// so a crash can leave a torn last record: reading stops before it and says where, and a
// writer that continues the file cuts it off first.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "npc/state/v1/journal.pb.h"

namespace npc {

namespace pb = ::npc::state::v1;

inline constexpr uint32_t kJournalFormatVersion = 1;

// "journal-000000004210.npcjournal" (the tick of the snapshot it follows).
std::string journalFileName(uint64_t after_tick);

class JournalWriter {
 public:
  // A new file (replacing one at `path`) starting with `header`.
  static std::unique_ptr<JournalWriter> create(const std::string& path,
                                               const pb::JournalHeader& header, Status& status);
  // An existing file continued after its first `valid_bytes` (readJournalFile's): a torn
  // record beyond them is cut off.
  static std::unique_ptr<JournalWriter> resume(const std::string& path, uint64_t valid_bytes,
                                               Status& status);
  ~JournalWriter();
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;

  // Appends one record (write(2): in the page cache, so a killed process loses nothing;
  // sync() makes it survive the machine).
  Status append(const pb::JournalTick& tick);
  Status sync();
  const std::string& path() const { return path_; }
  int fd() const { return fd_; }
  uint64_t bytes() const { return bytes_; }

 private:
  JournalWriter(std::string path, int fd, uint64_t bytes);
  Status writeAll(const std::string& bytes);

  std::string path_;
  int fd_ = -1;
  uint64_t bytes_ = 0;
  std::string record_;  // reused
};

struct JournalContents {
  pb::JournalHeader header;
  std::vector<pb::JournalTick> ticks;
  uint64_t valid_bytes = 0;  // up to the last whole record
  std::string stopped;       // why reading stopped before the end of the file ("" = it did not)
};

// Reads a journal file. A bad or missing header is an error naming the file; a record that
// is torn or fails its checksum ends the ticks read (`stopped` says which byte and why).
Status readJournalFile(const std::string& path, JournalContents& out);

}  // namespace npc
