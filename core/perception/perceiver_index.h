// PerceiverIndex: one tick's perceivers listed by signal group, entity species and place, so
// that a group-, species- or place-scoped signal costs its receivers instead of a pass over
// every perceiver (at 100,000 agents that pass was most of the tick).
//
// Use, once per tick before delivering signals: clear(); add() each perceiver in ascending
// perceiver index; build(). Lookups then return the perceiver indices with that key in
// ascending order, the order a scan of the perceivers would visit them, so deliveries come
// out exactly as before.
//
// Cost: build() is a counting sort, O(perceivers + largest key); vectors keep their capacity,
// so a steady state allocates nothing. Thread: the perception phase's owner only.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "world/ids.h"

namespace npc {

class PerceiverIndex {
 public:
  void clear();
  // `group` and `place` kNone are not indexed; every species is, kNone included.
  // [Limit: perceiver indices strictly ascending across calls]
  void add(uint32_t perceiver, GroupNumber group, SpeciesId species, PlaceIndex place);
  void build();

  std::span<const uint32_t> inGroup(GroupNumber group) const { return by_group_.of(raw(group)); }
  std::span<const uint32_t> ofSpecies(SpeciesId species) const {
    return by_species_.of(raw(species));
  }
  std::span<const uint32_t> inPlace(PlaceIndex place) const {
    return by_place_.of(static_cast<uint16_t>(place));
  }

 private:
  // Perceiver indices bucketed by a 16-bit key (compressed rows: members of key k are
  // members_[start_[k] .. start_[k + 1])).
  class Buckets {
   public:
    void clear() { staged_.clear(); }
    void add(uint16_t key, uint32_t perceiver) { staged_.push_back({key, perceiver}); }
    void build();
    std::span<const uint32_t> of(uint16_t key) const;

   private:
    struct Entry {
      uint16_t key;
      uint32_t perceiver;
    };
    std::vector<Entry> staged_;
    std::vector<uint32_t> start_;
    std::vector<uint32_t> members_;
  };

  Buckets by_group_;
  Buckets by_species_;
  Buckets by_place_;
};

}  // namespace npc
