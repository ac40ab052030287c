// Inventory: what an agent carries or has produced (breads, flour, logs). A fixed inline
// array of (item, count) so it lives inside the agent and in its dormant record with no
// heap. Items are interned names (LongActionLibrary::items()).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace npc {

class Inventory {
 public:
  static constexpr size_t kSlots = 8;

  int32_t count(uint16_t item) const;
  // Adds `delta` (may be negative; counts never go below 0). False when a new item does
  // not fit: the inventory is full (the caller counts it).
  bool add(uint16_t item, int32_t delta);
  void set(uint16_t item, int32_t value) { add(item, value - count(item)); }

  uint8_t size() const { return size_; }
  uint16_t itemAt(uint8_t slot) const { return items_[slot]; }
  int32_t countAt(uint8_t slot) const { return counts_[slot]; }

 private:
  // Parallel arrays rather than (item, count) pairs: 52 bytes instead of 68, which matters
  // in the dormant record of every sleeping agent.
  std::array<int32_t, kSlots> counts_{};
  std::array<uint16_t, kSlots> items_{};
  uint8_t size_ = 0;
};

}  // namespace npc
