// InputJournal: the daemon's input journal (state/journal_file.h, README "Snapshots and the
// journal"). Every command a tick applies is recorded as it applies (Simulation's command
// recorder), and when the tick ends the record — commands, state checksum, output hash — is
// appended to the journal of the last snapshot. A new journal starts at each snapshot
// capture. Appends are write(2)s on the tick thread: a killed daemon loses nothing it
// applied. The sync policy says when they reach the disk itself (a machine that fails):
//   tick      fdatasync after every tick, on the tick thread (its cost is the tick's);
//   interval  fdatasync every sync_interval_ms on a thread of its own (default, 100 ms);
//   none      when the kernel writes back.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "config.h"
#include "npc/state/v1/journal.pb.h"
#include "snapshot_store.h"

namespace npc {

class JournalWriter;
class Simulation;

class InputJournal {
 public:
  InputJournal(const SnapshotConfig& config, std::string definitions_hash, uint64_t world_seed);
  ~InputJournal();
  InputJournal(const InputJournal&) = delete;
  InputJournal& operator=(const InputJournal&) = delete;

  // Before the first tick: records `sim`'s commands from now on, into a journal following
  // the snapshot of `after_tick` — a new file, or (valid_bytes > 0) the restored snapshot's
  // journal continued after its last whole record.
  bool attach(Simulation& sim, uint64_t after_tick, uint64_t valid_bytes, std::string& error);
  // Tick thread, after each tick, before a snapshot may be captured.
  void afterTick(Simulation& sim);
  // Tick thread: a snapshot of `tick` was captured; the ticks after it go to its journal.
  void snapshotCaptured(uint64_t tick);
  // Tick thread: the definitions changed (a reload was accepted).
  void setDefinitionsHash(std::string hash) { definitions_hash_ = std::move(hash); }

  // The state checksum of the last tick journaled (GetStats reuses it: one pass per tick).
  uint64_t lastChecksum() const { return last_checksum_; }
  uint64_t ticksWritten() const { return ticks_written_.load(std::memory_order_relaxed); }
  uint64_t bytesWritten() const { return bytes_written_.load(std::memory_order_relaxed); }

 private:
  enum class Sync : uint8_t { kTick, kInterval, kNone };
  bool open(uint64_t after_tick, uint64_t valid_bytes, std::string& error);
  void syncLoop();

  SnapshotStore store_;
  Sync sync_;
  double sync_interval_ms_;
  std::string definitions_hash_;
  uint64_t world_seed_;
  pb::JournalTick tick_;             // tick thread: the record being built
  uint64_t last_checksum_ = 0;       // tick thread
  std::atomic<uint64_t> ticks_written_{0};
  std::atomic<uint64_t> bytes_written_{0};

  std::mutex mutex_;                 // guards writer_ against the sync thread
  std::unique_ptr<JournalWriter> writer_;
  std::condition_variable wake_;
  bool stopping_ = false;            // guarded
  std::thread sync_thread_;
};

}  // namespace npc
