#include "input_journal.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "base/thread_name.h"
#include "journal_codec.h"
#include "journal_file.h"
#include "logging.h"
#include "sim/simulation.h"
#include "snapshot_file.h"
#include "state_checksum.h"

namespace npc {

InputJournal::InputJournal(const SnapshotConfig& config, std::string definitions_hash,
                           uint64_t world_seed)
    : store_(config.dir, config.keep),
      sync_(config.journal_sync == "tick"   ? Sync::kTick
            : config.journal_sync == "none" ? Sync::kNone
                                            : Sync::kInterval),
      sync_interval_ms_(config.journal_sync_interval_ms),
      definitions_hash_(std::move(definitions_hash)),
      world_seed_(world_seed) {
  if (sync_ == Sync::kInterval) sync_thread_ = std::thread([this] {
    setThreadName("npcd-journal");
    syncLoop();
  });
}

InputJournal::~InputJournal() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (sync_thread_.joinable()) sync_thread_.join();
  std::lock_guard lock(mutex_);
  if (writer_) writer_->sync();
}

bool InputJournal::attach(Simulation& sim, uint64_t after_tick, uint64_t valid_bytes,
                          std::string& error) {
  if (!open(after_tick, valid_bytes, error)) return false;
  sim.addCommandRecorder([this](uint64_t, const Command& command) {
    pb::JournalCommand encoded;
    if (encodeCommand(command, encoded)) *tick_.add_commands() = std::move(encoded);
  });
  return true;
}

bool InputJournal::open(uint64_t after_tick, uint64_t valid_bytes, std::string& error) {
  const std::string path = store_.journalPathFor(after_tick);
  Status status;
  std::unique_ptr<JournalWriter> writer;
  if (valid_bytes > 0) {
    writer = JournalWriter::resume(path, valid_bytes, status);
  } else {
    std::error_code ec;
    std::filesystem::create_directories(store_.dir(), ec);
    pb::JournalHeader header;
    header.set_format_version(kJournalFormatVersion);
    header.set_definitions_hash(definitions_hash_);
    header.set_after_tick(after_tick);
    header.set_world_seed(world_seed_);
    writer = JournalWriter::create(path, header, status);
  }
  if (!writer) {
    error = status.message();
    return false;
  }
  std::lock_guard lock(mutex_);
  writer_ = std::move(writer);
  return true;
}

void InputJournal::afterTick(Simulation& sim) {
  tick_.set_tick(sim.tickCount());
  last_checksum_ = stateChecksum(sim);
  tick_.set_state_checksum(last_checksum_);
  tick_.set_output_hash(hashTickOutput(sim.output(), sim.names()));
  Status status;
  {
    std::lock_guard lock(mutex_);
    if (writer_) {
      status = writer_->append(tick_);
      if (status.isOk() && sync_ == Sync::kTick) status = writer_->sync();
      bytes_written_.store(writer_->bytes(), std::memory_order_relaxed);
    }
  }
  if (!status.isOk()) {
    spdlog::error(logText("input journal: " + status.message()));
  } else {
    ticks_written_.fetch_add(1, std::memory_order_relaxed);
  }
  tick_.Clear();
}

void InputJournal::snapshotCaptured(uint64_t tick) {
  // Captured between ticks, after afterTick(): the file of `tick` begins with the next one.
  std::string error;
  if (!open(tick, 0, error)) spdlog::error(logText("input journal: " + error));
}

void InputJournal::syncLoop() {
  const auto period = std::chrono::duration<double, std::milli>(sync_interval_ms_);
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, period, [this] { return stopping_; });
    if (!writer_) continue;
    // A duplicate of the descriptor, synced without the lock: the tick never waits for the
    // disk, and a rotation meanwhile closes only the original.
    const int fd = ::dup(writer_->fd());
    lock.unlock();
    if (fd >= 0) {
      if (::fdatasync(fd) != 0) spdlog::warn(logText("input journal: cannot sync"));
      ::close(fd);
    }
    lock.lock();
  }
}

}  // namespace npc
