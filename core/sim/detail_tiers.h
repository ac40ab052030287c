// DetailTiers: a level of detail between awake and asleep (Unreal's Mass LOD, MMO servers
// relaxing distant NPCs). An awake agent with a player within `near_m` runs every tick; any
// other runs its perception's full updates, its selection tree and its behavior on one
// tick in `far_period_ticks`, staggered by a hash of its id so that the far agents spread
// evenly over the ticks. What it does is unchanged in kind: timers and waits read simulated
// time, signals and sounds still reach it every tick (a selection variable they set is
// evaluated on its next turn), and its intentions are scheduled every tick (client results
// and timeouts are never late).
//
// The tiers are derived from the world each tick (who is near which player), so they need
// no snapshot and do not depend on the thread count. Config `tick.lod`; off by default.
// Thread: tick thread.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "agent/agent.h"

namespace npc {

class World;

struct DetailConfig {
  bool enabled = false;
  float near_m = 60.f;              // a player this near: every tick [Limit: > 0]
  uint32_t far_period_ticks = 4;    // otherwise one tick in this many [Limit: 1..1000]
};

class DetailTiers {
 public:
  // Sorts this tick's awake agents into tiers (rows as in `agents`).
  void update(const World& world, std::span<const Agent> agents, uint64_t tick,
              const DetailConfig& config);

  // Agent row `row` runs its full updates, selection and behavior this tick.
  bool runs(uint32_t row) const { return !enabled_ || runs_[row] != 0; }
  // By agent row, 1 = runs this tick; empty when the tiers are off (everyone runs).
  std::span<const uint8_t> runsByRow() const {
    return enabled_ ? std::span<const uint8_t>(runs_) : std::span<const uint8_t>();
  }
  // Awake agents on the reduced rate as of the last update (0 when off).
  size_t reduced() const { return reduced_; }

 private:
  bool enabled_ = false;
  std::vector<uint8_t> near_;  // by entity row: a player is within near_m
  std::vector<uint8_t> runs_;  // by agent row
  size_t reduced_ = 0;
};

}  // namespace npc
