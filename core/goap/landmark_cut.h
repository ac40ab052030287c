// The delete-relaxed planning problem of one search and the LM-cut heuristic over it
// (Helmert & Domshlak, ICAPS 2009), computed once per search from the start state.
//
// Atoms are (fact = value) pairs plus helper atoms; a relaxed operator has precondition and
// effect atoms and a cost that is a lower bound of the real action's cost wherever that
// operator applies. LM-cut returns disjunctive action landmarks L_i with costs m_i such that
// every plan from the start contains an operator of each L_i and, for every operator o,
// Σ_{i : o ∈ L_i} m_i ≤ cost(o) (a cost partitioning). planner.cpp turns that into a
// path-dependent admissible heuristic: h(path) = Σ of m_i over landmarks no operator of the
// path belongs to (LM-A*, Karpas & Domshlak 2009). See core/goap/README.md.
//
// Memory: flat arrays reused between searches (clear() keeps capacity): after warm-up no
// allocation. Not thread-safe; one per planner.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "goap/goap_types.h"

namespace npc::goap {

class RelaxedProblem {
 public:
  static constexpr uint32_t kNone = 0xffffffffu;

  // Room for a B1-sized relaxation (≈ 20 KB), so a fresh planner's first search does not
  // grow its arrays a doubling at a time.
  RelaxedProblem();

  // Starts a new problem. Atom 0 is the artificial precondition of operators that have
  // none; atom 1 is the goal atom.
  void clear();
  uint32_t addAtom();
  uint32_t atomCount() const { return static_cast<uint32_t>(atom_count_); }
  void setInitial(uint32_t atom);      // true in the start state
  static constexpr uint32_t kGoalAtom = 1;

  // Operators are built one at a time: beginOp, then pre/eff, then endOp.
  uint32_t beginOp(float cost) {
    op_cost_.push_back(cost);
    op_pre_begin_.push_back(static_cast<uint32_t>(pre_.size()));
    op_eff_begin_.push_back(static_cast<uint32_t>(eff_.size()));
    return static_cast<uint32_t>(op_cost_.size() - 1);
  }
  void pre(uint32_t atom) { pre_.push_back(atom); }
  void eff(uint32_t atom) { eff_.push_back(atom); }
  void endOp() {
    if (pre_.size() == op_pre_begin_.back()) pre_.push_back(0);  // the artificial precondition
  }
  uint32_t opCount() const { return static_cast<uint32_t>(op_cost_.size()); }

  // Runs LM-cut. Returns the heuristic value (Σ m_i) or kInfiniteCost when the goal atom is
  // unreachable. Fills landmarkMask(op) (bit i: op ∈ L_i) and landmarkCost(i). At most
  // kMaxLandmarks landmarks are kept; later ones are dropped (the value stays admissible).
  float landmarkCut();

  // LM-cut again from another state of the same problem: clearInitial(), setInitial() for
  // each atom true there, landmarkCut(). Atoms and operators are kept (no operator may be
  // added after the first landmarkCut() until clear()), so a repeat costs the cuts only.
  void clearInitial() { initial_.resize(1); }
  uint64_t landmarkMask(uint32_t op) const { return op_mask_[op]; }
  float landmarkCost(int i) const { return lm_cost_[i]; }
  int landmarkCount() const { return lm_count_; }

  // After landmarkCut() returned infinity: h_max reachability of an atom (for "why").
  bool reachable(uint32_t atom) const { return cost_[atom] < kInfiniteCost; }

 private:
  void buildIndex();
  void hmax();
  void decreaseAfterCut();
  void markGoalPlateau(uint32_t atom);

  int atom_count_ = 0;
  bool indexed_ = false;  // buildIndex() ran since clear()
  std::vector<uint32_t> initial_;
  // Operators (CSR over pre_ / eff_).
  std::vector<float> op_cost_, op_left_;
  std::vector<uint32_t> op_pre_begin_, op_eff_begin_, pre_, eff_;
  std::vector<uint32_t> op_unsat_, op_supporter_;
  std::vector<float> op_supp_cost_;  // h_max of the supporter when last updated
  std::vector<uint64_t> op_mask_;
  // Atoms: h_max cost, zone marks, and the CSR of operators each atom is a precondition /
  // effect of.
  std::vector<float> cost_;
  std::vector<uint8_t> zone_;
  std::vector<uint32_t> pre_of_begin_, pre_of_, eff_of_begin_, eff_of_;
  std::vector<uint32_t> counts_, stack_, cut_;
  struct HeapItem {
    float cost;
    uint32_t atom;
  };
  std::vector<HeapItem> heap_;
  std::array<float, kMaxLandmarks> lm_cost_{};
  int lm_count_ = 0;
};

}  // namespace npc::goap
