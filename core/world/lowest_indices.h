// LowestIndices: collects indices into a caller's fixed buffer and, once it is full, keeps the
// lowest seen, so that which indices survive a cut does not depend on the order they arrive
// in (a grid's bucket layout, or several grids queried in turn).
//
// Cost: O(1) per index until the buffer is full, then O(log size) per index that displaces
// one; finish() sorts what was kept. Thread: the caller's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

namespace npc {

class LowestIndices {
 public:
  explicit LowestIndices(std::span<uint32_t> out) : out_(out) {}

  void add(uint32_t index) {
    if (count_ < out_.size()) {
      out_[count_++] = index;
      // Full: a max-heap from now on, so the highest kept is the one to displace.
      if (count_ == out_.size()) std::make_heap(out_.begin(), out_.end());
      return;
    }
    cut_ = true;
    if (!out_.empty() && index < out_.front()) {
      std::pop_heap(out_.begin(), out_.end());
      out_.back() = index;
      std::push_heap(out_.begin(), out_.end());
    }
  }

  // Sorts the kept indices ascending at the front of the buffer; returns how many they are.
  uint32_t finish() {
    std::sort(out_.begin(), out_.begin() + count_);
    return count_;
  }
  // More indices came than the buffer holds.
  bool truncated() const { return cut_; }

 private:
  std::span<uint32_t> out_;
  uint32_t count_ = 0;
  bool cut_ = false;
};

}  // namespace npc
