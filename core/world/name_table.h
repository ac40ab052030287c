// Interns short names (action names, species, items, group names...) to dense 16-bit indices
// so the runtime compares integers, never strings. A table is typed by its id: NameTable<
// SpeciesId> hands out SpeciesIds only (base/name_id.h; or an enum id such as SignalId), so
// an index of one table cannot be looked up in another. Owned by the tick thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npc {

// The interning itself, untyped, shared by every NameTable<Id>.
class NameIndex {
 public:
  static constexpr uint16_t kNone = 0xffff;

  uint16_t intern(std::string_view name);
  uint16_t find(std::string_view name) const;
  const std::string& name(uint16_t index) const;
  std::span<const std::string> names() const { return names_; }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, uint16_t> index_;  // lookups only, never iterated
};

// Id: a NameId<Tag>, or an enum class over uint16_t whose kNone is 0xffff.
template <class Id>
class NameTable {
 public:
  static_assert(sizeof(Id) == sizeof(uint16_t));

  // Returns the id of `name`, adding it if new. Returns Id::kNone when the table is full
  // (65535 names): callers report that as bad input.
  Id intern(std::string_view name) { return static_cast<Id>(index_.intern(name)); }
  // Returns the id of `name` or Id::kNone if it was never interned.
  Id find(std::string_view name) const { return static_cast<Id>(index_.find(name)); }
  // The name behind an id; empty for kNone or out of range.
  const std::string& name(Id id) const { return index_.name(raw(id)); }
  // Every name, by index (ids 0 .. size() - 1).
  std::span<const std::string> names() const { return index_.names(); }
  size_t size() const { return index_.names().size(); }

 private:
  NameIndex index_;
};

}  // namespace npc
