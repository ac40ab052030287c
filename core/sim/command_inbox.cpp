#include "sim/command_inbox.h"

#include <cassert>
#include <utility>

namespace npc {

namespace {

// Where a submitter that did not digest its batch (pushExchanging without digests) has it
// digested before queueing it: the digests travel with the batch, and the thread gets an
// applied batch's digest buffer back (no allocation at a steady load, no digesting while the
// lock is held).
std::vector<CommandDigest>& digestScratch() {
  thread_local std::vector<CommandDigest> scratch;
  return scratch;
}

}  // namespace

bool CommandInbox::push(Command command) {
  const CommandDigest digest = CommandDigest::of(command);
  std::lock_guard lock(mutex_);
  if (count_ >= capacity_) return false;
  if (batches_.empty() || !batches_.back().singles) {
    Batch& singles = batches_.emplace_back();
    singles.singles = true;
    if (!spare_singles_.empty()) {
      singles.commands.swap(spare_singles_.back());
      spare_singles_.pop_back();
    }
    if (!spare_digests_.empty()) {
      singles.digests.swap(spare_digests_.back());
      spare_digests_.pop_back();
      spare_digest_room_ -= singles.digests.capacity();
      singles.digests.clear();
    }
  }
  batches_.back().commands.push_back(std::move(command));
  batches_.back().digests.push_back(digest);
  ++count_;
  return true;
}

bool CommandInbox::push(std::vector<Command>& batch) {
  if (!pushExchanging(batch)) return false;
  // The applied batch's commands are destroyed here, on the submitter's thread: destroying
  // hundreds of thousands of commands a tick would otherwise be the tick thread's work.
  batch.clear();
  return true;
}

bool CommandInbox::pushExchanging(std::vector<Command>& batch) {
  std::vector<CommandDigest>& digests = digestScratch();
  digests.resize(batch.size());
  for (size_t i = 0; i < batch.size(); ++i) digests[i] = CommandDigest::of(batch[i]);
  return pushExchanging(batch, digests);
}

bool CommandInbox::pushExchanging(std::vector<Command>& batch,
                                  std::vector<CommandDigest>& digests) {
  assert(digests.size() == batch.size());
  std::lock_guard lock(mutex_);
  if (count_ + batch.size() > capacity_) return false;
  if (batch.empty()) return true;
  count_ += batch.size();
  Batch& queued = batches_.emplace_back();
  queued.commands.swap(batch);
  queued.digests.swap(digests);
  if (!spare_.empty()) {
    batch.swap(spare_.back());
    spare_.pop_back();
    spare_room_ -= batch.capacity();
  }
  if (!spare_digests_.empty()) {
    digests.swap(spare_digests_.back());
    spare_digests_.pop_back();
    spare_digest_room_ -= digests.capacity();
  }
  return true;
}

size_t CommandInbox::size() const {
  std::lock_guard lock(mutex_);
  return count_;
}

void CommandInbox::clear() {
  std::lock_guard lock(mutex_);
  batches_.clear();
  count_ = 0;
}

std::span<CommandInbox::Batch> CommandInbox::take() {
  std::lock_guard lock(mutex_);
  draining_.swap(batches_);
  count_ = 0;
  return draining_;
}

void CommandInbox::recycle() {
  for (Batch& batch : draining_) {
    if (batch.singles) batch.commands.clear();
  }
  {
    std::lock_guard lock(mutex_);
    for (Batch& batch : draining_) {
      if (spare_digest_room_ + batch.digests.capacity() <= capacity_) {
        spare_digest_room_ += batch.digests.capacity();
        spare_digests_.emplace_back().swap(batch.digests);
      }
      if (batch.singles) {
        if (spare_singles_.size() < kMaxSpareSingles) {
          spare_singles_.emplace_back().swap(batch.commands);
        }
      } else if (spare_room_ + batch.commands.capacity() <= capacity_) {
        spare_room_ += batch.commands.capacity();
        spare_.emplace_back().swap(batch.commands);
      }
    }
  }
  draining_.clear();  // batches the pools had no room for are destroyed here
}

}  // namespace npc
