// TargetGrid: one tick's potential targets in a spatial grid per species that may not see
// them, so that an agent's sight query never walks the NPCs of its own species (the
// same-species rule hides them from it anyway).
//
// Why: in a world of one faction and its players (a game's townsfolk and guards, all of one
// species, spread over its map) nearly every target is of the perceivers' own kind. A single
// grid had each of 100,000 agents walk the ten or so around it to find none it may see;
// that walk was 40 % of the daemon's CPU with 100,000 bot-driven NPCs.
//
// Groups: the targets every agent may see (players), each of the first kMaxSpeciesGroups
// species met in target order, and one shared group for targets of any further species,
// which every query walks and leaves to the caller's same-species test: a world of hundreds
// of species costs what one grid did, never more.
//
// query() gives the targets within range in ascending target index, the lowest ones when
// more are in range than `out` holds: what one grid of every target gives, less those of the
// viewer's species.
//
// Use, once per tick: clear(); add() each target; build(); then query() from any thread.
// Cost: build O(targets); a query walks only the groups the viewer may see. Grids and lists
// keep their capacity, so a steady world allocates nothing. Thread: build on one thread;
// query() is const.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "world/ids.h"
#include "world/spatial_grid.h"
#include "world/vec3.h"

namespace npc {

class TargetGrid {
 public:
  static constexpr size_t kMaxSpeciesGroups = 14;

  explicit TargetGrid(float cell_size_m);

  void clear();
  // Target `index` (an index into the caller's target list) with its eye at `eye`.
  // `hidden_from`: the species whose agents may not see it; nullopt: everyone may (players).
  void add(uint32_t index, Vec3 eye, std::optional<SpeciesId> hidden_from);
  void build();

  // Writes the targets within `radius_m` of `eye` that agents of `viewer` may see into
  // `out`, ascending, and returns how many; more in range than `out` holds sets `truncated`
  // and keeps the lowest indices. Targets of the shared group are all given.
  uint32_t query(Vec3 eye, float radius_m, SpeciesId viewer, std::span<uint32_t> out,
                 bool* truncated) const;

  size_t groupCount() const { return used_; }

 private:
  // Group keys: a species' raw index, or one of these (no species index reaches them).
  static constexpr uint32_t kSeenByAll = 0x10000;
  static constexpr uint32_t kShared = 0x10001;
  static constexpr uint8_t kNoGroup = 0xff;

  struct Group {
    uint32_t key = kShared;
    std::vector<Vec3> eyes;
    std::vector<uint32_t> targets;
    SpatialGrid grid;
  };
  Group& groupFor(uint32_t key);

  float cell_size_m_;
  std::vector<Group> groups_;             // [0, used_) hold this tick's targets
  size_t used_ = 0;
  std::vector<uint8_t> group_of_species_;  // by raw species; kNoGroup until met this tick
  uint8_t seen_by_all_ = kNoGroup;
  uint8_t shared_ = kNoGroup;
  size_t species_groups_ = 0;
};

}  // namespace npc
