#include "frame_split.h"

#include <algorithm>

namespace npc::bots {

namespace {

// Moves up to `room` items of one repeated field from `from` (starting at `first`) into `to`.
template <class Field>
size_t moveRange(Field& from, int& first, Field& to, size_t room) {
  const int n = std::min<int>(from.size() - first, static_cast<int>(room));
  for (int i = 0; i < n; ++i) *to.Add() = std::move(from[first + i]);
  first += n;
  return static_cast<size_t>(n);
}

}  // namespace

size_t updateItems(const v1::WorldUpdate& u) {
  size_t n = static_cast<size_t>(u.upserts_size()) + u.removals_size() + u.obstacles_size() +
             u.obstacle_removals_size() + u.sounds_size() + u.signals_size() + u.results_size() +
             u.external_actions_size() + u.game_actions_size();
  if (u.has_subscribe()) n += u.subscribe().places_size() + u.subscribe().events_size();
  return n;
}

size_t splitFrame(v1::WorldUpdate& frame, size_t max_items, std::vector<v1::WorldUpdate>& parts) {
  const size_t limit = std::max<size_t>(1, max_items);
  size_t used = 0;
  auto next = [&]() -> v1::WorldUpdate& {
    if (used == parts.size()) parts.emplace_back();
    v1::WorldUpdate& part = parts[used];
    part.Clear();
    part.set_seq(frame.seq() + used);
    ++used;
    return part;
  };
  v1::WorldUpdate* part = &next();
  size_t room = limit;
  if (frame.has_subscribe()) {
    const size_t sub =
        static_cast<size_t>(frame.subscribe().places_size() + frame.subscribe().events_size());
    *part->mutable_subscribe() = std::move(*frame.mutable_subscribe());
    room -= std::min(room, sub);
  }
  // Moves every item of one field, opening parts as they fill up.
  auto drain = [&](auto& from, auto field_of) {
    int first = 0;
    while (first < from.size()) {
      if (room == 0) {
        part = &next();
        room = limit;
      }
      room -= moveRange(from, first, field_of(*part), room);
    }
  };
  using U = v1::WorldUpdate;
  drain(*frame.mutable_upserts(), [](U& u) -> auto& { return *u.mutable_upserts(); });
  drain(*frame.mutable_removals(), [](U& u) -> auto& { return *u.mutable_removals(); });
  drain(*frame.mutable_obstacles(), [](U& u) -> auto& { return *u.mutable_obstacles(); });
  drain(*frame.mutable_obstacle_removals(), [](U& u) -> auto& { return *u.mutable_obstacle_removals(); });
  drain(*frame.mutable_sounds(), [](U& u) -> auto& { return *u.mutable_sounds(); });
  drain(*frame.mutable_signals(), [](U& u) -> auto& { return *u.mutable_signals(); });
  drain(*frame.mutable_results(), [](U& u) -> auto& { return *u.mutable_results(); });
  drain(*frame.mutable_external_actions(), [](U& u) -> auto& { return *u.mutable_external_actions(); });
  drain(*frame.mutable_game_actions(), [](U& u) -> auto& { return *u.mutable_game_actions(); });
  return used;
}

}  // namespace npc::bots
