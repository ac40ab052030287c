// Commands: everything that changes the simulation from outside. Clients' world updates,
// admin calls and the built-in demo game all arrive as Commands, are queued by any thread
// and applied by the tick thread at the start of the next tick, in submission order.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>

#include "base/status.h"
#include "world/entity.h"
#include "world/ids.h"
#include "world/obstacle.h"
#include "world/vec3.h"

namespace npc {

// Full or partial state of one entity; fields left empty keep their current value (or the
// default for a new entity).
struct EntityState {
  EntityId id = EntityId::kNone;
  EntityKind kind = EntityKind::kObject;
  std::string species;    // empty: unchanged / none
  std::optional<Vec3> position;
  std::optional<Vec3> forward;
  std::optional<Vec3> velocity;
  std::optional<float> eye_height_m;
  std::optional<bool> active;
  std::string place;      // empty: derived from position and place bounds
  std::string archetype;  // npc only: required when the npc is new
};

struct UpsertEntity {
  EntityState state;
};
struct RemoveEntity {
  EntityId id;
};
struct UpsertObstacle {
  Obstacle obstacle;
};
struct RemoveObstacle {
  ObstacleId id;
};
// A noise somebody made: heard by agents within radius_m (perception decides how).
struct SoundEvent {
  EntityId source = EntityId::kNone;
  Vec3 position;
  float radius_m = 0.f;
  std::string kind;
};
// A named signal to one agent (target), or to every agent of a place (target kNone).
struct SignalEvent {
  EntityId target = EntityId::kNone;
  std::string place;
  std::string name;
  EntityId sender = EntityId::kNone;
};

enum class ActionOutcome : uint8_t { kCompleted, kFailed, kProgress };

// The game's report on an action it was asked to perform.
struct ActionResult {
  EntityId agent = EntityId::kNone;
  IntentionId intention = IntentionId::kNone;
  ActionOutcome outcome = ActionOutcome::kCompleted;
  float progress = 0.f;  // 0..1, for kProgress
  std::string reason;    // why it failed
};

// Admin: create an agent; fails with kAlreadyExists if the id is taken.
struct SpawnAgent {
  EntityState state;
  std::function<void(const Status&)> reply;
};
struct DespawnAgent {
  EntityId id;
  std::function<void(const Status&)> reply;
};
// Admin: a JSON debug view of one agent, built on the tick thread.
struct DescribeAgent {
  EntityId id;
  std::function<void(const Status&, const std::string& json)> reply;
};
// A client stream ended: the agents it owned keep living, their actions go to subscribers.
struct ClientGone {};

using CommandBody = std::variant<UpsertEntity, RemoveEntity, UpsertObstacle, RemoveObstacle,
                                 SoundEvent, SignalEvent, ActionResult, SpawnAgent, DespawnAgent,
                                 DescribeAgent, ClientGone>;

struct Command {
  ClientId origin = ClientId::kDaemon;
  uint64_t seq = 0;  // the client's sequence number of the update this came from
  CommandBody body;
};

}  // namespace npc
