#include "mbt/tree.h"

#include <algorithm>

namespace npc {

int MbtTree::variableIndex(std::string_view name) const {
  for (size_t i = 0; i < variable_names_.size(); ++i) {
    if (variable_names_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

int MbtTree::timestampIndex(std::string_view name) const {
  for (size_t i = 0; i < timestamps_.size(); ++i) {
    if (timestamps_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::span<const MbtSignalAssignment> MbtTree::assignments(SignalId signal) const {
  auto first = std::lower_bound(
      assignments_.begin(), assignments_.end(), signal,
      [](const MbtSignalAssignment& a, SignalId s) { return raw(a.signal) < raw(s); });
  auto last = first;
  while (last != assignments_.end() && last->signal == signal) ++last;
  return {first, last};
}

}  // namespace npc
