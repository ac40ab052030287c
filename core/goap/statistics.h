// GOAP statistics (the seed's figure 5): per action, how often the planner checked it, how
// often it was applicable, how often it ended up in a returned plan and how its executions
// went; per condition (action-local, by declared index), evaluations and failures; the
// actions never used.
//
// Re-ordering: conditions are conjunctive and pure, so evaluating them in any order gives
// the same result; only the time spent differs. conditionOrder() sorts an action's
// conditions cheapest-most-failing first: ascending eval_cost / failure rate (a condition
// never evaluated gets rate ½; ties keep the declared order). applyTo() writes that order
// into a domain at load time, before planners use it.
//
// Persistence: toJson()/save() key everything by action name and condition text, so a file
// survives edits of the domain; load()/fromJson() add the counts of entries that still
// match and ignore the rest. Loaded at start, saved at shutdown (or periodically).
//
// Cost: counting needs the planner's per-condition path (GoapPlanner::setStatistics), about
// 1.5–2× slower than the mask fast path; leave it off in production builds that do not
// collect statistics. Not thread-safe; one per planner thread, merge() to combine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/status.h"
#include "goap/domain.h"

namespace npc::goap {

struct ConditionStats {
  uint64_t evaluations = 0;
  uint64_t failures = 0;
};

struct ActionStats {
  uint64_t checks = 0;       // applicability tests during searches
  uint64_t applicable = 0;
  uint64_t planned = 0;      // times in a returned plan
  uint64_t succeeded = 0;    // executions reported by PlanRunner
  uint64_t failed = 0;
};

class PlannerStatistics {
 public:
  explicit PlannerStatistics(const GoapDomain& domain);

  void countCondition(ActionId a, uint16_t declared, bool passed) {
    ConditionStats& c = conditions_[first_[idx(a)] + declared];
    ++c.evaluations;
    c.failures += !passed;
  }
  void countCheck(ActionId a, bool applicable) {
    ++actions_[idx(a)].checks;
    actions_[idx(a)].applicable += applicable;
  }
  void countPlanned(ActionId a) { ++actions_[idx(a)].planned; }
  void countExecuted(ActionId a, bool succeeded) {
    (succeeded ? actions_[idx(a)].succeeded : actions_[idx(a)].failed)++;
  }

  const ActionStats& action(ActionId a) const { return actions_[idx(a)]; }
  const ConditionStats& condition(ActionId a, uint16_t declared) const {
    return conditions_[first_[idx(a)] + declared];
  }
  // Actions that never appeared in a returned plan, in declaration order.
  std::vector<ActionId> neverUsed() const;
  // Permutation of the action's current conditions (see above).
  std::vector<uint16_t> conditionOrder(ActionId a) const;
  // Re-orders every action of `domain` (the domain these statistics were made for).
  void applyTo(GoapDomain& domain) const;
  void merge(const PlannerStatistics& other);
  void reset();

  nlohmann::json toJson() const;
  // Adds the counts of `j` (toJson() format); unknown actions/conditions are ignored.
  Status fromJson(const nlohmann::json& j);
  Status save(const std::string& path) const;
  Status load(const std::string& path);

  const GoapDomain& domain() const { return *domain_; }

 private:
  const GoapDomain* domain_;
  std::vector<ActionStats> actions_;
  std::vector<uint32_t> first_;          // action → its first ConditionStats
  std::vector<ConditionStats> conditions_;
};

}  // namespace npc::goap
