// PlaceCustody: which places this daemon runs. Alone (the default) it runs every place.
// In a cluster each place is run by the one node holding its lease (server/cluster/), and
// the server tells the simulation with HoldPlace commands: a place is held from the
// lease's epoch on, and released when the lease is given up or may have been lost. A place
// not held has no agents here (they live on its holder), so no phase needs to skip
// anything: releasing a place unloads its agents, and an npc cannot be spawned or moved
// into a place held elsewhere.
//
// Epochs only grow: a hold must name an epoch above every one the place was held at
// before, so a late or replayed grant of an older lease cannot take a place back. Kept by
// snapshots and journaled (HoldPlace is a command). Tick thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "world/ids.h"

namespace npc {

// Players near a place held elsewhere (Simulation::takeVisitingPlayers): each one's state is
// relayed every kVisitorRelayS (staggered by id), and the holder keeps it as a visitor for
// kVisitorLifetimeS after the last relay. Often enough that a visitor there is a tick or two
// behind the player, and outlives a missed relay or two; rarely enough that a player
// walking along a border costs its stream five entries a second, not one a tick.
constexpr double kVisitorRelayS = 0.2;
constexpr double kVisitorLifetimeS = 1.0;

class PlaceCustody {
 public:
  // Leased custody: places start held by nobody. Off: every place is held (epoch 0).
  explicit PlaceCustody(bool leased = false) : leased_(leased) {}
  bool leased() const { return leased_; }

  void resize(size_t places) { places_.resize(places); }
  size_t size() const { return places_.size(); }

  // Whether this daemon runs `place`. PlaceIndex::kNone (outside every place) is held only
  // when custody is not leased: in a cluster every npc belongs to a place.
  bool held(PlaceIndex place) const {
    if (!leased_) return true;
    return raw(place) < places_.size() && places_[raw(place)].held;
  }
  // The epoch the place is held at, or was last held at (0: never).
  uint64_t epoch(PlaceIndex place) const {
    return raw(place) < places_.size() ? places_[raw(place)].epoch : 0;
  }
  // False when `epoch` is not above the place's last one (a stale grant).
  bool hold(PlaceIndex place, uint64_t epoch);
  void release(PlaceIndex place) { places_[raw(place)].held = false; }
  // Who holds a place this daemon does not, as the server last heard ("" = unknown).
  const std::string& holder(PlaceIndex place) const;
  void setHolder(PlaceIndex place, std::string holder) { places_[raw(place)].holder = std::move(holder); }
  size_t heldCount() const;

  // Snapshot restore (resize() first).
  void restore(PlaceIndex place, bool held, uint64_t epoch, std::string holder) {
    places_[raw(place)] = {held, epoch, std::move(holder)};
  }

 private:
  struct Status {
    bool held = false;
    uint64_t epoch = 0;
    std::string holder;  // when not held here
  };
  bool leased_ = false;
  std::vector<Status> places_;
};

}  // namespace npc
