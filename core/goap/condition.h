// The reusable building blocks designers compose actions from: conditions, effects and
// costs, already resolved to integer ids (see domain_loader.h for their JSON forms).
//
//   Condition  Fact(f) op v             planned state; op ∈ = ≠ < ≤ > ≥
//              Fact(f) in {v, ...}      an enum fact has one of the values
//              DistanceTo(ref) op r     planned position (state's location slot) to ref, metres
//              At(ref)                  DistanceTo(ref) ≤ at_tolerance_m
//              Blackboard(key) op v     agent or group blackboard; fixed during one search
//              Any(alt, alt, ...)       one alternative holds; an alternative is a conjunction
//                                       of the kinds above (action preconditions), of facts
//                                       (goals' desired conditions)
//   Effect     f := v, f += n, f −= n   (a bounded int leaving [min, max] makes the action
//                                        inapplicable, unless the effect clamps: then it
//                                        saturates at max / min)
//              MoveTo(ref)              planned position := ref's location
//              MoveNear(ref, range)     planned position := the point at `range` (minus 1 mm,
//                                       so range conditions hold despite rounding) from ref on
//                                       the line from the current planned position (or stays
//                                       put when already within range)
//   Cost       base + travel_per_m · metres moved by this action
//                   + distance_per_m · DistanceTo(distance_ref) before acting
//                   + table[f] (a number per value of one fact, e.g. travel time by `at`)
//                   + pacing (pacing.h; fixed per search)
//
// A ref names a location: "$object" (the smart object bound to this action instance) or a
// target declared by the domain ("enemy"), whose position the caller gives per request.
// All evaluation is a pure function of (state, location table): the same action on the same
// state costs the same everywhere in a search.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "goap/goap_types.h"
#include "world/vec3.h"

namespace npc::goap {

enum class RefKind : uint8_t { kNone, kObject, kTarget };
struct LocationRef {
  RefKind kind = RefKind::kNone;
  TargetIndex target = TargetIndex::kNone;
  friend bool operator==(LocationRef, LocationRef) = default;
};

enum class ConditionKind : uint8_t { kFact, kDistance, kAt, kBlackboard, kAny };
enum class BlackboardScope : uint8_t { kAgent, kGroup };

struct Condition {
  ConditionKind kind = ConditionKind::kFact;
  CompareOp op = CompareOp::kEq;
  // kFact
  FactId fact = FactId::kNone;
  int32_t value = 0;       // logical value (bool 0/1, enum index, int value); unused by kIn
  FactField field;         // resolved at load
  int32_t min = 0;         // the fact's minimum: raw = value − min
  // Bit per raw value the condition accepts, whatever the op (resolved at load; a fact has
  // at most 64 values): evaluation is one shift, and `in` is just another set of values.
  uint64_t accepted = 0;
  // kDistance / kAt
  LocationRef ref;
  float metres = 0.f;
  // kBlackboard
  BlackboardKeyId key = BlackboardKeyId::kNone;
  BlackboardScope scope = BlackboardScope::kAgent;
  float number = 0.f;
  // kAny: the alternatives, each a non-empty conjunction of conditions of the other kinds.
  std::vector<std::vector<Condition>> any;
  // Estimated evaluation cost in abstract units (statistics order conditions by
  // cost / failure rate). Defaults: fact 1, blackboard 2, distance/at 4.
  uint16_t eval_cost = 1;
  uint16_t declared = 0;   // index as declared in the action (stable across re-ordering)
  std::string text;        // canonical text, e.g. "has_torch = true" (diagnostics, stats)

  bool readsPlannedState() const { return kind != ConditionKind::kBlackboard; }
  bool readsLocation() const {
    return kind == ConditionKind::kDistance || kind == ConditionKind::kAt;
  }
  // kFact: whether the logical value `v` satisfies the condition.
  bool accepts(int32_t v) const {
    const int32_t raw = v - min;
    return raw >= 0 && raw < 64 && ((accepted >> raw) & 1);
  }
};

enum class EffectKind : uint8_t { kSet, kAdd, kMoveTo, kMoveNear };

struct Effect {
  EffectKind kind = EffectKind::kSet;
  FactId fact = FactId::kNone;
  FactField field;
  int32_t value = 0;       // kSet: logical value; kAdd: signed delta
  int32_t min = 0, max = 0;  // the fact's bounds (kAdd range check)
  bool clamp = false;      // kAdd: saturate at [min, max] instead of being inapplicable
  LocationRef ref;         // kMoveTo / kMoveNear
  float range_m = 0.f;     // kMoveNear
  bool moves() const { return kind == EffectKind::kMoveTo || kind == EffectKind::kMoveNear; }
};

struct CostSpec {
  float base = 1.f;
  float travel_per_m = 0.f;
  LocationRef distance_ref;
  float distance_per_m = 0.f;
  FactId table_fact = FactId::kNone;
  FactField table_field;
  uint32_t table_offset = 0;  // into GoapDomain::costTable(); one entry per raw value
  uint32_t table_size = 0;

  bool readsLocation() const { return travel_per_m != 0.f || distance_per_m != 0.f; }
};

// One action instance's view of the search's location table.
inline constexpr uint8_t kNoSlot = 0xff;
struct LocationView {
  std::span<const Vec3> positions;           // by slot
  uint8_t object_slot = kNoSlot;             // the instance's bound object
  const uint8_t* target_slots = nullptr;     // by TargetIndex; kNoSlot = absent
  FactField location;                        // where the planned slot lives in the state

  uint8_t slotOf(LocationRef ref) const {
    if (ref.kind == RefKind::kObject) return object_slot;
    if (ref.kind == RefKind::kTarget && target_slots) return target_slots[idx(ref.target)];
    return kNoSlot;
  }
  uint8_t plannedSlot(const GoapState& s) const {
    return static_cast<uint8_t>(readField(s, location));
  }
};

// Planned-state conditions (kFact, kDistance, kAt) but kAny: the planner's compiled lists
// (`rest`, variants, goals) never hold an `any`, and its loops keep this one inlined.
// kBlackboard is evaluated once per search by the planner (it cannot change while planning)
// and holds here.
inline bool holdsPlain(const Condition& c, const GoapState& s, const LocationView* view) {
  switch (c.kind) {
    case ConditionKind::kFact: return (c.accepted >> readField(s, c.field)) & 1;
    case ConditionKind::kDistance:
    case ConditionKind::kAt: {
      if (!view) return false;
      const uint8_t ref = view->slotOf(c.ref);
      if (ref == kNoSlot) return false;
      const float d = length(view->positions[view->plannedSlot(s)] - view->positions[ref]);
      return c.kind == ConditionKind::kAt ? d <= c.metres : compare(c.op, d, c.metres);
    }
    case ConditionKind::kBlackboard: return true;
    case ConditionKind::kAny: break;  // holds()
  }
  return false;
}

// kAny: one alternative's conditions all hold (a blackboard one holds, as above: the planner
// searches `any` as variants, domain.h).
bool holdsAny(const Condition& c, const GoapState& s, const LocationView* view);

// Any planned-state condition.
inline bool holds(const Condition& c, const GoapState& s, const LocationView* view) {
  return c.kind == ConditionKind::kAny ? holdsAny(c, s, view) : holdsPlain(c, s, view);
}

// Equality tests of many fact conditions at once: (state & mask) == value on every word.
struct MaskTest {
  std::array<uint64_t, kStateWords> mask{};
  std::array<uint64_t, kStateWords> value{};
  bool passes(const GoapState& s, int words) const {
    for (int i = 0; i < words; ++i)
      if ((s.w[i] & mask[i]) != value[i]) return false;
    return true;
  }
  bool empty() const {
    for (uint64_t m : mask)
      if (m) return false;
    return true;
  }
  // Adds "field == raw"; false when it contradicts an equality already added.
  bool add(FactField f, uint32_t raw) {
    const uint64_t m = f.mask(), v = static_cast<uint64_t>(raw) << f.shift;
    if ((mask[f.word] & m) && (value[f.word] & m) != v) return false;
    mask[f.word] |= m;
    value[f.word] = (value[f.word] & ~m) | v;
    return true;
  }
};

}  // namespace npc::goap
