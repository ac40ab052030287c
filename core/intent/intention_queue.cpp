#include "intent/intention_queue.h"

#include <algorithm>
#include <type_traits>

namespace npc {

static_assert(std::is_trivially_copyable_v<Intention>, "intentions are snapshotted as bytes");
static_assert(std::is_trivially_copyable_v<IntentionQueue>, "queues are snapshotted as bytes");
static_assert(sizeof(Intention) == 232, "README: memory per agent");

const Intention* IntentionQueue::find(IntentionId id) const {
  const uint8_t slot = slotOf(id);
  return slot == kNoSlot ? nullptr : &slots_[slot];
}

const Intention* IntentionQueue::findHandle(IntentionId handle) const {
  if (handle == IntentionId::kNone) return nullptr;
  for (uint8_t i = 0; i < count_; ++i) {
    if (slots_[order_[i]].handle == handle) return &slots_[order_[i]];
  }
  return nullptr;
}

void IntentionQueue::renumber(IntentionId first, uint32_t count, uint64_t base) {
  for (uint8_t i = 0; i < count_; ++i) {
    Intention& in = slots_[order_[i]];
    const uint64_t offset = raw(in.id) - raw(first);
    if (offset < count) in.id = static_cast<IntentionId>(base + offset);
  }
}

uint8_t IntentionQueue::slotOf(IntentionId id) const {
  if (id == IntentionId::kNone) return kNoSlot;
  for (uint8_t i = 0; i < count_; ++i) {
    if (slots_[order_[i]].id == id) return order_[i];
  }
  return kNoSlot;
}

Intention* IntentionQueue::insert(IntentionId id, double date_s, ActionNameId action,
                                  std::span<const ActionArg> args, uint8_t flags) {
  if (count_ == kCapacity) {
    ++overflow_;
    return nullptr;
  }
  uint8_t slot = 0;
  while (slots_[slot].id != IntentionId::kNone) ++slot;  // a free slot exists: count_ < cap
  Intention& in = slots_[slot];
  in = Intention{};
  in.id = id;
  in.date_s = date_s;
  in.action = action;
  in.flags = flags;
  in.arg_count = static_cast<uint8_t>(std::min<size_t>(args.size(), kMaxActionArgs));
  std::copy_n(args.begin(), in.arg_count, in.arg_storage.begin());

  uint8_t at = count_;
  while (at > 0 && slots_[order_[at - 1]].date_s > date_s) {
    order_[at] = order_[at - 1];
    --at;
  }
  order_[at] = slot;
  ++count_;
  touch();
  return &in;
}

void IntentionQueue::assignUsedSlots(const IntentionQueue& from) {
  for (uint8_t i = 0; i < count_; ++i) slots_[order_[i]] = Intention{};
  for (uint8_t i = 0; i < from.count_; ++i) slots_[from.order_[i]] = from.slots_[from.order_[i]];
  // Every member but slots_ (the queue's test compares whole bytes, so a member added
  // and not copied here fails it).
  count_ = from.count_;
  current_ = from.current_;
  order_ = from.order_;
  overflow_ = from.overflow_;
  access_version_ = from.access_version_;
  busy_until_s_ = from.busy_until_s_;
  wake_s_ = from.wake_s_;
}

void IntentionQueue::erase(uint8_t slot) {
  uint8_t i = 0;
  while (i < count_ && order_[i] != slot) ++i;
  if (i == count_) return;
  for (; i + 1 < count_; ++i) order_[i] = order_[i + 1];
  --count_;
  slots_[slot] = Intention{};  // free slots stay default: assignUsedSlots() relies on it
  if (current_ == slot) current_ = kNoSlot;
  touch();
}

}  // namespace npc
