// GoapPlanner, part 4: the heuristics that are looked up — the exact table (h*) of small
// problems over the states of the relevant facts, kept per (domain, bucket, goals, instances)
// and reused by every later search of that problem whatever its start facts; and the
// domain's pattern databases (pattern_database.h), built at load. LM-cut (planner_heuristic.cpp)
// has a per-search set-up of a few hundred ns that only pays off on larger problems; on a
// problem of a few facts a table lookup per node is both cheaper and exact, and when no
// pacing applies the plan is a plain walk down the table. See core/goap/README.md
// ("Heuristic by problem size").
#include <algorithm>

#include "goap/planner.h"

namespace npc::goap {

namespace {
constexpr uint32_t kNull = 0xffffffffu;
}  // namespace

bool GoapPlanner::sameProblem(const ProblemCacheEntry& e) const {
  if (e.domain != d_->serial() || e.bucket != bucket_ || e.goal_count != goal_count_ ||
      e.instances.size() != instances_.size())
    return false;
  for (int g = 0; g < goal_count_; ++g)
    if (e.goals[g] != goal_ids_[g]) return false;
  for (size_t i = 0; i < instances_.size(); ++i)
    if (e.instances[i] != tableCode(instances_[i])) return false;
  return true;
}

// The entry of this request's problem (instances not yet pruned); a fresh one, the least
// recently used out, when none matches.
GoapPlanner::ProblemCacheEntry& GoapPlanner::findProblem() {
  ++problem_clock_;
  ProblemCacheEntry* oldest = &problems_[0];
  for (ProblemCacheEntry& e : problems_) {
    if (e.pruned && sameProblem(e)) {
      ++e.searches;
      e.last_use = problem_clock_;
      return e;
    }
    if (e.last_use < oldest->last_use) oldest = &e;
  }
  ProblemCacheEntry& e = *oldest;
  e.searches = 1;
  e.last_use = problem_clock_;
  e.domain = d_->serial();
  e.bucket = bucket_;
  e.goals = goal_ids_;
  e.goal_count = goal_count_;
  e.instances.clear();
  for (const Instance& in : instances_) e.instances.push_back(tableCode(in));
  e.pruned = false;
  e.table = -1;
  return e;
}

// Relevance pruning, decided once per problem. A traced search prunes afresh, so that its
// trace lists what was dropped.
void GoapPlanner::pruneByProblem() {
  ProblemCacheEntry& e = *problem_;
  if (!e.pruned || trace_) {
    pruneIrrelevant();  // leaves its verdict on each instance in ever_applicable_
    if (e.pruned) return;
    e.kept.assign(ever_applicable_.begin(), ever_applicable_.end());
    e.relevant = relevant_;
    e.read_mask = readMask();
    e.pruned = true;
    return;
  }
  relevant_ = e.relevant;
  size_t kept = 0;
  for (size_t i = 0; i < instances_.size(); ++i) {
    if (!e.kept[i]) continue;
    if (kept != i) instances_[kept] = instances_[i];  // a copy onto itself stalls the store
    ++kept;
  }
  instances_.resize(kept);
}

// The table is exact for the projection on relevant_ because nothing else is read: facts
// outside relevant_ never decide applicability, cost or the goals (planner_setup.cpp
// pruneIrrelevant). Its index is one bit span of one state word, so a lookup is a shift
// and a mask; facts of the span that are not relevant only repeat entries. Positions are
// per search, so anything reading or moving the planned location is left to LM-cut, as
// are problems whose span is past ExactHeuristic::kMaxBits.
bool GoapPlanner::tableFits(ProblemCacheEntry& e) const {
  if (has_location_ && relevant_.has(d_->locationFact())) return false;
  for (const Instance& in : instances_)
    if (in.def->moves || in.def->reads_location) return false;
  int lo = 64, hi = 0, word = -1;
  for (size_t f = 0; f < d_->facts().size(); ++f) {
    if (!relevant_.has(static_cast<FactId>(f))) continue;
    const FactField field = d_->fact(static_cast<FactId>(f)).field;
    if (word >= 0 && field.word != word) return false;
    word = field.word;
    lo = std::min(lo, int{field.shift});
    hi = std::max(hi, field.shift + field.bits);
  }
  if (word < 0) return false;  // nothing relevant: nothing to search
  const int bits = hi - lo;
  if (bits > ExactHeuristic::kMaxBits || (instances_.size() << bits) > kMaxTableTransitions)
    return false;
  e.table_word = static_cast<uint8_t>(word);
  e.table_shift = static_cast<uint8_t>(lo);
  e.table_bits = static_cast<uint8_t>(bits);
  return true;
}

// Whether every fact lying in the span has a value in its range at `index`.
bool GoapPlanner::tableIndexValid(uint32_t index) const {
  for (const FactDef& f : d_->facts()) {
    if (f.field.word != table_word_ || f.field.shift < table_shift_ ||
        f.field.shift + f.field.bits > table_shift_ + table_bits_)
      continue;
    const uint32_t raw = (index >> (f.field.shift - table_shift_)) & ((1u << f.field.bits) - 1);
    if (raw > static_cast<uint32_t>(f.max - f.min)) return false;
  }
  return true;
}

// Every transition between span states, costed without pacing (pacing only adds, so h
// stays a lower bound, and the table stays valid for every agent's pacing).
void GoapPlanner::buildTable(ExactHeuristic& out) {
  PlannerStatistics* const saved_stats = stats_;
  PlanTrace* const saved_trace = trace_;
  stats_ = nullptr;  // enumerating states is not searching: count and trace nothing
  trace_ = nullptr;
  const uint32_t states = 1u << table_bits_;
  const uint64_t span_mask = uint64_t{states - 1} << table_shift_;
  ExactHeuristicBuilder& table = table_builder_;
  table.clear(states);
  const std::span<const float> cost_table = d_->costTable();
  for (uint32_t index = 0; index < states; ++index) {
    if (!tableIndexValid(index)) continue;  // a bit pattern no fact value has
    GoapState s = start_;
    s.w[table_word_] = (s.w[table_word_] & ~span_mask) | (uint64_t{index} << table_shift_);
    if (goalIndex(s) >= 0) table.addGoal(index);
    for (const Instance& in : instances_) {
      GoapState child;
      RejectReason why;
      if (!applicable(in, s, 0) || !apply(in, s, child, why)) continue;
      const CostSpec& c = in.def->cost;
      float cost = c.base;
      if (c.table_size) cost += cost_table[c.table_offset + readField(s, c.table_field)];
      table.addEdge(index, tableIndex(child), cost);
    }
  }
  table.solve(out);
  stats_ = saved_stats;
  trace_ = saved_trace;
}

// This problem's table; null when it does not fit. Built on the problem's first search, so
// that which heuristic guides a search — and so which of several equally cheap plans it
// returns — depends on the problem alone, never on what this planner searched before: a
// daemon restored from a snapshot (whose cache starts empty) or replaying a journal plans
// exactly as the live one did.
const ExactHeuristic* GoapPlanner::exactTable() {
  ProblemCacheEntry& e = *problem_;
  if (e.table == 0 || (e.table < 0 && !tableFits(e))) {
    e.table = 0;
    return nullptr;
  }
  table_word_ = e.table_word;
  table_shift_ = e.table_shift;
  table_bits_ = e.table_bits;
  if (e.table < 0) buildTable(e.exact);
  e.table = 1;
  return &e.exact;
}

// Whether every goal of the request has a pattern database (the domain built them at load)
// and the start can reach a goal by them; a start they call a dead end is left to LM-cut,
// whose relaxation explains why there is no plan.
bool GoapPlanner::usePatternDatabases() {
  for (int g = 0; g < goal_count_; ++g) {
    pattern_dbs_[g] = d_->patternDatabase(goal_ids_[g]);
    if (!pattern_dbs_[g]) return false;
  }
  return goal_count_ > 0 && patternH(start_) < kInfiniteCost;
}

// With the exact table, no pacing and nothing to count, trace or budget, an optimal plan
// is a walk: from each state to the cheapest child one step nearer a goal on the table's
// cheapest path (steps strictly decrease, so it ends). A* with h* would expand the very
// same nodes; the walk spares the open list and the hash. One node per step, so finish()
// reads the path as usual. Returns false, leaving only the root, when it does not apply.
bool GoapPlanner::walkTable() {
  const uint32_t steps = table_->steps(tableIndex(start_));
  if (stats_ || trace_ || clock_ || max_work_ || steps > max_depth_ || steps > max_expansions_ ||
      steps + 1 > max_nodes_)
    return false;
  for (const Instance& in : instances_)
    if (in.pacing != 0.f) return false;
  uint32_t node = 0;
  while (goalIndex(nodes_[node].state) < 0) {
    const GoapState s = nodes_[node].state;
    const uint32_t want = table_->steps(tableIndex(s)) - 1;
    uint32_t best = kNull;
    float best_value = kInfiniteCost, best_cost = 0.f;
    GoapState best_child;
    for (size_t i = 0; i < instances_.size(); ++i) {
      const Instance& in = instances_[i];
      GoapState child;
      float c;
      if (in.simple) {
        if (!simpleChild(in, s, child, c)) continue;
      } else {
        RejectReason why;
        if (!applicable(in, s, node) || !apply(in, s, child, why)) continue;
        c = cost(in, s, child);
      }
      ever_applicable_[i] = 1;
      const uint32_t k = tableIndex(child);
      if (table_->steps(k) != want) continue;
      if (c + table_->h(k) < best_value) {
        best_value = c + table_->h(k);
        best = static_cast<uint32_t>(i);
        best_cost = c;
        best_child = child;
      }
    }
    work_ += instances_.size();
    ++expansions_;
    if (best == kNull) {  // rounding left no child one step nearer: let A* decide
      node_count_ = 1;
      generated_ = 1;
      expansions_ = 0;
      work_ = 0;
      return false;
    }
    if (node_count_ >= nodes_.size()) growPool();
    const uint32_t k = node_count_++;
    SearchNode& n = nodes_[k];
    n.state = best_child;
    n.g = nodes_[node].g + best_cost;
    n.h = best_value - best_cost;
    n.accepted = 0;
    n.parent = node;
    n.instance = static_cast<uint16_t>(best);
    n.depth = static_cast<uint8_t>(nodes_[node].depth + 1);
    n.closed = 0;
    n.evaluated = 0;
    n.hash = 0;
    ++generated_;
    node = k;
  }
  finish(PlanStatus::kFound, node);
  return true;
}

}  // namespace npc::goap
