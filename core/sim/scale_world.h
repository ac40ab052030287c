// Scale worlds: a generated WorldFile for load runs and benchmarks — N agents of the demo
// archetypes spread over many places laid out on a grid, with walls and bushes, objects the
// planners use, and scripted players walking through the places, so that every phase of the
// tick (places, perception, selection, behavior trees, planning, scheduling) has real work.
//
// Layout: places are squares of `place_size_m` on a grid with `gap_m` between them, one per
// `agents_per_place` agents (the last one may hold fewer). In each place: agents spread
// uniformly (the mix below, round-robin by weight), `players_per_place` scripted players
// looping through it, 4 hard walls and 4 soft bushes, and one smart object per pyromaniac
// (torch, brazier, haystack, cart, oil lamp). Same spec ⇒ same world (seeded).
//
// Ids: places "p<i>"; agents first_agent_id.., objects first_object_id.., players
// first_player_id.., obstacles 1.. . Archetype names must exist where the world is used
// (config/archetypes: villager, guard, woodcutter, wolf, pyromaniac).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/world_file.h"

namespace npc {

struct ScaleWorldSpec {
  uint32_t agents = 10000;           // [Limit: <= 10,000,000]
  uint32_t agents_per_place = 500;   // [Limit: > 0]
  uint32_t players_per_place = 2;    // scripted players per place
  float place_size_m = 100.f;        // side of a place's square [Limit: > 10]
  float gap_m = 20.f;                // between places
  float player_speed_mps = 2.f;
  // Archetype and weight: of every sum(weights) agents, `weight` are this archetype.
  std::vector<std::pair<std::string, uint32_t>> mix = {
      {"villager", 40}, {"woodcutter", 20}, {"guard", 25}, {"wolf", 14}, {"pyromaniac", 1}};
  uint64_t seed = 1;
  uint64_t first_agent_id = 1000000;
  uint64_t first_object_id = 50000000;
  uint64_t first_player_id = 1;
};

// The world described above; `source` names the spec ("scale world (100000 agents)").
WorldFile makeScaleWorld(const ScaleWorldSpec& spec);

// The world as world-file JSON (core/sim/world_file.h's schema), so that npcd can load it
// with "world": a round trip through parseWorldFile gives the same world.
std::string worldFileJson(const WorldFile& world);

}  // namespace npc
