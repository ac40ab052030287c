// Typed ids and handles. An id names a thing the way clients know it; a handle
// addresses the row that currently stores it and goes stale when the row is freed.
#pragma once

#include <cstdint>
#include <limits>

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

// Generation-checked handle to an entity row. A handle whose generation does not match the
// slot's current generation is stale: lookups fail cleanly instead of aliasing a new entity.
struct EntityHandle {
  uint32_t slot = std::numeric_limits<uint32_t>::max();
  uint32_t generation = 0;

  bool isNull() const { return slot == std::numeric_limits<uint32_t>::max(); }
  friend bool operator==(EntityHandle, EntityHandle) = default;
};

inline constexpr uint64_t raw(EntityId id) { return static_cast<uint64_t>(id); }
inline constexpr uint64_t raw(ObstacleId id) { return static_cast<uint64_t>(id); }
inline constexpr uint64_t raw(IntentionId id) { return static_cast<uint64_t>(id); }
inline constexpr uint32_t raw(ClientId id) { return static_cast<uint32_t>(id); }
inline constexpr uint16_t raw(PlaceIndex id) { return static_cast<uint16_t>(id); }

}  // namespace npc
