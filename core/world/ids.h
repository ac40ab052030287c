// Typed ids and handles. An id names a thing the way clients know it; a handle
// addresses the row that currently stores it and goes stale when the row is freed.
#pragma once

#include <cstdint>
#include <limits>

#include "base/handle.h"
#include "base/name_id.h"

namespace npc {

// Client-given, stable 64-bit entity id. 0 is never a valid entity.
enum class EntityId : uint64_t { kNone = 0 };
// Client-given obstacle id. 0 is never valid.
enum class ObstacleId : uint64_t { kNone = 0 };
// Index of a place in the world's place table (places never move while loaded).
enum class PlaceIndex : uint16_t { kNone = std::numeric_limits<uint16_t>::max() };
// A connected client (game server stream), assigned by the server. 0 = the daemon itself
// (built-in demo game, config files); kUnowned = nobody: such agents' actions go to every
// subscribed client.
enum class ClientId : uint32_t { kDaemon = 0, kUnowned = 0xfffffffeu };
// An intention (an action an agent asked to perform), unique for the daemon's lifetime.
enum class IntentionId : uint64_t { kNone = 0 };

// Interned names (world/name_table.h), one id type per table: an index of one table cannot be
// looked up in another, nor a number taken for one.
// The action vocabulary (Simulation::names()): action names and what their parameters,
// reasons and messages carry as text (argument names, units, values), as ActionOut and
// intentions hold them.
using ActionNameId = NameId<struct ActionNameTag>;
// A species (World::species()): what kind of thing an entity is, for perception and smart
// objects.
using SpeciesId = NameId<struct SpeciesTag>;
// A kind of item in inventories (LongActionLibrary::items()).
using ItemId = NameId<struct ItemTag>;
// A signal group's name (Simulation::groups()).
using GroupNameId = NameId<struct GroupNameTag>;
// A signal group as agents belong to it and clients name it ("group_number"): its name's
// index + 1; kNone (0) is no group.
enum class GroupNumber : uint16_t { kNone = 0 };

// Generation-checked handle to a row of the world's entity table (base/handle.h).
struct Entity;
using EntityHandle = Handle<Entity>;

inline constexpr uint64_t raw(EntityId id) { return static_cast<uint64_t>(id); }
inline constexpr uint64_t raw(ObstacleId id) { return static_cast<uint64_t>(id); }
inline constexpr uint64_t raw(IntentionId id) { return static_cast<uint64_t>(id); }
inline constexpr uint32_t raw(ClientId id) { return static_cast<uint32_t>(id); }
inline constexpr uint16_t raw(PlaceIndex id) { return static_cast<uint16_t>(id); }
inline constexpr uint16_t raw(GroupNumber group) { return static_cast<uint16_t>(group); }

// A group's number from its name's id and back; kNone maps to kNone both ways.
inline constexpr GroupNumber groupNumber(GroupNameId name) {
  return static_cast<GroupNumber>(static_cast<uint16_t>(raw(name) + 1u));
}
inline constexpr GroupNameId groupNameOf(GroupNumber group) {
  return GroupNameId{static_cast<uint16_t>(raw(group) - 1u)};
}

}  // namespace npc
