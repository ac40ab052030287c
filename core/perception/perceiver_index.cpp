#include "perception/perceiver_index.h"

#include <algorithm>

namespace npc {

void PerceiverIndex::clear() {
  by_group_.clear();
  by_species_.clear();
  by_place_.clear();
}

void PerceiverIndex::add(uint32_t perceiver, GroupNumber group, SpeciesId species,
                         PlaceIndex place) {
  if (group != GroupNumber::kNone) by_group_.add(raw(group), perceiver);
  by_species_.add(raw(species), perceiver);
  if (place != PlaceIndex::kNone) by_place_.add(static_cast<uint16_t>(place), perceiver);
}

void PerceiverIndex::build() {
  by_group_.build();
  by_species_.build();
  by_place_.build();
}

void PerceiverIndex::Buckets::build() {
  uint32_t keys = 0;
  for (const Entry& e : staged_) keys = std::max<uint32_t>(keys, e.key + 1u);
  // start_[k + 1] counts key k, then the running sum turns counts into starts.
  start_.assign(keys + 1, 0);
  for (const Entry& e : staged_) ++start_[e.key + 1u];
  for (uint32_t k = 0; k < keys; ++k) start_[k + 1] += start_[k];
  members_.resize(staged_.size());
  // Staged in ascending perceiver order, placed in that order: each bucket stays sorted.
  // start_[k] is used as the fill cursor and ends at the next bucket's start, so it is
  // shifted back afterwards.
  for (const Entry& e : staged_) members_[start_[e.key]++] = e.perceiver;
  for (uint32_t k = keys; k > 0; --k) start_[k] = start_[k - 1];
  if (keys) start_[0] = 0;
}

std::span<const uint32_t> PerceiverIndex::Buckets::of(uint16_t key) const {
  if (static_cast<size_t>(key) + 1 >= start_.size()) return {};
  return {members_.data() + start_[key], start_[key + 1] - start_[key]};
}

}  // namespace npc
