// World files: the places, obstacles and starting entities of a world, plus optional
// scripted players for running without a game attached (the demo). JSON schema:
//   { "places":    [ { "name": "square", "min": [x,y,z], "max": [x,y,z] } ],
//     "obstacles": [ { "id": 1, "min": [..], "max": [..], "cover": "hard" | "soft" } ],
//     "entities":  [ { "id": 100, "kind": "npc", "archetype": "villager",
//                      "position": [..], "forward": [..], "species": "human",
//                      "place": "square", "eye_height": 1.7,
//                      "takeable": false } ],   (objects Take must leave alone: an oven)
//     "simulated_players": [ { "id": 1, "species": "human", "speed_mps": 1.6,
//                              "route": [ [x,y,z], ... ] } ],
//     "navmesh": { "geometry": "village.obj", ... } }   (core/nav/nav_config.h)
// Every section is optional. Errors name the file and JSON path; all are collected.
// Ids are unique: a repeated entity (or simulated player) id, or obstacle id, is refused
// ("world.json: /entities/7/id: duplicate id 1201 (first at /entities/3)"). Positions, place
// and obstacle corners and route waypoints lie within the world's bounds; obstacles are at
// most kMaxObstacleSizeM on each axis, eye heights and speeds bounded (world/limits.h).
#pragma once

#include <string>
#include <vector>

#include "nav/nav_config.h"
#include "sim/commands.h"
#include "world/limits.h"
#include "world/obstacle.h"
#include "world/place.h"

namespace npc {

class Simulation;
class World;

// A player the daemon moves itself along a looping route when no game is attached.
struct ScriptedPlayer {
  EntityId id = EntityId::kNone;
  std::string species = "human";
  float speed_mps = 1.5f;
  std::vector<Vec3> route;  // at least two waypoints; walked in a loop
};

struct WorldFile {
  std::string source;  // file name, for messages
  std::vector<Place> places;
  std::vector<Obstacle> obstacles;
  std::vector<EntityState> entities;
  std::vector<ScriptedPlayer> players;
  nav::NavConfig navmesh;  // present: built (geometry + obstacles) or loaded by applyWorldFile
};

// Parses `path`. Returns false with every problem in `errors` ("file: /path: message").
bool loadWorldFile(const std::string& path, WorldFile& out, std::vector<std::string>& errors,
                   const WorldBounds& bounds = {});
// Same, from text (for tests); `name` is used in messages.
bool parseWorldFile(const std::string& name, const std::string& text, WorldFile& out,
                    std::vector<std::string>& errors, const WorldBounds& bounds = {});

// Adds the places and obstacles to the simulation's world now, builds or loads its navmesh,
// and queues the entities as daemon-owned upserts for the next tick. Returns false and reports problems that need the
// simulation to detect (a place name already present, an archetype it does not know).
// With leased places (SimConfig::leased_places) the npcs are left out: see queuePlaceNpcs.
bool applyWorldFile(const WorldFile& file, Simulation& sim, std::vector<std::string>& errors);
// A cluster node that came to hold `place` with no snapshot of it (the place's first holder)
// queues the npcs the world file starts there (their "place", or the place their position is
// in), after the HoldPlace. Returns how many were queued (0 also when the queue was full).
size_t queuePlaceNpcs(const WorldFile& file, std::string_view place, Simulation& sim);
// Where a world file's entity starts in `world`: its "place", or the place its position is
// in (as an upsert decides); kNone when neither.
PlaceIndex startingPlace(const EntityState& entity, const World& world);

}  // namespace npc
