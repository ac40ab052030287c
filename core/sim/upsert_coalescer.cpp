#include "sim/upsert_coalescer.h"

#include "world/world.h"

namespace npc {

namespace {

size_t hashOf(EntityId id) { return static_cast<size_t>((raw(id) * 0x9E3779B97F4A7C15ull) >> 32); }

}  // namespace

void UpsertCoalescer::plan(std::span<const std::span<const CommandDigest>> batches,
                           const World& world) {
  size_t count = 0;
  for (std::span<const CommandDigest> batch : batches) count += batch.size();
  chain_of_.resize(count);
  records_.clear();
  startSegment();
  uint32_t at = 0;
  for (std::span<const CommandDigest> batch : batches) {
    for (const CommandDigest& d : batch) {
      chain_of_[at] = kNoChain;
      if (d.kind == CommandDigest::Kind::kOther) {
        startSegment();
      } else {
        add(d, at, world);
      }
      ++at;
    }
  }
}

void UpsertCoalescer::add(const CommandDigest& d, uint32_t at, const World& world) {
  Slot& slot = slotOf(d.id);
  if (slot.chain != kNoChain) {
    Record& r = records_[slot.chain];
    if (d.kind == CommandDigest::Kind::kPlainUpsert && d.origin == r.origin &&
        d.entity_kind == r.entity_kind) {
      // The chain's last upsert so far becomes one that may be skipped.
      r.fields_before_last |= r.last_fields;
      if (r.last_fields & CommandDigest::kPosition) {
        const PlaceIndex place = world.placeAt(r.last_position);
        if (r.moves_before_last && place != r.place_before_last) r.places_differ = true;
        r.place_before_last = place;
        r.moves_before_last = true;
      }
      r.last = at;
      r.last_fields = d.fields;
      r.last_position = d.position;
      chain_of_[at] = slot.chain;
      return;
    }
    slot.chain = kNoChain;  // ends here: this upsert applies after the chain's last
  }
  if (d.kind != CommandDigest::Kind::kPlainUpsert) return;
  Record& r = records_.emplace_back();
  r.id = d.id;
  r.origin = d.origin;
  r.entity_kind = d.entity_kind;
  r.first = r.last = at;
  r.last_fields = d.fields;
  r.last_position = d.position;
  slot.chain = static_cast<uint32_t>(records_.size() - 1);
  chain_of_[at] = slot.chain;
}

void UpsertCoalescer::startSegment() {
  if (++stamp_ == 0) {  // wrapped: old stamps could match again
    for (Slot& s : slots_) s.stamp = 0;
    stamp_ = 1;
  }
  used_ = 0;
}

UpsertCoalescer::Slot& UpsertCoalescer::slotOf(EntityId id) {
  if (2 * (used_ + 1) > slots_.size()) grow();
  const size_t mask = slots_.size() - 1;
  size_t i = hashOf(id) & mask;
  while (slots_[i].stamp == stamp_ && slots_[i].id != id) i = (i + 1) & mask;
  if (slots_[i].stamp != stamp_) {
    slots_[i] = {id, kNoChain, stamp_};
    ++used_;
  }
  return slots_[i];
}

void UpsertCoalescer::grow() {
  std::vector<Slot> old;
  old.swap(slots_);
  slots_.assign(old.empty() ? 1024 : 2 * old.size(), Slot{});
  const size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.stamp != stamp_) continue;
    size_t i = hashOf(s.id) & mask;
    while (slots_[i].stamp == stamp_) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace npc
