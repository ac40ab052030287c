// PlaceDispatcher: the seed's stimuli dispatcher, one state per place. It hears about
// activity (a player present, an agent perceiving something, a sound or signal reaching the
// place) and decides when a quiet place starts to hibernate and when a sleeping one must wake.
//
//   awake ──quiet for quiet_s──▶ draining ──no agent mid client action──▶ asleep
//     ▲                            │ activity (takeResumed)                  │ wake cause
//     └────────────────────────────┴─────────────────────────────────────────┘
// Draining lets client-side actions in flight finish (agents start no new ones) so nothing
// is cut off: see core/hibernation/README.md. The simulation moves agents in and out; this
// class only keeps the per-place state. Tick thread only; no clock of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "world/ids.h"

namespace npc {

enum class PlaceState : uint8_t { kAwake, kDraining, kAsleep };

const char* toString(PlaceState state);

struct HibernationConfig {
  bool enabled = true;
  double quiet_s = 30.0;  // no player and no perception activity for this long → hibernate
};

class PlaceDispatcher {
 public:
  explicit PlaceDispatcher(const HibernationConfig& config = {}) : config_(config) {}

  // Makes room for `count` places; new ones start awake with activity at now_s.
  void resize(size_t count, double now_s);
  const HibernationConfig& config() const { return config_; }

  // Activity keeps an awake place awake. A draining place goes back to awake at the next
  // takeResumed(), which says which ones did, so their agents can be told (OnPlaceAwake).
  void noteActivity(PlaceIndex place, double now_s);
  // Draining places that saw activity since they began to drain become awake again; their
  // indices are appended to `out`. No extra state: a place drains only once quiet_s passed
  // since its last activity, so activity less than quiet_s ago came after it began.
  void takeResumed(double now_s, std::vector<PlaceIndex>& out);
  PlaceState state(PlaceIndex place) const {
    return raw(place) < places_.size() ? places_[raw(place)].state : PlaceState::kAwake;
  }
  bool asleep(PlaceIndex place) const { return state(place) == PlaceState::kAsleep; }
  double asleepSince(PlaceIndex place) const { return places_[raw(place)].asleep_since_s; }

  // Awake places quiet for quiet_s become draining (returns how many changed).
  size_t beginDraining(double now_s);
  void setAsleep(PlaceIndex place, double now_s);
  void setAwake(PlaceIndex place, double now_s);
  // A game event due at at_s wakes the place (the earliest scheduled time wins).
  void scheduleWake(PlaceIndex place, double at_s);
  // Places whose scheduled wake is due; clears those schedules.
  void takeDueWakes(double now_s, std::vector<PlaceIndex>& out);

  size_t count(PlaceState state) const;
  size_t size() const { return places_.size(); }
  double lastActivity(PlaceIndex place) const { return places_[raw(place)].last_activity_s; }
  // Scheduled wake time (+inf: none).
  double wakeAt(PlaceIndex place) const { return places_[raw(place)].wake_at_s; }
  // Snapshot restore: a place's whole state as it was captured (resize() first).
  void restore(PlaceIndex place, PlaceState state, double last_activity_s, double asleep_since_s,
               double wake_at_s) {
    places_[raw(place)] = {state, last_activity_s, asleep_since_s, wake_at_s};
  }

 private:
  struct Status {
    PlaceState state = PlaceState::kAwake;
    double last_activity_s = 0.0;
    double asleep_since_s = 0.0;
    double wake_at_s = std::numeric_limits<double>::infinity();
  };
  HibernationConfig config_;
  std::vector<Status> places_;
};

}  // namespace npc
