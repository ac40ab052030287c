// World model codec: entities and obstacles to npc.state.v1.WorldState and back.
#pragma once

#include "npc/state/v1/world.pb.h"
#include "name_list.h"
#include "sim/sim_state_access.h"

namespace npc {

namespace pb = ::npc::state::v1;

void encodeVec3(Vec3 v, pb::Vec3& out);
Vec3 decodeVec3(const pb::Vec3& v);

void encodeEntity(const Entity& e, NameList species, pb::EntityState& out);
// Species names are interned again through `access`.
Entity decodeEntity(const pb::EntityState& in, SimStateAccess& access);

// The world's entities that are not agents, the obstacles and the dropped-object counter.
// `entities`: the entity table's rows in its order (agents' bodies are skipped).
void encodeWorld(std::span<const Entity> entities, std::span<const Obstacle> obstacles,
                 uint64_t next_dropped_object, NameList species, pb::WorldState& out);
// Restores the navmesh's obstacles too (setNavObstacles) when the snapshot has them, and
// its long searches (setNavLongSearches).
void restoreWorld(const pb::WorldState& in, SimStateAccess& access);

// The navmesh's obstacles: what its tiles show and the changes waiting (NavTileCache).
void encodeNavObstacles(std::span<const nav::NavObstacleChange> held,
                        std::span<const nav::NavObstacleChange> queued, pb::NavObstaclesState& out);
// The MoveTo checks searched on over ticks (SlicedPathQueue), oldest first.
void encodeNavLongSearches(std::span<const nav::SlicedPathRequest> waiting, int open_iterations,
                           pb::NavLongSearchesState& out);

}  // namespace npc
