// A caller-provided output buffer: fixed storage, a count, and a count of what did not fit
// (Detour's fixed arrays with counts, but truncation is reported rather than silent).
// The intention subsystem writes client-side action starts and intention events into
// these; the caller owns the storage (sized once at startup) and drains it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace npc {

template <class T>
class BoundedBuffer {
 public:
  BoundedBuffer() = default;
  explicit BoundedBuffer(std::span<T> storage) : storage_(storage) {}

  // Appends `item`; when full, drops it, counts the drop and returns false.
  bool push(const T& item) {
    if (count_ == storage_.size()) {
      ++dropped_;
      return false;
    }
    storage_[count_++] = item;
    return true;
  }

  std::span<const T> items() const { return storage_.first(count_); }
  size_t size() const { return count_; }
  size_t capacity() const { return storage_.size(); }
  size_t room() const { return storage_.size() - count_; }
  bool empty() const { return count_ == 0; }
  // Items refused because the buffer was full, since construction (clear() keeps it).
  uint64_t dropped() const { return dropped_; }
  // Forgets the items, keeps the storage and the drop count.
  void clear() { count_ = 0; }

 private:
  std::span<T> storage_;
  size_t count_ = 0;
  uint64_t dropped_ = 0;
};

}  // namespace npc
