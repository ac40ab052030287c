#include "goap/landmark_cut.h"

#include <algorithm>

namespace npc::goap {

namespace {
constexpr uint8_t kGoalZone = 1;
constexpr uint8_t kBeforeGoal = 2;
constexpr uint8_t kPopped = 4;
}  // namespace

RelaxedProblem::RelaxedProblem() {
  constexpr size_t kAtoms = 256, kOps = 512, kLinks = 2048;
  for (auto* v : {&initial_, &counts_, &stack_, &pre_of_begin_, &eff_of_begin_}) v->reserve(kAtoms);
  for (auto* v : {&op_pre_begin_, &op_eff_begin_, &op_unsat_, &op_supporter_, &cut_}) v->reserve(kOps);
  for (auto* v : {&pre_, &eff_, &pre_of_, &eff_of_}) v->reserve(kLinks);
  for (auto* v : {&op_cost_, &op_left_, &op_supp_cost_}) v->reserve(kOps);
  cost_.reserve(kAtoms);
  zone_.reserve(kAtoms);
  op_mask_.reserve(kOps);
  heap_.reserve(kAtoms);
}

void RelaxedProblem::clear() {
  atom_count_ = 2;  // 0: artificial precondition, 1: goal
  initial_.clear();
  initial_.push_back(0);
  op_cost_.clear();
  op_pre_begin_.clear();
  op_eff_begin_.clear();
  pre_.clear();
  eff_.clear();
  lm_count_ = 0;
  indexed_ = false;
}

uint32_t RelaxedProblem::addAtom() { return static_cast<uint32_t>(atom_count_++); }

void RelaxedProblem::setInitial(uint32_t atom) { initial_.push_back(atom); }

void RelaxedProblem::buildIndex() {
  const size_t n = op_cost_.size();
  op_pre_begin_.push_back(static_cast<uint32_t>(pre_.size()));
  op_eff_begin_.push_back(static_cast<uint32_t>(eff_.size()));
  op_left_.assign(op_cost_.begin(), op_cost_.end());
  op_unsat_.resize(n);
  op_supporter_.resize(n);
  op_supp_cost_.resize(n);
  op_mask_.assign(n, 0);
  const size_t atoms = static_cast<size_t>(atom_count_);
  cost_.resize(atoms);
  zone_.resize(atoms);

  auto csr = [&](const std::vector<uint32_t>& begin, const std::vector<uint32_t>& items,
                 std::vector<uint32_t>& out_begin, std::vector<uint32_t>& out) {
    counts_.assign(atoms + 1, 0);
    for (uint32_t a : items) ++counts_[a + 1];
    for (size_t i = 1; i <= atoms; ++i) counts_[i] += counts_[i - 1];
    out_begin.assign(counts_.begin(), counts_.end());
    out.resize(items.size());
    for (size_t op = 0; op < n; ++op)
      for (uint32_t k = begin[op]; k < begin[op + 1]; ++k)
        out[counts_[items[k]]++] = static_cast<uint32_t>(op);
  };
  csr(op_pre_begin_, pre_, pre_of_begin_, pre_of_);
  csr(op_eff_begin_, eff_, eff_of_begin_, eff_of_);
}

void RelaxedProblem::hmax() {
  std::fill(cost_.begin(), cost_.end(), kInfiniteCost);
  for (auto& z : zone_) z &= static_cast<uint8_t>(~kPopped);
  const size_t n = op_cost_.size();
  for (size_t op = 0; op < n; ++op) {
    op_unsat_[op] = op_pre_begin_[op + 1] - op_pre_begin_[op];
    op_supporter_[op] = kNone;
  }
  auto greater = [](const HeapItem& a, const HeapItem& b) {
    return a.cost > b.cost || (a.cost == b.cost && a.atom > b.atom);
  };
  heap_.clear();
  for (uint32_t a : initial_) {
    if (cost_[a] == 0.f) continue;
    cost_[a] = 0.f;
    heap_.push_back({0.f, a});
  }
  std::make_heap(heap_.begin(), heap_.end(), greater);
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), greater);
    const HeapItem item = heap_.back();
    heap_.pop_back();
    if (item.cost > cost_[item.atom] || (zone_[item.atom] & kPopped)) continue;
    zone_[item.atom] |= kPopped;
    for (uint32_t k = pre_of_begin_[item.atom]; k < pre_of_begin_[item.atom + 1]; ++k) {
      const uint32_t op = pre_of_[k];
      if (--op_unsat_[op] != 0) continue;
      op_supporter_[op] = item.atom;  // popped last = the costliest precondition
      op_supp_cost_[op] = item.cost;
      const float c = item.cost + op_left_[op];
      for (uint32_t e = op_eff_begin_[op]; e < op_eff_begin_[op + 1]; ++e) {
        const uint32_t q = eff_[e];
        if (c < cost_[q]) {
          cost_[q] = c;
          heap_.push_back({c, q});
          std::push_heap(heap_.begin(), heap_.end(), greater);
        }
      }
    }
  }
}

// After the cut operators got cheaper, h_max values can only decrease, and only through
// operators whose supporter decreased (Fast Downward's "second exploration").
void RelaxedProblem::decreaseAfterCut() {
  auto greater = [](const HeapItem& a, const HeapItem& b) {
    return a.cost > b.cost || (a.cost == b.cost && a.atom > b.atom);
  };
  heap_.clear();
  auto relax = [&](uint32_t op) {
    const float c = op_supp_cost_[op] + op_left_[op];
    for (uint32_t e = op_eff_begin_[op]; e < op_eff_begin_[op + 1]; ++e) {
      const uint32_t q = eff_[e];
      if (c < cost_[q]) {
        cost_[q] = c;
        heap_.push_back({c, q});
        std::push_heap(heap_.begin(), heap_.end(), greater);
      }
    }
  };
  for (uint32_t op : cut_) relax(op);
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), greater);
    const HeapItem item = heap_.back();
    heap_.pop_back();
    if (item.cost != cost_[item.atom]) continue;
    for (uint32_t k = pre_of_begin_[item.atom]; k < pre_of_begin_[item.atom + 1]; ++k) {
      const uint32_t op = pre_of_[k];
      if (op_supporter_[op] != item.atom || op_supp_cost_[op] <= item.cost) continue;
      // The supporter got cheaper: the costliest precondition may now be another one.
      // Same tie rule as hmax(): the costliest, then the highest atom (popped last).
      uint32_t best = pre_[op_pre_begin_[op]];
      float best_cost = cost_[best];
      for (uint32_t p = op_pre_begin_[op] + 1; p < op_pre_begin_[op + 1]; ++p) {
        const float c = cost_[pre_[p]];
        if (c > best_cost || (c == best_cost && pre_[p] > best)) {
          best_cost = c;
          best = pre_[p];
        }
      }
      op_supporter_[op] = best;
      if (best_cost < op_supp_cost_[op]) {
        op_supp_cost_[op] = best_cost;
        relax(op);
      }
    }
  }
}

void RelaxedProblem::markGoalPlateau(uint32_t atom) {
  stack_.clear();
  stack_.push_back(atom);
  while (!stack_.empty()) {
    const uint32_t a = stack_.back();
    stack_.pop_back();
    if (zone_[a] & kGoalZone) continue;
    zone_[a] |= kGoalZone;
    for (uint32_t k = eff_of_begin_[a]; k < eff_of_begin_[a + 1]; ++k) {
      const uint32_t op = eff_of_[k];
      if (op_left_[op] == 0.f && op_supporter_[op] != kNone) stack_.push_back(op_supporter_[op]);
    }
  }
}

float RelaxedProblem::landmarkCut() {
  if (!indexed_) {
    buildIndex();
    indexed_ = true;
  } else {  // a repeat: only the cuts' changes to undo
    op_left_.assign(op_cost_.begin(), op_cost_.end());
    std::fill(op_mask_.begin(), op_mask_.end(), 0);
  }
  lm_count_ = 0;
  std::fill(zone_.begin(), zone_.end(), 0);
  hmax();
  if (cost_[kGoalAtom] == kInfiniteCost) return kInfiniteCost;
  float h = 0.f;
  while (cost_[kGoalAtom] > 0.f && lm_count_ < kMaxLandmarks) {
    for (auto& z : zone_) z &= kPopped;
    markGoalPlateau(kGoalAtom);
    // Forward from the start through supporter edges, stopping at the goal zone: the
    // operators crossing into it form the cut.
    stack_.clear();
    for (uint32_t a : initial_) {
      if (zone_[a] & (kGoalZone | kBeforeGoal)) continue;
      zone_[a] |= kBeforeGoal;
      stack_.push_back(a);
    }
    cut_.clear();
    while (!stack_.empty()) {
      const uint32_t p = stack_.back();
      stack_.pop_back();
      for (uint32_t k = pre_of_begin_[p]; k < pre_of_begin_[p + 1]; ++k) {
        const uint32_t op = pre_of_[k];
        if (op_supporter_[op] != p) continue;
        bool into_goal = false;
        for (uint32_t e = op_eff_begin_[op]; e < op_eff_begin_[op + 1]; ++e)
          into_goal = into_goal || (zone_[eff_[e]] & kGoalZone);
        if (into_goal) {
          cut_.push_back(op);
          continue;
        }
        for (uint32_t e = op_eff_begin_[op]; e < op_eff_begin_[op + 1]; ++e) {
          const uint32_t q = eff_[e];
          if (zone_[q] & (kGoalZone | kBeforeGoal)) continue;
          zone_[q] |= kBeforeGoal;
          stack_.push_back(q);
        }
      }
    }
    if (cut_.empty()) break;  // cannot happen with a finite positive goal cost
    float m = kInfiniteCost;
    for (uint32_t op : cut_) m = std::min(m, op_left_[op]);
    if (!(m > 0.f)) break;
    const uint64_t bit = 1ull << lm_count_;
    lm_cost_[lm_count_++] = m;
    h += m;
    for (uint32_t op : cut_) {
      op_mask_[op] |= bit;
      op_left_[op] = std::max(0.f, op_left_[op] - m);
    }
    decreaseAfterCut();
  }
  return h;
}

}  // namespace npc::goap
