// Frame splitting: a game frame that holds more items than one WorldUpdate may carry (npcd's
// max_items_per_update, 10,000 by default) goes out as several consecutive updates. Items
// keep their order: every field's items are taken front to back, fields in the order npcd
// applies them (upserts, removals, obstacles, obstacle removals, sounds, signals, results,
// external actions, game actions), so the daemon applies the parts exactly as it would
// have applied the whole frame. The subscription travels with the first part.
#pragma once

#include <cstddef>
#include <vector>

#include "npc/v1/npc.pb.h"

namespace npc::bots {

// Items in an update, counted as npcd counts them (subscription places and events too).
size_t updateItems(const v1::WorldUpdate& update);

// Moves the items of `frame` into `parts` (cleared first, storage reused), each part at most
// `max_items` items [Limit: > 0] and numbered from `frame.seq()` upwards. A frame within the
// limit becomes one part. Returns the number of parts.
size_t splitFrame(v1::WorldUpdate& frame, size_t max_items, std::vector<v1::WorldUpdate>& parts);

}  // namespace npc::bots
