#include "hibernation/sleeper_list.h"

#include <utility>

namespace npc {

std::span<const DormantAgent> SleeperList::rows() const {
  if (!rows_) return {};
  return {rows_->data(), rows_->size()};
}

SleeperList::Rows& SleeperList::edit() {
  if (!rows_) {
    rows_ = std::make_shared<Rows>();
  } else if (shared_) {
    rows_ = std::make_shared<Rows>(*rows_);
  }
  shared_ = false;
  return *rows_;
}

SleeperList::Shared SleeperList::share() const {
  if (!rows_ || rows_->empty()) return nullptr;
  shared_ = true;
  return rows_;
}

SleeperList::Rows SleeperList::take() {
  Rows out;
  if (rows_ && shared_) {
    out = *rows_;
  } else if (rows_) {
    out = std::move(*rows_);
  }
  rows_.reset();
  shared_ = false;
  return out;
}

void SleeperList::shrinkToFit() {
  if (rows_ && !shared_) rows_->shrink_to_fit();
}

}  // namespace npc
