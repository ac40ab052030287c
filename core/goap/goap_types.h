// GOAP vocabulary shared by every file of core/goap: typed ids, limits and the packed
// world state the planner searches over. See core/goap/README.md for the design.
//
// Everything GOAP lives in namespace npc::goap: its short names (Bucket, Goal, Condition)
// would otherwise collide with other subsystems' types inside namespace npc.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace npc::goap {

// --- ids (resolved at load; the runtime never compares names) -----------------------------
enum class FactId : uint16_t { kNone = 0xffff };
enum class ActionId : uint16_t { kNone = 0xffff };
enum class GoalId : uint16_t { kNone = 0xffff };
enum class BucketId : uint8_t { kNone = 0xff };
enum class SmartObjectTypeId : uint16_t { kNone = 0xffff };
enum class BlackboardKeyId : uint8_t { kNone = 0xff };
enum class PacingTagId : uint16_t { kNone = 0xffff };
enum class TargetIndex : uint8_t { kNone = 0xff };

template <class E>
constexpr auto idx(E e) {
  return static_cast<std::underlying_type_t<E>>(e);
}

// --- limits (checked at load; "[Limit: ...]" in the schema) --------------------------------
inline constexpr int kStateWords = 4;                 // 256 bits of packed facts
inline constexpr int kMaxFactValues = 64;             // enum values / int range / locations
inline constexpr int kMaxLocations = 64;              // location slots per search (6 bits)
inline constexpr int kMaxGoalsPerRequest = 4;         // goals answered by one search
inline constexpr int kMaxPlanSteps = 32;              // steps kept in a PlanResult
inline constexpr int kMaxTargets = 8;                 // named targets per domain
inline constexpr int kMaxBlackboardKeys = 32;         // typed keys per blackboard schema
inline constexpr int kMaxLandmarks = 64;              // LM-cut landmarks kept per search
inline constexpr int kMaxConditionsPerAction = 32;

// --- packed world state -----------------------------------------------------------------
// Facts are packed into fixed bit fields (GoapDomain::layout); a field never straddles a
// word. Only the first GoapDomain::stateWords() words are used; the rest stay zero, so
// equality and hashing over all words are correct, but the planner touches only the used
// ones.
struct GoapState {
  std::array<uint64_t, kStateWords> w{};

  friend bool operator==(const GoapState&, const GoapState&) = default;
};

// Where a fact lives inside GoapState.
struct FactField {
  uint8_t word = 0;
  uint8_t shift = 0;
  uint8_t bits = 0;
  uint64_t mask() const { return (bits >= 64 ? ~0ull : ((1ull << bits) - 1)) << shift; }
};

inline uint32_t readField(const GoapState& s, FactField f) {
  return static_cast<uint32_t>((s.w[f.word] >> f.shift) & ((1ull << f.bits) - 1));
}
inline void writeField(GoapState& s, FactField f, uint32_t raw) {
  s.w[f.word] = (s.w[f.word] & ~f.mask()) | (static_cast<uint64_t>(raw) << f.shift);
}

inline uint64_t hashState(const GoapState& s, int words) {
  uint64_t h = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < words; ++i) {
    h ^= s.w[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
  }
  return h ^ (h >> 31);
}
inline bool sameState(const GoapState& a, const GoapState& b, int words) {
  for (int i = 0; i < words; ++i)
    if (a.w[i] != b.w[i]) return false;
  return true;
}

// --- comparisons ------------------------------------------------------------------------
// kIn is set membership ("location in [home, woodshed]"): fact conditions are tested through
// Condition::accepted, never through compare().
enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe, kIn };

inline bool compare(CompareOp op, float a, float b) {
  switch (op) {
    case CompareOp::kEq: return a == b;
    case CompareOp::kNe: return a != b;
    case CompareOp::kLt: return a < b;
    case CompareOp::kLe: return a <= b;
    case CompareOp::kGt: return a > b;
    case CompareOp::kGe: return a >= b;
    case CompareOp::kIn: return false;
  }
  return false;
}
inline bool compare(CompareOp op, int32_t a, int32_t b) {
  switch (op) {
    case CompareOp::kEq: return a == b;
    case CompareOp::kNe: return a != b;
    case CompareOp::kLt: return a < b;
    case CompareOp::kLe: return a <= b;
    case CompareOp::kGt: return a > b;
    case CompareOp::kGe: return a >= b;
    case CompareOp::kIn: return false;
  }
  return false;
}
const char* toString(CompareOp op);

inline constexpr float kInfiniteCost = std::numeric_limits<float>::infinity();

}  // namespace npc::goap
