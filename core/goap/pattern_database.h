// PatternDatabase: an admissible heuristic for one goal of a domain that plans no positions.
// It holds, for every combination of values of a few of the domain's facts (the pattern),
// the cheapest cost to the goal in the domain projected onto those facts: conditions and
// effects on other facts are dropped, a cost that a table reads from another fact takes the
// table's least entry. Any plan of the domain is a plan of the projection, so the table
// never overestimates; built once at load (pattern_database_builder.h), a node's h is one
// lookup with no per-search set-up. See core/goap/README.md ("Pattern databases").
//
// Values are kept in 1/16 cost units, rounded down (still a lower bound), 2 bytes a state;
// kDeadEnd marks a combination from which the projection reaches no goal state, so no
// state that projects onto it can either.
// Thread: immutable after build; shared by every planner of the domain.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "goap/goap_types.h"

namespace npc::goap {

class PatternDatabase {
 public:
  static constexpr uint16_t kDeadEnd = 0xffff;
  static constexpr float kUnitsPerCost = 16.f;
  static constexpr uint16_t kMaxUnits = kDeadEnd - 1;  // larger costs are stored as this

  bool empty() const { return table_.empty(); }
  size_t states() const { return table_.size(); }
  size_t bytes() const { return table_.size() * sizeof(uint16_t); }
  std::span<const FactId> pattern() const { return facts_; }

  uint32_t index(const GoapState& s) const {
    uint32_t i = 0;
    for (const Dimension& d : dims_) i += readField(s, d.field) * d.stride;
    return i;
  }
  // kInfiniteCost when no goal can be reached from s.
  float h(const GoapState& s) const {
    const uint16_t units = table_[index(s)];
    return units == kDeadEnd ? kInfiniteCost : units * (1.f / kUnitsPerCost);
  }

 private:
  friend class PatternDatabaseBuilder;
  struct Dimension {
    FactField field;
    uint32_t size = 0;    // values of the fact
    uint32_t stride = 0;  // index = Σ raw value · stride
  };
  std::vector<Dimension> dims_;  // by FactId, ascending
  std::vector<FactId> facts_;
  std::vector<uint16_t> table_;
};

}  // namespace npc::goap
