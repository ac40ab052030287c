// Smart objects: world entities of kind object whose species a domain registers
// ("smart_objects" in the domain file) advertise actions (torch → BurnWith, boulder → Throw).
//
// Before planning, the caller gathers the objects near the agent from the World's spatial
// index (gatherSmartObjects) and passes them with the request. The planner then prunes per
// action — too far (object.max_distance_m), unreachable (optional Reachability), beyond the
// nearest max_candidates (default 3) — and searches one action instance per surviving
// candidate, so other steps of the plan decide which object is best (the seed's Immortals
// rule, not AC Odyssey's "nearest only"). Every pruned object is a trace rejection.
//
// Thread: tick thread; gathering reads the World as of its last refreshSpatialIndex().
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "goap/goap_types.h"
#include "world/ids.h"
#include "world/vec3.h"

namespace npc {
template <class Id>
class NameTable;
class World;
}  // namespace npc

namespace npc::goap {

class GoapDomain;

struct SmartObjectCandidate {
  EntityId entity = EntityId::kNone;
  SmartObjectTypeId type = SmartObjectTypeId::kNone;
  Vec3 position;
};

// Maps the world's interned species ids to one domain's smart-object types. Species are
// interned as clients send them, so call sync() before gathering (O(new species)).
class SmartObjectSpecies {
 public:
  explicit SmartObjectSpecies(const GoapDomain& domain) : domain_(&domain) {}
  void sync(const NameTable<SpeciesId>& species);
  SmartObjectTypeId typeOf(SpeciesId species) const {
    return raw(species) < types_.size() ? types_[raw(species)] : SmartObjectTypeId::kNone;
  }
  const GoapDomain& domain() const { return *domain_; }

 private:
  const GoapDomain* domain_;
  std::vector<SmartObjectTypeId> types_;  // by species id
};

// Writes the active smart objects within radius_m of center into `out`, nearest first
// (ties by entity id), and returns how many. When more match than `out` holds, the farthest
// are dropped and *truncated is set. Allocates nothing.
uint32_t gatherSmartObjects(const World& world, const SmartObjectSpecies& species, Vec3 center,
                            float radius_m, std::span<SmartObjectCandidate> out,
                            bool* truncated = nullptr);

// Optional navigation for candidate pruning and travel costs (the game's navmesh answers
// it; without one every object within distance is reachable and travel is a straight line).
class Reachability {
 public:
  virtual ~Reachability() = default;
  virtual bool reachable(Vec3 from, Vec3 to) const = 0;
  // Metres walked from `from` to `to`, priced by travel_per_m and distance_per_m: at least
  // the straight-line distance (the search heuristic's lower bound relies on it), or
  // kInfiniteCost when no walk gets there (the step is then not taken).
  virtual float travelDistance(Vec3 from, Vec3 to) const { return length(to - from); }
};

}  // namespace npc::goap
