// Inventory: what an agent carries or has produced (breads, flour, logs, picked flowers). A
// fixed inline array of (item, count) so it lives inside the agent and in its dormant
// record with no heap. Items are interned names (LongActionLibrary::items()). The daemon
// owns inventories: long actions settle into them and daemon-side actions (Take, Drop,
// Give, core/intent/inventory_actions.h) change them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "world/ids.h"

namespace npc {

class Inventory {
 public:
  static constexpr size_t kSlots = 8;

  int32_t count(ItemId item) const;
  // Adds `delta` (may be negative; counts never go below 0). False when a new item does
  // not fit: every slot holds an item with a count above 0 (the caller counts it).
  bool add(ItemId item, int32_t delta);
  // Takes `n` of `item` out, all or nothing: false, and nothing changes, when the inventory
  // holds fewer or n <= 0. The emptied slot stays until a new item needs it.
  bool remove(ItemId item, int32_t n);
  // Whether add(item, n > 0) would succeed: the item has a slot, or a slot is free.
  bool fits(ItemId item) const;
  void set(ItemId item, int32_t value) { add(item, value - count(item)); }

  uint8_t size() const { return size_; }
  ItemId itemAt(uint8_t slot) const { return items_[slot]; }
  int32_t countAt(uint8_t slot) const { return counts_[slot]; }

 private:
  // Parallel arrays rather than (item, count) pairs: 52 bytes instead of 68, which matters
  // in the dormant record of every sleeping agent.
  std::array<int32_t, kSlots> counts_{};
  std::array<ItemId, kSlots> items_{};
  uint8_t size_ = 0;
};

}  // namespace npc
