#include "hibernation/inventory.h"

#include <algorithm>

namespace npc {

int32_t Inventory::count(uint16_t item) const {
  for (uint8_t i = 0; i < size_; ++i) {
    if (items_[i] == item) return counts_[i];
  }
  return 0;
}

bool Inventory::add(uint16_t item, int32_t delta) {
  for (uint8_t i = 0; i < size_; ++i) {
    if (items_[i] == item) {
      counts_[i] = std::max(0, counts_[i] + delta);
      return true;
    }
  }
  if (delta <= 0) return true;
  if (size_ == kSlots) return false;
  items_[size_] = item;
  counts_[size_] = delta;
  ++size_;
  return true;
}

}  // namespace npc
