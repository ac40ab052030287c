// Stealth meter: for each player, the highest perception coefficient any agent currently has
// for them, and which agent (seed "stealth-o-meter"; Far Cry AIPlayer keeps the max of the
// values enemies report). A visible player counts 10; a potential or remembered one counts
// its coefficient, which decays while unseen.
//
// update() is called once per tick after all full updates (PerceptionSystem does it). It reads
// every perceiver's tracks (O(agents × tracks), no allocation once warm; with a worker pool
// each worker reads a slice of the perceivers and the tick thread keeps the maxima, which
// do not depend on the order they are offered in) and produces:
//   readings()  every player entity, sorted by player id (value 0 / agent kNone when nobody
//               perceives them);
//   changes()   the players whose meter moved by at least report_step since the value last
//               reported, or dropped to 0, or reached 10: the events to send to clients.
// Ties between agents go to the lower agent id.
//
// Thread: tick thread (the pool's threads only read tracks).
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "perception/perception_state.h"
#include "world/ids.h"

namespace npc {

class World;
class WorkerPool;

struct StealthReading {
  EntityId player = EntityId::kNone;
  EntityId agent = EntityId::kNone;  // the agent most likely to see the player
  float value = 0.f;                 // 0..10
};

struct StealthChange {
  EntityId player = EntityId::kNone;
  EntityId agent = EntityId::kNone;
  float value = 0.f;
  float previous = 0.f;  // the value last reported for this player (0 for a new player)
};

class StealthMeter {
 public:
  void update(const World& world, std::span<const Perceiver> perceivers, float report_step,
              WorkerPool* pool = nullptr);

  // The player's current reading; value 0 and agent kNone for an unknown player.
  StealthReading reading(EntityId player) const;
  std::span<const StealthReading> readings() const { return readings_; }
  std::span<const StealthChange> changes() const { return changes_; }
  // The value last reported per reading (parallel to readings()): what the next change is
  // measured from. Snapshots keep both; restore() puts them back (sorted by player).
  std::span<const float> reported() const { return reported_; }
  void restore(std::vector<StealthReading> readings, std::vector<float> reported) {
    readings_ = std::move(readings);
    reported_ = std::move(reported);
    reported_.resize(readings_.size(), 0.f);
    changes_.clear();
  }

 private:
  struct Cell {
    float value = 0.f;
    EntityId agent = EntityId::kNone;
  };
  // What one agent's track of a player offers that player's cell.
  struct Offer {
    uint32_t row = 0;  // the player's entity row
    Cell cell;
  };
  template <class Sink>
  static void gatherOffers(const World& world, std::span<const Perceiver> perceivers, Sink&& sink);
  void keep(const Offer& offer);
  std::vector<Cell> cells_;  // scratch, by entity row
  std::vector<std::vector<Offer>> lanes_;  // one per pool worker, capacity reused
  std::vector<StealthReading> readings_;
  std::vector<float> reported_;  // parallel to readings_
  std::vector<StealthReading> next_;
  std::vector<float> next_reported_;
  std::vector<StealthChange> changes_;
};

}  // namespace npc
