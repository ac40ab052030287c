#include "intent/action_access.h"

#include <type_traits>

namespace npc {

static_assert(std::is_trivially_copyable_v<ActionAccess>);
static_assert(sizeof(ActionAccess) == 36, "README: memory per agent");

bool ActionAccess::has(ActionListId list) const {
  for (uint8_t i = 0; i < count_; ++i) {
    if (influences_[i] == list) return true;
  }
  return list != ActionListId::kNone && list == own_;
}

void ActionAccess::setOwn(ActionListId list) {
  if (own_ == list) return;
  own_ = list;
  ++version_;
}

IntentStatus ActionAccess::addInfluence(ActionListId list, int16_t priority) {
  for (uint8_t i = 0; i < count_; ++i) {
    if (influences_[i] == list) return IntentStatus::kOk;
  }
  if (count_ == kMaxInfluences) {
    ++refused_;
    return IntentStatus::kQueueFull;
  }
  // Insertion sort: after every entry that comes first (higher priority, or equal priority
  // and lower id).
  uint8_t at = count_;
  while (at > 0) {
    const int16_t p = priorities_[at - 1];
    if (p > priority || (p == priority && influences_[at - 1] < list)) break;
    influences_[at] = influences_[at - 1];
    priorities_[at] = priorities_[at - 1];
    --at;
  }
  influences_[at] = list;
  priorities_[at] = priority;
  ++count_;
  ++version_;
  return IntentStatus::kOk;
}

bool ActionAccess::removeInfluence(ActionListId list) {
  for (uint8_t i = 0; i < count_; ++i) {
    if (influences_[i] != list) continue;
    for (uint8_t j = i + 1; j < count_; ++j) {
      influences_[j - 1] = influences_[j];
      priorities_[j - 1] = priorities_[j];
    }
    --count_;
    ++version_;
    return true;
  }
  return false;
}

}  // namespace npc
