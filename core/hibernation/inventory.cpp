#include "hibernation/inventory.h"

#include <algorithm>

namespace npc {

int32_t Inventory::count(ItemId item) const {
  for (uint8_t i = 0; i < size_; ++i) {
    if (items_[i] == item) return counts_[i];
  }
  return 0;
}

bool Inventory::fits(ItemId item) const {
  if (size_ < kSlots) return true;
  for (uint8_t i = 0; i < size_; ++i) {
    if (items_[i] == item || counts_[i] == 0) return true;
  }
  return false;
}

bool Inventory::add(ItemId item, int32_t delta) {
  for (uint8_t i = 0; i < size_; ++i) {
    if (items_[i] == item) {
      counts_[i] = std::max(0, counts_[i] + delta);
      return true;
    }
  }
  if (delta <= 0) return true;
  uint8_t slot = size_;
  if (size_ == kSlots) {
    // Full: an item whose count fell to 0 (all given away, all eaten) gives up its slot, so
    // agents that trade many kinds of things over their life do not run out of room.
    slot = static_cast<uint8_t>(std::find(counts_.begin(), counts_.end(), 0) - counts_.begin());
    if (slot == kSlots) return false;
  } else {
    ++size_;
  }
  items_[slot] = item;
  counts_[slot] = delta;
  return true;
}

bool Inventory::remove(ItemId item, int32_t n) {
  for (uint8_t i = 0; i < size_; ++i) {
    if (items_[i] != item) continue;
    if (n <= 0 || counts_[i] < n) return false;
    counts_[i] -= n;
    return true;
  }
  return false;
}

}  // namespace npc
