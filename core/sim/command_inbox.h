// CommandInbox: the commands clients and the daemon submit from any thread, held until the
// tick applies them, in the order they were submitted.
//
// A client's update arrives as one batch of hundreds of commands. The inbox keeps each
// batch as the vector it came in (push swaps it in whole) rather than moving its commands
// one by one into one long queue, and hands the submitter back a batch applied earlier, so
// that at a steady load no command is moved twice, no batch buffer is allocated (a
// 500-entity update is 140 KiB of commands) and the tick thread does not destroy what it
// applied: the submitter clears the batch it gets back, or, with pushExchanging(),
// overwrites its commands with the next update's (server/proto_convert.cpp CommandWriter),
// so that they are neither destroyed nor built again.
//
// Each batch carries a digest of every command (command_digest.h), written by the
// submitting thread, for the tick to read before it applies the batch (upsert_coalescer.h).
#pragma once

#include <cstddef>
#include <mutex>
#include <span>
#include <vector>

#include "base/prefetch.h"
#include "sim/command_digest.h"
#include "sim/commands.h"

namespace npc {

class CommandInbox {
 public:
  explicit CommandInbox(size_t capacity) : capacity_(capacity) {}

  // False (and nothing queued) when the inbox would hold more than its capacity.
  bool push(Command command);
  // All or nothing. On success `batch` is queued and left empty, holding the buffer of a
  // batch applied earlier when there is one; on failure it is left as it was.
  bool push(std::vector<Command>& batch);
  // push() without the clearing: on success `batch` becomes a batch applied earlier with
  // its commands still in it, stale, for the caller to overwrite or clear (or an empty
  // vector when there is none).
  bool pushExchanging(std::vector<Command>& batch);
  // The same with the batch's digests (CommandDigest::of each command, in order) written by
  // the caller, which had the commands in its cache; on success `digests` becomes an
  // applied batch's digest buffer.
  bool pushExchanging(std::vector<Command>& batch, std::vector<CommandDigest>& digests);

  size_t size() const;
  void clear();

  struct Batch {
    std::vector<Command> commands;
    std::vector<CommandDigest> digests;  // one per command
    // Built by push(Command): admin calls whose replies may hold their caller's state, so
    // they are destroyed as soon as they are applied, not kept for reuse.
    bool singles = false;
  };

  // Tick thread: the batches queued so far, in submission order, for the caller to apply
  // (commands submitted meanwhile wait for the next call); hand them back with recycle()
  // before the next take().
  std::span<Batch> take();
  void recycle();

  // Tick thread: calls apply(Command&) on every queued command in submission order, then
  // forgets them. Commands submitted meanwhile wait for the next call. Returns how many.
  template <class Apply>
  size_t drain(Apply&& apply) {
    size_t applied = 0;
    for (Batch& batch : take()) {
      // Commands were written on the submitting threads' cores: each is a few lines to
      // fetch from another cache, so ask for them a few commands ahead (base/prefetch.h).
      const std::span<Command> commands(batch.commands);
      for (size_t i = 0; i < commands.size(); ++i) {
        prefetchRowAhead(commands, i);
        apply(commands[i]);
      }
      applied += batch.commands.size();
    }
    recycle();
    return applied;
  }

 private:
  void spareDigests(std::vector<CommandDigest>& digests);

  // Applied singles batches kept for reuse; more than this are freed. Applied update
  // batches are kept while their room adds up to no more than `capacity_` commands: the
  // spare buffers never hold more memory than the queue itself may, and a tick that
  // drained a flood hands every batch back rather than destroying the excess itself.
  static constexpr size_t kMaxSpareSingles = 16;

  const size_t capacity_;
  mutable std::mutex mutex_;
  std::vector<Batch> batches_;                // guarded by mutex_
  size_t count_ = 0;                          // guarded: commands in batches_
  std::vector<std::vector<Command>> spare_;   // guarded: applied, still to be cleared
  size_t spare_room_ = 0;                     // guarded: Σ capacity() over spare_
  std::vector<std::vector<Command>> spare_singles_;  // guarded: applied and cleared
  // guarded: applied batches' digests, kept like spare_ (Σ capacity() <= capacity_)
  std::vector<std::vector<CommandDigest>> spare_digests_;
  size_t spare_digest_room_ = 0;
  std::vector<Batch> draining_;               // between take() and recycle()
};

}  // namespace npc
