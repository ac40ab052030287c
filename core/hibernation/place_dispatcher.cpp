#include "hibernation/place_dispatcher.h"

#include <algorithm>

namespace npc {

const char* toString(PlaceState state) {
  switch (state) {
    case PlaceState::kAwake: return "awake";
    case PlaceState::kDraining: return "draining";
    case PlaceState::kAsleep: return "asleep";
  }
  return "?";
}

void PlaceDispatcher::resize(size_t count, double now_s) {
  Status fresh;
  fresh.last_activity_s = now_s;
  places_.resize(count, fresh);
}

void PlaceDispatcher::noteActivity(PlaceIndex place, double now_s) {
  if (raw(place) >= places_.size()) return;
  places_[raw(place)].last_activity_s = now_s;
}

void PlaceDispatcher::takeResumed(double now_s, std::vector<PlaceIndex>& out) {
  for (size_t i = 0; i < places_.size(); ++i) {
    Status& s = places_[i];
    if (s.state == PlaceState::kDraining && now_s - s.last_activity_s < config_.quiet_s) {
      s.state = PlaceState::kAwake;
      out.push_back(static_cast<PlaceIndex>(i));
    }
  }
}

size_t PlaceDispatcher::beginDraining(double now_s) {
  if (!config_.enabled) return 0;
  size_t changed = 0;
  for (Status& s : places_) {
    if (s.state == PlaceState::kAwake && now_s - s.last_activity_s >= config_.quiet_s) {
      s.state = PlaceState::kDraining;
      ++changed;
    }
  }
  return changed;
}

void PlaceDispatcher::setAsleep(PlaceIndex place, double now_s) {
  Status& s = places_[raw(place)];
  s.state = PlaceState::kAsleep;
  s.asleep_since_s = now_s;
}

void PlaceDispatcher::setAwake(PlaceIndex place, double now_s) {
  Status& s = places_[raw(place)];
  s.state = PlaceState::kAwake;
  s.last_activity_s = now_s;
  s.wake_at_s = std::numeric_limits<double>::infinity();
}

void PlaceDispatcher::scheduleWake(PlaceIndex place, double at_s) {
  if (raw(place) >= places_.size()) return;
  places_[raw(place)].wake_at_s = std::min(places_[raw(place)].wake_at_s, at_s);
}

void PlaceDispatcher::takeDueWakes(double now_s, std::vector<PlaceIndex>& out) {
  for (size_t i = 0; i < places_.size(); ++i) {
    Status& s = places_[i];
    if (s.wake_at_s <= now_s) {
      s.wake_at_s = std::numeric_limits<double>::infinity();
      out.push_back(static_cast<PlaceIndex>(i));
    }
  }
}

size_t PlaceDispatcher::count(PlaceState state) const {
  return static_cast<size_t>(
      std::count_if(places_.begin(), places_.end(), [&](const Status& s) { return s.state == state; }));
}

}  // namespace npc
