// Interns short names (species, action names, archetypes) to dense 16-bit indices so the
// runtime compares integers, never strings. Owned by the tick thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npc {

class NameTable {
 public:
  static constexpr uint16_t kNone = 0xffff;

  // Returns the index of `name`, adding it if new. Returns kNone when the table is full
  // (65535 names): callers report that as bad input.
  uint16_t intern(std::string_view name);
  // Returns the index of `name` or kNone if it was never interned.
  uint16_t find(std::string_view name) const;
  // The name behind an index; empty for kNone or out of range.
  const std::string& name(uint16_t index) const;
  size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, uint16_t> index_;  // lookups only, never iterated
};

}  // namespace npc
