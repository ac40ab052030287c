// NameId<Tag>: an index into one NameTable (world/name_table.h), typed by that table. Action
// names, species, items and group names are all interned to 16-bit indices; with the table
// in the type, an action name cannot be passed where a species is expected, nor a bare
// number where either is: the wire, snapshots and hashes convert explicitly (raw(), the
// explicit constructor). It has the size and bytes of the uint16_t it wraps, so records
// holding one stay trivially copyable and the snapshots of their bytes do not change.
#pragma once

#include <compare>
#include <cstdint>
#include <type_traits>

namespace npc {

template <class Tag>
struct NameId {
  static const NameId kNone;  // no name (the default): reads back as "", as find() misses

  uint16_t value = 0xffff;

  constexpr NameId() = default;
  constexpr explicit NameId(uint16_t index) : value(index) {}

  constexpr bool isNone() const { return value == 0xffff; }
  friend constexpr bool operator==(NameId, NameId) = default;
  friend constexpr auto operator<=>(NameId, NameId) = default;
};

template <class Tag>
inline constexpr NameId<Tag> NameId<Tag>::kNone{};

static_assert(sizeof(NameId<void>) == sizeof(uint16_t));
static_assert(std::is_trivially_copyable_v<NameId<void>>);

// As for the enum ids (world/ids.h): the index, for tables indexed by name and for the wire.
template <class Tag>
constexpr uint16_t raw(NameId<Tag> id) {
  return id.value;
}

}  // namespace npc
