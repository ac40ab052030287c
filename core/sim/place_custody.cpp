#include "sim/place_custody.h"

#include <algorithm>

namespace npc {

bool PlaceCustody::hold(PlaceIndex place, uint64_t epoch) {
  Status& status = places_[raw(place)];
  if (epoch <= status.epoch) return false;
  status = {true, epoch, {}};
  return true;
}

const std::string& PlaceCustody::holder(PlaceIndex place) const {
  static const std::string kUnknown;
  return raw(place) < places_.size() ? places_[raw(place)].holder : kUnknown;
}

size_t PlaceCustody::heldCount() const {
  if (!leased_) return places_.size();
  return static_cast<size_t>(
      std::count_if(places_.begin(), places_.end(), [](const Status& s) { return s.held; }));
}

}  // namespace npc
