#include "world/name_table.h"

namespace npc {

uint16_t NameIndex::intern(std::string_view name) {
  if (auto it = index_.find(std::string(name)); it != index_.end()) return it->second;
  if (names_.size() >= kNone) return kNone;
  auto index = static_cast<uint16_t>(names_.size());
  names_.emplace_back(name);
  index_.emplace(names_.back(), index);
  return index;
}

uint16_t NameIndex::find(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? kNone : it->second;
}

const std::string& NameIndex::name(uint16_t index) const {
  static const std::string kEmpty;
  return index < names_.size() ? names_[index] : kEmpty;
}

}  // namespace npc
