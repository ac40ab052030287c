// SharedRows<T>: rows a snapshot capture can hold while the simulation goes on changing them.
//
// What sleeps (agents' records, their planners' memory) is most of a large world and changes
// rarely, so a capture takes a reference to the rows instead of a copy. share() hands out
// the rows as they are and marks them frozen: from then on they are never written again, by
// anyone. The next edit() makes the list a private copy first (copy on write, once per
// capture and changed list), so a capture being encoded on another thread never sees a
// change, and no thread has to ask whether the other still holds a reference: "shared once"
// means "copy before writing", which keeps it free of use-count races, and the last holder
// frees the old rows, whichever thread it is.
// Thread: the simulation's (tick) thread; shared rows may be read by any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace npc {

template <class T>
class SharedRows {
 public:
  using Rows = std::vector<T>;
  using Shared = std::shared_ptr<const Rows>;

  std::span<const T> rows() const {
    if (!rows_) return {};
    return {rows_->data(), rows_->size()};
  }
  size_t size() const { return rows_ ? rows_->size() : 0; }
  bool empty() const { return size() == 0; }
  const T& operator[](size_t i) const { return (*rows_)[i]; }
  auto begin() const { return rows().begin(); }
  auto end() const { return rows().end(); }

  // The rows to change in place: a private copy first when a capture holds them.
  Rows& edit() {
    if (!rows_) {
      rows_ = std::make_shared<Rows>();
    } else if (shared_) {
      rows_ = std::make_shared<Rows>(*rows_);
    }
    shared_ = false;
    return *rows_;
  }

  // The rows, for a capture; frozen from now on (null when there are none).
  Shared share() const {
    if (!rows_ || rows_->empty()) return nullptr;
    shared_ = true;
    return rows_;
  }

  // Moves the rows out and leaves the list empty (a place waking up).
  Rows take() {
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

  // Heap bytes the list holds (shared rows count here until they are copied away).
  size_t capacityBytes() const { return rows_ ? rows_->capacity() * sizeof(T) : 0; }

  // Gives back spare capacity (what sleeps is much and changes rarely).
  void shrinkToFit() {
    if (rows_ && !shared_) rows_->shrink_to_fit();
  }

 private:
  std::shared_ptr<Rows> rows_;
  mutable bool shared_ = false;  // share() handed the rows out: edit() copies first
};

}  // namespace npc
