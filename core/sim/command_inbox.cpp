#include "sim/command_inbox.h"

#include <utility>

namespace npc {

bool CommandInbox::push(Command command) {
  std::lock_guard lock(mutex_);
  if (count_ >= capacity_) return false;
  if (batches_.empty() || !batches_.back().singles) {
    Batch& singles = batches_.emplace_back();
    singles.singles = true;
    if (!spare_singles_.empty()) {
      singles.commands.swap(spare_singles_.back());
      spare_singles_.pop_back();
    }
  }
  batches_.back().commands.push_back(std::move(command));
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
  std::lock_guard lock(mutex_);
  if (count_ + batch.size() > capacity_) return false;
  if (batch.empty()) return true;
  count_ += batch.size();
  batches_.emplace_back().commands.swap(batch);
  if (!spare_.empty()) {
    batch.swap(spare_.back());
    spare_.pop_back();
    spare_room_ -= batch.capacity();
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

void CommandInbox::recycle() {
  for (Batch& batch : draining_) {
    if (batch.singles) batch.commands.clear();
  }
  {
    std::lock_guard lock(mutex_);
    for (Batch& batch : draining_) {
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
