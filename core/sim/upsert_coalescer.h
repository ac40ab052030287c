// UpsertCoalescer: which of a tick's queued upserts need not be applied, because a later
// upsert of the same entity from the same sender, applied anyway, leaves the world exactly
// as applying both would have.
//
// A game sends its entities' state at its own frame rate, often several times per tick,
// and only the last state before a tick is ever perceived. Applying every upsert costs the
// tick an entity lookup and a row write per item (core/sim/README.md "Ingest"); skipping the
// superseded ones must not change anything a client could see, so a skip is allowed only
// where it is exact:
//
// - The commands are read in order as segments split by every command that is not an upsert
//   (a result, a sound, a removal... may read an entity's fields, so nothing is carried
//   across one). Within a segment, the upserts of one entity form a chain.
// - A chain holds plain upserts (CommandDigest::kPlainUpsert) from one sender, of one kind;
//   any other upsert of the entity ends it (and is applied as it is). A chain coalesces only
//   if its last upsert sets every field the others set.
// - Its entity, when its first upsert is reached, must let it coalesce (the caller's
//   decision: awake, the sender may change it, its place stays the same...). Then every
//   upsert of the chain but the last is skipped; the last applies as usual.
//
// plan() reads only the drain's digests (command_digest.h); skip() is asked for each
// command in order. Nothing is allocated once its buffers have grown to the largest drain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/command_digest.h"
#include "world/ids.h"
#include "world/vec3.h"

namespace npc {

class World;

class UpsertCoalescer {
 public:
  // What the caller decides on when a chain's first upsert is reached.
  struct Chain {
    EntityId id = EntityId::kNone;
    ClientId origin = ClientId::kDaemon;
    EntityKind entity_kind = EntityKind::kObject;
    // Some upsert but the last sets a position; then every such position lies in
    // `place_before_last`, unless `places_differ`.
    bool moves_before_last = false;
    bool places_differ = false;
    PlaceIndex place_before_last = PlaceIndex::kNone;
  };

  // Reads the digests of a drain's batches, in order. `world` places positions.
  void plan(std::span<const std::span<const CommandDigest>> batches, const World& world);

  // Whether the command at `at` (its index in the drain) is skipped. Called for every
  // command in order; `may_coalesce(const Chain&)` is asked once per chain, at its first
  // upsert, with the world as that upsert meets it.
  template <class MayCoalesce>
  bool skip(size_t at, MayCoalesce&& may_coalesce) {
    const uint32_t c = chain_of_[at];
    if (c == kNoChain) return false;
    Record& r = records_[c];
    if (r.state == State::kUndecided) {
      const bool covered = (r.fields_before_last & ~r.last_fields) == 0;
      r.state = r.last != r.first && covered && may_coalesce(static_cast<const Chain&>(r))
                    ? State::kSkip
                    : State::kApply;
    }
    return r.state == State::kSkip && at != r.last;
  }

  // Whether the command at `at` may still be applied (for prefetching: false only for a
  // command skip() will skip).
  bool mayApply(size_t at) const {
    const uint32_t c = at < chain_of_.size() ? chain_of_[at] : kNoChain;
    return c == kNoChain || records_[c].state != State::kSkip || at == records_[c].last;
  }

 private:
  enum class State : uint8_t { kUndecided, kApply, kSkip };
  struct Record : Chain {
    uint32_t first = 0;
    uint32_t last = 0;
    uint8_t fields_before_last = 0;
    uint8_t last_fields = 0;
    Vec3 last_position;
    State state = State::kUndecided;
  };
  // The entity's chain in the current segment; slots of another stamp are empty.
  struct Slot {
    EntityId id = EntityId::kNone;
    uint32_t chain = 0;
    uint32_t stamp = 0;
  };

  static constexpr uint32_t kNoChain = UINT32_MAX;

  void startSegment();
  Slot& slotOf(EntityId id);
  void grow();
  void add(const CommandDigest& d, uint32_t at, const World& world);

  std::vector<uint32_t> chain_of_;  // per command of the drain
  std::vector<Record> records_;
  std::vector<Slot> slots_;  // open addressing, a power of two
  size_t used_ = 0;          // slots of the current stamp
  uint32_t stamp_ = 0;
};

}  // namespace npc
