// Signals: named, fixed-size messages to agents. Perception emits the standard ones on state
// changes; the behavior layer (issues 03/04) and clients send custom ones. A signal name is
// interned once to a SignalId; the tick only moves 48-byte records, never strings.
//
// Routing (SignalRequest → Signal deliveries, done by PerceptionSystem::update):
//   kAgent    one agent (by entity id)
//   kGroup    every agent whose PerceptionState::group equals `group` (group 0 = none)
//   kSpecies  every agent of entity species `species`
//   kRadius   every agent whose entity lies within radius_m of `position` (3-D distance)
//   kPlace    every agent whose entity is in place `place`
// An agent whose `signals` sensor is off receives nothing sent this way; the sender is
// skipped unless include_sender. Perception's own signals ignore the signals switch (vision
// and hearing have their own).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "world/ids.h"
#include "world/signal_names.h"
#include "world/vec3.h"

namespace npc {

// One delivery: a signal as one agent receives it.
struct Signal {
  EntityId receiver = EntityId::kNone;
  EntityId sender = EntityId::kNone;   // kNone: perception itself
  EntityId subject = EntityId::kNone;  // the target or sound source concerned, if any
  Vec3 position;                       // seen/lost/investigate/sound position, or sender's data
  float value = 0.f;                   // coefficient, threat, class, or sender's data
  SignalId id = SignalId::kNone;
  ActionNameId action = ActionNameId::kNone;  // the action concerned (OnExternalAction,
                                             // OnObjectTaken), in the sender's name table
};

// Fixed-capacity output buffer owned by the caller. push() past capacity drops the signal and
// counts it (never allocates once constructed). clear() keeps the capacity and the count.
class SignalQueue {
 public:
  explicit SignalQueue(size_t capacity = 65536) : capacity_(capacity) { items_.reserve(capacity); }

  bool push(const Signal& signal) {
    if (items_.size() >= capacity_) {
      ++dropped_;
      return false;
    }
    items_.push_back(signal);
    return true;
  }
  std::span<const Signal> signals() const { return items_; }
  size_t size() const { return items_.size(); }
  size_t capacity() const { return capacity_; }
  void clear() { items_.clear(); }
  uint64_t dropped() const { return dropped_; }  // since construction
  // Counts `n` signals dropped on their way here (a worker's own queue overflowed).
  void countDropped(uint64_t n) { dropped_ += n; }

 private:
  std::vector<Signal> items_;
  size_t capacity_;
  uint64_t dropped_ = 0;
};

enum class SignalScope : uint8_t { kAgent, kGroup, kSpecies, kRadius, kPlace };

struct SignalRequest {
  SignalId id = SignalId::kNone;
  SignalScope scope = SignalScope::kAgent;
  EntityId sender = EntityId::kNone;
  EntityId target = EntityId::kNone;  // kAgent
  GroupNumber group = GroupNumber::kNone;  // kGroup [Limit: != kNone]
  SpeciesId species = SpeciesId::kNone;  // kSpecies
  float radius_m = 0.f;               // kRadius, around `position`
  PlaceIndex place = PlaceIndex::kNone;  // kPlace
  Vec3 position;                      // carried to receivers (and the kRadius centre)
  float value = 0.f;                  // carried to receivers
  EntityId subject = EntityId::kNone; // carried to receivers
  ActionNameId action = ActionNameId::kNone;  // carried to receivers (Signal::action)
  bool include_sender = false;
};

}  // namespace npc
