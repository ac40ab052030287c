// PatternDatabaseBuilder: chooses a goal's pattern and fills its PatternDatabase
// (pattern_database.h) by one backward Dijkstra over the projection. Load-time work: the
// domain loader builds one per goal when the domain's "search" sets "pattern_states".
//
// The pattern: the goal's facts, then, layer by layer, the facts that the last layer's
// achievers read (an achiever sets a pattern fact or adds to it; it reads its conditions'
// facts, its cost table's fact and the facts it takes from), within a layer those most
// achievers read first, then those of fewer values, each kept while the product of the
// pattern's value counts stays within max_states. This
// is the goal's causal neighbourhood: on the villager's day (tests/core/goap/data) it keeps
// the walks, the coins and the chains of bread and wood together, which is what the delete
// relaxation cannot see (core/goap/README.md).
//
// The projection's transitions are walked backwards (regression): from a state, each action
// gives the states it could have been applied in, one value per fact it leaves alone and
// the values its conditions allow where it sets a fact. Costs are integers in 1/16 units, so
// the open list is a bucket queue.
// Thread: one builder per thread; its scratch is reused for every table it builds.
#pragma once

#include <cstdint>
#include <vector>

#include "goap/domain.h"
#include "goap/pattern_database.h"

namespace npc::goap {

class PatternDatabaseBuilder {
 public:
  // [Limit: ≤ kMaxStates combinations a table, ≤ kMaxDomainStates in a domain's tables]
  static constexpr uint64_t kMaxStates = 1ull << 24;
  static constexpr uint64_t kMaxDomainStates = 1ull << 26;  // 128 MB of tables

  // The goal's pattern (ascending FactIds); empty when none of the goal's facts fits.
  static std::vector<FactId> choosePattern(const GoapDomain& d, GoalId goal,
                                           uint64_t max_states);
  // The combinations of values a pattern has: its table's size.
  static uint64_t states(const GoapDomain& d, const std::vector<FactId>& pattern);
  // The goal's table over `pattern` (choosePattern's), or over the pattern chosen within
  // max_states. The domain must plan no positions (no location fact).
  PatternDatabase build(const GoapDomain& d, GoalId goal, std::vector<FactId> pattern);
  PatternDatabase build(const GoapDomain& d, GoalId goal, uint64_t max_states) {
    return build(d, goal, choosePattern(d, goal, max_states));
  }

 private:
  // How an action treats one fact of the pattern.
  enum class Touch : uint8_t { kRead, kSet, kAdd, kClamp };
  struct FactUse {
    uint8_t dim = 0;
    Touch touch = Touch::kRead;
    int32_t value = 0;     // kSet: raw value; kAdd / kClamp: delta
    uint64_t allowed = 0;  // raw values its conditions accept before it acts
  };
  struct Operator {
    uint32_t first_use = 0, use_count = 0;  // into uses_
    int cost_dim = -1;                      // pattern dimension the cost table reads
    uint32_t first_cost = 0;                // into cost_units_: one entry, or one per value
  };

  static void nextLayer(const GoapDomain& d, const std::vector<FactId>& kept,
                        const std::vector<uint8_t>& considered, std::vector<uint32_t>& readers,
                        std::vector<FactId>& layer);
  void addOperators(const GoapDomain& d, const PatternDatabase& db, const ActionDef& a);
  void addOperator(const GoapDomain& d, const PatternDatabase& db, const ActionDef& a,
                   const std::vector<const Condition*>& conditions);
  void seedGoalStates(const PatternDatabase& db, const GoalDef& g);
  void seedProduct(const PatternDatabase& db, const std::vector<uint64_t>& allowed);
  uint64_t predecessorValues(const PatternDatabase& db, const FactUse& u, uint32_t value) const;
  void relax(uint32_t state, uint32_t units);
  void search(const PatternDatabase& db);
  void regress(const PatternDatabase& db, const Operator& op, uint32_t state,
               const uint32_t* value, uint64_t distance);
  // The fact's dimension in the table being built, or -1 when the pattern leaves it out.
  int dimOf(FactId f) const { return dim_of_[idx(f)]; }

  std::vector<int> dim_of_;                      // by FactId, filled by build()
  std::vector<FactUse> uses_;
  std::vector<Operator> ops_;
  std::vector<uint32_t> cost_units_;
  std::vector<uint32_t> dist_;                   // by abstract state, in cost units
  std::vector<std::vector<uint32_t>> buckets_;   // by distance modulo their count
  uint32_t bucket_count_ = 1;                    // the dearest operator's units + 1
  uint32_t queued_ = 0;                          // entries in buckets_, stale ones too
};

}  // namespace npc::goap
