#include "goap/pattern_database_builder.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

namespace npc::goap {

namespace {

constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();
constexpr size_t kMaxPatternFacts = 32;  // ≥ 2 values each, ≤ 2^24 states: at most 24

uint32_t valueCount(const FactDef& f) { return static_cast<uint32_t>(f.max - f.min + 1); }

uint64_t allValues(uint32_t size) { return size >= 64 ? ~0ull : (1ull << size) - 1; }

// A cost in table units, rounded down: the table stays a lower bound.
uint32_t toUnits(float cost) {
  if (!(cost > 0.f)) return 0;
  const float units = std::floor(cost * PatternDatabase::kUnitsPerCost);
  return units >= PatternDatabase::kMaxUnits ? PatternDatabase::kMaxUnits
                                              : static_cast<uint32_t>(units);
}

// Calls visit() once for every way of taking one value from each of masks[0..n) (bit v of
// masks[k]: value v may stand at k), with the values taken in chosen[0..n).
template <class Visit>
void forEachCombination(const uint64_t* masks, uint32_t n, uint32_t* chosen, Visit&& visit) {
  std::array<uint64_t, kMaxPatternFacts> rest;  // not cleared: rest[k] is set before it is read
  if (n == 0) {
    visit();
    return;
  }
  uint32_t k = 0;
  rest[0] = masks[0];
  for (;;) {
    if (rest[k] == 0) {
      if (k == 0) return;
      --k;
      continue;
    }
    chosen[k] = static_cast<uint32_t>(std::countr_zero(rest[k]));
    rest[k] &= rest[k] - 1;
    if (k + 1 < n) {
      ++k;
      rest[k] = masks[k];
      continue;
    }
    visit();
  }
}

// Whether the action sets the fact or adds to it.
bool achieves(const ActionDef& a, FactId f) {
  for (const Effect& e : a.effects)
    if (e.fact == f && (e.kind == EffectKind::kSet || (e.kind == EffectKind::kAdd && e.value > 0)))
      return true;
  return false;
}

}  // namespace

std::vector<FactId> PatternDatabaseBuilder::choosePattern(const GoapDomain& d, GoalId goal,
                                                          uint64_t max_states) {
  max_states = std::min(max_states, kMaxStates);
  const size_t n = d.facts().size();
  std::vector<uint8_t> considered(n, 0);
  std::vector<uint32_t> readers(n, 0);  // achievers of the last layer that read the fact
  std::vector<FactId> pattern, layer, kept;
  uint64_t states = 1;
  for (size_t f = 0; f < n; ++f) {
    const auto id = static_cast<FactId>(f);
    if (d.goal(goal).reads.has(id) && id != d.locationFact()) layer.push_back(id);
  }
  while (!layer.empty()) {
    // Read by more achievers first (a place every action needs), then fewer values.
    std::sort(layer.begin(), layer.end(), [&](FactId a, FactId b) {
      const uint32_t ra = readers[idx(a)], rb = readers[idx(b)];
      const uint32_t sa = valueCount(d.fact(a)), sb = valueCount(d.fact(b));
      return ra != rb ? ra > rb : sa != sb ? sa < sb : idx(a) < idx(b);
    });
    kept.clear();
    for (FactId f : layer) {
      considered[idx(f)] = 1;
      const uint64_t size = valueCount(d.fact(f));
      if (states * size > max_states || pattern.size() >= kMaxPatternFacts) continue;
      states *= size;
      pattern.push_back(f);
      kept.push_back(f);
    }
    nextLayer(d, kept, considered, readers, layer);
  }
  std::sort(pattern.begin(), pattern.end());
  return pattern;
}

// The facts not yet considered that the achievers of `kept` read, with how many of those
// achievers read each.
void PatternDatabaseBuilder::nextLayer(const GoapDomain& d, const std::vector<FactId>& kept,
                                       const std::vector<uint8_t>& considered,
                                       std::vector<uint32_t>& readers,
                                       std::vector<FactId>& layer) {
  std::fill(readers.begin(), readers.end(), 0);
  layer.clear();
  for (const ActionDef& a : d.actions()) {
    if (std::none_of(kept.begin(), kept.end(), [&](FactId f) { return achieves(a, f); }))
      continue;
    for (size_t f = 0; f < readers.size(); ++f) {
      const auto id = static_cast<FactId>(f);
      if (!a.reads.has(id) || considered[f] || id == d.locationFact()) continue;
      if (readers[f]++ == 0) layer.push_back(id);
    }
  }
}

uint64_t PatternDatabaseBuilder::states(const GoapDomain& d, const std::vector<FactId>& pattern) {
  uint64_t states = 1;
  for (FactId f : pattern) states *= valueCount(d.fact(f));
  return pattern.empty() ? 0 : states;
}

PatternDatabase PatternDatabaseBuilder::build(const GoapDomain& d, GoalId goal,
                                              std::vector<FactId> pattern) {
  PatternDatabase db;
  if (pattern.empty() || states(d, pattern) > kMaxStates) return db;
  db.facts_ = std::move(pattern);
  dim_of_.assign(d.facts().size(), -1);
  uint32_t stride = 1;
  for (FactId f : db.facts_) {
    const FactDef& def = d.fact(f);
    dim_of_[idx(f)] = static_cast<int>(db.dims_.size());
    db.dims_.push_back({def.field, valueCount(def), stride});
    stride *= valueCount(def);
  }
  uses_.clear();
  ops_.clear();
  cost_units_.clear();
  for (const ActionDef& a : d.actions()) addOperators(d, db, a);
  dist_.assign(stride, kUnreached);
  bucket_count_ = 1;
  for (uint32_t u : cost_units_) bucket_count_ = std::max(bucket_count_, u + 1);
  if (buckets_.size() < bucket_count_) buckets_.resize(bucket_count_);
  for (std::vector<uint32_t>& b : buckets_) b.clear();
  queued_ = 0;
  seedGoalStates(db, d.goal(goal));
  search(db);
  db.table_.resize(stride);
  for (uint32_t s = 0; s < stride; ++s)
    db.table_[s] = dist_[s] == kUnreached
                       ? PatternDatabase::kDeadEnd
                       : static_cast<uint16_t>(std::min<uint32_t>(dist_[s], PatternDatabase::kMaxUnits));
  return db;
}

// One operator per way the action can apply: the action itself, or each of its variants
// (the alternatives of its `any` conditions).
void PatternDatabaseBuilder::addOperators(const GoapDomain& d, const PatternDatabase& db,
                                          const ActionDef& a) {
  std::vector<const Condition*> conditions;
  for (const Condition& c : a.conditions)
    if (c.kind == ConditionKind::kFact) conditions.push_back(&c);
  if (a.variants.empty()) {
    addOperator(d, db, a, conditions);
    return;
  }
  const size_t own = conditions.size();
  for (const ActionVariant& v : a.variants) {
    conditions.resize(own);
    for (const Condition& c : v.conditions)
      if (c.kind == ConditionKind::kFact) conditions.push_back(&c);
    addOperator(d, db, a, conditions);
  }
}

// The action as the projection sees it: its conditions and effects on pattern facts (the
// rest are dropped; blackboard conditions hold while planning anyway) and its cost, exact
// when the cost table's fact is in the pattern, else the table's least entry.
void PatternDatabaseBuilder::addOperator(const GoapDomain& d, const PatternDatabase& db,
                                         const ActionDef& a,
                                         const std::vector<const Condition*>& conditions) {
  std::array<FactUse, kMaxPatternFacts> by_dim;
  std::array<bool, kMaxPatternFacts> used{};
  for (size_t i = 0; i < db.dims_.size(); ++i) {
    by_dim[i].dim = static_cast<uint8_t>(i);
    by_dim[i].allowed = allValues(db.dims_[i].size);
  }
  for (const Condition* c : conditions) {
    const int dim = dimOf(c->fact);
    if (dim < 0) continue;
    by_dim[dim].allowed &= c->accepted;
    used[dim] = true;
  }
  for (const Effect& e : a.effects) {
    const int dim = dimOf(e.fact);
    if (dim < 0 || e.moves()) continue;
    FactUse& u = by_dim[dim];
    used[dim] = true;
    if (e.kind == EffectKind::kSet) {
      u.touch = Touch::kSet;
      u.value = e.value - e.min;
    } else if (e.value != 0) {
      u.touch = e.clamp ? Touch::kClamp : Touch::kAdd;
      u.value = e.value;
    }
  }
  Operator op;
  op.first_use = static_cast<uint32_t>(uses_.size());
  bool writes = false;
  for (size_t i = 0; i < db.dims_.size(); ++i) {
    if (!used[i]) continue;
    if (by_dim[i].allowed == 0) {  // its conditions on this fact never hold
      uses_.resize(op.first_use);
      return;
    }
    writes = writes || by_dim[i].touch != Touch::kRead;
    uses_.push_back(by_dim[i]);
  }
  op.use_count = static_cast<uint32_t>(uses_.size()) - op.first_use;
  if (!writes) {  // a loop in the projection: it never shortens a path
    uses_.resize(op.first_use);
    return;
  }
  const std::span<const float> table = d.costTable();
  op.first_cost = static_cast<uint32_t>(cost_units_.size());
  const CostSpec& c = a.cost;
  if (!c.table_size) {
    cost_units_.push_back(toUnits(c.base));
  } else if (const int dim = dimOf(c.table_fact); dim >= 0) {
    op.cost_dim = dim;
    for (uint32_t v = 0; v < db.dims_[dim].size; ++v)
      cost_units_.push_back(toUnits(c.base + (v < c.table_size ? table[c.table_offset + v] : 0.f)));
  } else {
    float least = table[c.table_offset];
    for (uint32_t v = 1; v < c.table_size; ++v) least = std::min(least, table[c.table_offset + v]);
    cost_units_.push_back(toUnits(c.base + least));
  }
  ops_.push_back(op);
}

// Every combination of values the goal accepts (each variant's, for a goal with `any`).
void PatternDatabaseBuilder::seedGoalStates(const PatternDatabase& db, const GoalDef& g) {
  auto seed = [&](std::span<const Condition> conditions) {
    std::vector<uint64_t> allowed(db.dims_.size());
    for (size_t i = 0; i < db.dims_.size(); ++i) allowed[i] = allValues(db.dims_[i].size);
    for (const Condition& c : conditions) {
      const int dim = c.kind == ConditionKind::kFact ? dimOf(c.fact) : -1;
      if (dim >= 0) allowed[dim] &= c.accepted;
    }
    seedProduct(db, allowed);
  };
  if (g.variants.empty()) {
    seed(g.desired);
  } else {
    for (const GoalVariant& v : g.variants) seed(v.conditions);
  }
}

void PatternDatabaseBuilder::seedProduct(const PatternDatabase& db,
                                         const std::vector<uint64_t>& allowed) {
  std::array<uint32_t, kMaxPatternFacts> value{};
  const auto n = static_cast<uint32_t>(db.dims_.size());
  forEachCombination(allowed.data(), n, value.data(), [&] {
    uint32_t state = 0;
    for (uint32_t k = 0; k < n; ++k) state += value[k] * db.dims_[k].stride;
    relax(state, 0);
  });
}

// The values a fact may have had before the operator made it `value`.
uint64_t PatternDatabaseBuilder::predecessorValues(const PatternDatabase& db, const FactUse& u,
                                                   uint32_t value) const {
  const int64_t size = db.dims_[u.dim].size;
  const uint64_t allowed = u.allowed & allValues(static_cast<uint32_t>(size));
  auto bit = [](int64_t v, int64_t size) { return v >= 0 && v < size ? 1ull << v : 0ull; };
  switch (u.touch) {
    case Touch::kRead: return allowed & bit(value, size);
    case Touch::kSet: return static_cast<int32_t>(value) == u.value ? allowed : 0;
    case Touch::kAdd: return allowed & bit(int64_t{value} - u.value, size);
    case Touch::kClamp: {
      uint64_t from = bit(int64_t{value} - u.value, size);  // not saturated
      if (u.value > 0 && value == size - 1)  // saturated at the top: v + delta ≥ max
        from |= allValues(static_cast<uint32_t>(size)) & ~allValues(static_cast<uint32_t>(
                    std::max<int64_t>(0, size - 1 - u.value)));
      if (u.value < 0 && value == 0)  // saturated at the bottom: v + delta ≤ 0
        from |= allValues(static_cast<uint32_t>(std::min<int64_t>(size, 1 - u.value)));
      return allowed & from;
    }
  }
  return 0;
}

void PatternDatabaseBuilder::relax(uint32_t state, uint32_t units) {
  if (units >= dist_[state]) return;
  dist_[state] = units;
  buckets_[units % bucket_count_].push_back(state);
  ++queued_;
}

// Dijkstra backwards from the goal states, the open list a bucket per distance modulo the
// dearest operator (Dial): every distance queued lies within one round of the current one.
void PatternDatabaseBuilder::search(const PatternDatabase& db) {
  std::array<uint32_t, kMaxPatternFacts> value{};
  for (uint64_t current = 0; queued_ > 0; ++current) {
    std::vector<uint32_t>& bucket = buckets_[current % bucket_count_];
    while (!bucket.empty()) {
      const uint32_t s = bucket.back();
      bucket.pop_back();
      --queued_;
      if (dist_[s] != current) continue;  // reached more cheaply since it was queued
      for (size_t i = 0; i < db.dims_.size(); ++i)
        value[i] = (s / db.dims_[i].stride) % db.dims_[i].size;
      for (const Operator& op : ops_) {
        // Most operators do not lead to s for their first fact alone (a place, say).
        const FactUse& first = uses_[op.first_use];
        if (predecessorValues(db, first, value[first.dim]) == 0) continue;
        regress(db, op, s, value.data(), current);
      }
    }
  }
}

// Every state the operator leads from to `state` (whose fact values are `value`, its
// distance `distance`): one value per fact it leaves alone, the combinations of the values
// it may have found where it sets or adds.
void PatternDatabaseBuilder::regress(const PatternDatabase& db, const Operator& op,
                                     uint32_t state, const uint32_t* value, uint64_t distance) {
  std::array<uint64_t, kMaxPatternFacts> masks;
  std::array<uint32_t, kMaxPatternFacts> chosen;
  const FactUse* uses = &uses_[op.first_use];
  uint32_t base = state;  // the state with the touched facts' values taken out
  for (uint32_t k = 0; k < op.use_count; ++k) {
    masks[k] = predecessorValues(db, uses[k], value[uses[k].dim]);
    if (masks[k] == 0) return;
    base -= value[uses[k].dim] * db.dims_[uses[k].dim].stride;
  }
  forEachCombination(masks.data(), op.use_count, chosen.data(), [&] {
    uint32_t predecessor = base;
    uint32_t cost_value = op.cost_dim >= 0 ? value[op.cost_dim] : 0;
    for (uint32_t k = 0; k < op.use_count; ++k) {
      predecessor += chosen[k] * db.dims_[uses[k].dim].stride;
      if (uses[k].dim == op.cost_dim) cost_value = chosen[k];
    }
    const uint64_t total = distance + cost_units_[op.first_cost + cost_value];
    if (total < kUnreached) relax(predecessor, static_cast<uint32_t>(total));
  });
}

}  // namespace npc::goap
