// GoapPlanner, part 2: the heuristic — the delete relaxation of one search (fact values,
// location keys and approach points as atoms; one relaxed operator per action instance and
// split-key value, with a cost that is a lower bound of the real cost there), LM-cut over it
// (landmark_cut.h), and the exact-key cache of its results. Setup is planner_setup.cpp, the
// search planner.cpp.
#include <algorithm>
#include <bit>

#include "goap/planner.h"

namespace npc::goap {

namespace {
constexpr uint32_t kNull = 0xffffffffu;
}  // namespace

float GoapPlanner::cachedHeuristic() {
  if (!hcache_enabled_) return buildHeuristic();
  // The exact inputs of buildHeuristic(); see planner.h.
  hkey_.clear();
  hkey_.push_back(d_->serial());
  hkey_.push_back(idx(bucket_));
  for (int g = 0; g < goal_count_; ++g) hkey_.push_back(idx(goal_ids_[g]));
  for (int w = 0; w < words_; ++w) hkey_.push_back(result_.signature.read_values.w[w]);
  for (int w = 0; w < words_; ++w) hkey_.push_back(result_.signature.read_mask.w[w]);
  hkey_.push_back(instances_.size());
  for (const Instance& in : instances_) {
    // The variant too: which ones are live follows the blackboard.
    hkey_.push_back((uint64_t{in.variant} << 48) | (uint64_t{idx(in.action)} << 32) |
                    std::bit_cast<uint32_t>(in.pacing));
    hkey_.push_back(raw(in.object));
  }
  if (has_location_ && relevant_.has(d_->locationFact())) {
    hkey_.push_back(static_locations_);
    for (uint8_t k = 0; k < static_locations_; ++k) {
      hkey_.push_back((uint64_t{std::bit_cast<uint32_t>(positions_[k].x)} << 32) |
                      std::bit_cast<uint32_t>(positions_[k].y));
      hkey_.push_back(std::bit_cast<uint32_t>(positions_[k].z));
    }
  }
  for (HeuristicCacheEntry& e : hcache_) {
    if (!e.valid || e.key != hkey_) continue;
    ++hcache_hits_;
    lm_count_ = e.lm_count;
    lm_cost_ = e.lm_cost;
    lm_masks_.assign(e.lm_masks.begin(), e.lm_masks.end());
    approaches_.assign(e.approaches.begin(), e.approaches.end());
    split_more_.assign(e.split_more.begin(), e.split_more.end());
    for (size_t i = 0; i < instances_.size(); ++i) {
      instances_[i].split = e.instances[i].split;
      instances_[i].split_field = e.instances[i].split_field;
      instances_[i].split_more = e.instances[i].split_more;
      instances_[i].key_base = e.instances[i].key_base;
    }
    if (!approaches_.empty() || has_location_)
      for (uint8_t k = 0; k < static_locations_; ++k) loc_info_[k].key = k;
    return e.h0;
  }
  const float h = buildHeuristic();
  if (h == kInfiniteCost) return h;  // not cached: the caller explains from relaxed_
  HeuristicCacheEntry& e = hcache_[hcache_next_];
  hcache_next_ = (hcache_next_ + 1) % kHeuristicCacheSize;
  e.valid = true;
  e.key.assign(hkey_.begin(), hkey_.end());
  e.h0 = h;
  e.lm_count = lm_count_;
  e.lm_cost = lm_cost_;
  e.lm_masks.assign(lm_masks_.begin(), lm_masks_.end());
  e.approaches.assign(approaches_.begin(), approaches_.end());
  e.split_more.assign(split_more_.begin(), split_more_.end());
  e.instances.resize(instances_.size());
  for (size_t i = 0; i < instances_.size(); ++i)
    e.instances[i] = {instances_[i].split, instances_[i].split_field, instances_[i].split_more,
                      instances_[i].key_base};
  return h;
}

// The atom of a fact condition: the value's own atom for "=", else an or-atom reached at no
// cost from each accepted value (shared by conditions accepting the same values).
uint32_t GoapPlanner::conditionAtom(const Condition& c) {
  const uint32_t base = fact_atom_[idx(c.fact)];
  if (c.op == CompareOp::kEq) return base + static_cast<uint32_t>(c.value - c.min);
  for (const OrAtom& o : or_atoms_)
    if (o.fact == c.fact && o.accepted == c.accepted) return o.atom;
  const uint32_t atom = relaxed_.addAtom();
  or_atoms_.push_back({c.fact, c.accepted, atom});
  for (uint64_t values = c.accepted; values != 0; values &= values - 1) {
    relaxed_.beginOp(0.f);
    relaxed_.pre(base + static_cast<uint32_t>(std::countr_zero(values)));
    relaxed_.eff(atom);
    relaxed_.endOp();
  }
  return atom;
}

float GoapPlanner::buildHeuristic() {
  relaxed_.clear();
  relaxed_current_ = true;
  or_atoms_.clear();
  key_op_.clear();
  approaches_.clear();
  loc_atom_.clear();
  relaxed_facts_.clear();
  split_more_.clear();
  fact_atom_.assign(d_->facts().size(), kNull);
  for (size_t f = 0; f < d_->facts().size(); ++f) {
    const auto id = static_cast<FactId>(f);
    if (id == d_->locationFact() || !relevant_.has(id)) continue;
    const FactDef& fd = d_->fact(id);
    fact_atom_[f] = relaxed_.addAtom();
    for (int32_t v = fd.min + 1; v <= fd.max; ++v) relaxed_.addAtom();
    relaxed_.setInitial(fact_atom_[f] + readField(start_, fd.field));
    relaxed_facts_.push_back({fact_atom_[f], fd.field});
  }
  if (has_location_ && relevant_.has(d_->locationFact())) {
    for (uint8_t k = 0; k < static_locations_; ++k) {
      loc_info_[k].key = k;
      loc_atom_.push_back(relaxed_.addAtom());
    }
    for (const Instance& in : instances_) {
      for (const Effect& e : in.def->effects) {
        if (e.kind != EffectKind::kMoveNear) continue;
        const uint8_t ref = view(in).slotOf(e.ref);
        bool known = false;
        for (const Approach& a : approaches_) known = known || (a.ref == ref && a.range == e.range_m);
        if (known) continue;
        approaches_.push_back({ref, e.range_m});
        loc_atom_.push_back(relaxed_.addAtom());
      }
    }
    relaxed_.setInitial(loc_atom_[0]);
  }
  for (Instance& in : instances_) buildInstanceOps(in);
  // One zero-cost operator into the goal atom per goal, or per variant of a goal with `any`:
  // the relaxation reaches the goal by whichever is cheapest, as it does for several goals.
  auto goalOp = [&](std::span<const Condition> conditions) {
    // Goal atoms first: they may add or-atoms (operators of their own).
    const size_t first = key_op_.size();
    for (const Condition& c : conditions) key_op_.push_back(conditionAtom(c));
    relaxed_.beginOp(0.f);
    for (size_t k = first; k < key_op_.size(); ++k) relaxed_.pre(key_op_[k]);
    relaxed_.eff(RelaxedProblem::kGoalAtom);
    relaxed_.endOp();
    key_op_.resize(first);
  };
  for (int g = 0; g < goal_count_; ++g) {
    if (goals_[g]->variants.empty()) goalOp(goals_[g]->desired);
    for (const GoalVariant& v : goals_[g]->variants) goalOp(v.conditions);
  }
  const float h = relaxed_.landmarkCut();
  if (h == kInfiniteCost) return h;
  lm_count_ = relaxed_.landmarkCount();
  for (int l = 0; l < lm_count_; ++l) lm_cost_[l] = relaxed_.landmarkCost(l);
  lm_masks_.resize(key_op_.size());
  for (size_t k = 0; k < key_op_.size(); ++k)
    lm_masks_[k] = key_op_[k] != kNull ? relaxed_.landmarkMask(key_op_[k]) : 0;
  return h;
}

// From here on, nodes are evaluated from their own state (planner.h, kNodeEvaluationAfter).
// A heuristic cache hit left relaxed_ holding another problem: rebuilt, which gives the
// very same landmarks (deterministic), so the masks nodes already hold stay valid.
void GoapPlanner::startNodeEvaluation() {
  node_eval_ = true;
  if (!relaxed_current_) buildHeuristic();
}

// LM-cut of the relaxation from `s` instead of the start: admissible for s whatever path
// reached it (every relaxed operator's cost is a lower bound wherever it applies).
float GoapPlanner::stateHeuristic(const GoapState& s) {
  relaxed_.clearInitial();
  for (const RelaxedFact& f : relaxed_facts_) relaxed_.setInitial(f.atom + readField(s, f.field));
  if (!loc_atom_.empty()) relaxed_.setInitial(loc_atom_[loc_info_[readField(s, loc_field_)].key]);
  return relaxed_.landmarkCut();
}

// The relaxed operators of one instance: one per value of its split key (location, or the
// values of a few facts), each with a cost that is a lower bound of the real cost wherever
// it applies. Splitting on every fact an add/sub effect changes (the cost table's fact
// first) keeps counters exact in the relaxation: "sell_wood" at coins = 1 reaches coins = 2,
// not every value at once, so reaching 3 coins takes two sales, and "deliver" twice to
// reach delivered = 2. A fact that would take the keys past kMaxSplitKeys is not split: its
// add/sub then reaches all its values (a weaker, still admissible relaxation).
void GoapPlanner::buildInstanceOps(Instance& in) {
  const ActionDef& def = *in.def;
  const bool loc_relevant = !loc_atom_.empty();
  std::array<FactId, kMaxSplitFacts> split_facts{};
  int split_count = 0;
  uint32_t keys = 1;
  in.split = kSplitNone;
  in.split_more = kNoSplitMore;
  auto addSplit = [&](FactId f) {
    if (split_count == kMaxSplitFacts || fact_atom_[idx(f)] == kNull) return;
    for (int i = 0; i < split_count; ++i)
      if (split_facts[i] == f) return;
    const FactDef& fd = d_->fact(f);
    const auto values = static_cast<uint32_t>(fd.max - fd.min + 1);
    if (split_count > 0 && (keys * values > kMaxSplitKeys || split_more_.size() >= kNoSplitMore))
      return;
    split_facts[split_count++] = f;
    keys *= values;
  };
  if (def.reads_location && loc_relevant) {
    in.split = kSplitLocation;
    keys = static_cast<uint32_t>(loc_atom_.size());
  } else {
    if (def.cost.table_size) addSplit(def.cost.table_fact);
    if (def.has_add)
      for (const Effect& e : def.effects)
        if (e.kind == EffectKind::kAdd) addSplit(e.fact);
  }
  if (split_count > 0) {
    in.split = kSplitFact;
    in.split_field = d_->fact(split_facts[0]).field;
  }
  if (split_count > 1) {
    SplitMore m;
    uint32_t stride = 1;
    for (int i = 0; i + 1 < split_count; ++i) {
      const FactDef& fd = d_->fact(split_facts[i]);
      stride *= static_cast<uint32_t>(fd.max - fd.min + 1);
      m.stride[i] = static_cast<uint16_t>(stride);
      m.fields[i] = d_->fact(split_facts[i + 1]).field;
    }
    m.count = static_cast<uint8_t>(split_count - 1);
    in.split_more = static_cast<uint8_t>(split_more_.size());
    split_more_.push_back(m);
  }
  // The raw value of fact f at key k, or -1 when f is not split.
  std::array<uint32_t, kMaxSplitFacts> stride{}, values{};
  for (int i = 0, st = 1; i < split_count; ++i) {
    const FactDef& fd = d_->fact(split_facts[i]);
    stride[i] = static_cast<uint32_t>(st);
    values[i] = static_cast<uint32_t>(fd.max - fd.min + 1);
    st *= static_cast<int>(values[i]);
  }
  auto splitValue = [&](FactId f, uint32_t k) -> int32_t {
    for (int i = 0; i < split_count; ++i)
      if (split_facts[i] == f)
        return static_cast<int32_t>(split_count == 1 ? k : k / stride[i] % values[i]);
    return -1;
  };
  in.key_base = static_cast<uint32_t>(key_op_.size());
  key_op_.resize(key_op_.size() + keys, kNull);
  const LocationView v = view(in);
  const std::span<const float> table = d_->costTable();
  float table_min = 0.f;
  if (def.cost.table_size) {
    table_min = kInfiniteCost;
    for (uint32_t t = 0; t < def.cost.table_size; ++t)
      table_min = std::min(table_min, table[def.cost.table_offset + t]);
  }
  // Lower bound of the distance from location key k to point x.
  auto distLb = [&](uint32_t k, Vec3 x) {
    if (k < static_locations_) return length(positions_[k] - x);
    const Approach& a = approaches_[k - static_locations_];
    return std::max(0.f, length(positions_[a.ref] - x) - a.range);
  };
  std::vector<uint32_t>& pre = scratch_pre_;
  std::vector<uint32_t>& eff = scratch_eff_;
  for (uint32_t k = 0; k < keys; ++k) {
    pre.clear();
    eff.clear();
    bool ok = true;
    // The instance's conditions: the action's, its `any`s as the variant's alternatives.
    auto condition = [&](const Condition& c) {
      if (c.kind == ConditionKind::kBlackboard || c.kind == ConditionKind::kAny) return;
      if (c.kind == ConditionKind::kFact) {
        const int32_t raw = splitValue(c.fact, k);
        if (raw >= 0) ok = ok && c.accepts(raw + c.min);
        else pre.push_back(conditionAtom(c));
        return;
      }
      if (k >= static_locations_) return;  // planned point: position unknown, permissive
      const uint8_t ref = v.slotOf(c.ref);
      const float dist = length(positions_[k] - positions_[ref]);
      ok = ok && (c.kind == ConditionKind::kAt ? dist <= c.metres : compare(c.op, dist, c.metres));
    };
    for (const Condition& c : def.conditions) condition(c);
    if (const ActionVariant* var = in.variantDef())
      for (const Condition& c : var->conditions) condition(c);
    if (in.split == kSplitLocation) pre.push_back(loc_atom_[k]);
    for (int i = 0; i < split_count; ++i)
      pre.push_back(fact_atom_[idx(split_facts[i])] +
                    static_cast<uint32_t>(splitValue(split_facts[i], k)));
    float travel_lb = 0.f;
    for (const Effect& e : def.effects) {
      if (e.moves()) {
        if (!loc_relevant) continue;
        const uint8_t ref = v.slotOf(e.ref);
        if (e.kind == EffectKind::kMoveTo) {
          eff.push_back(loc_atom_[ref]);
          if (in.split == kSplitLocation) travel_lb = distLb(k, positions_[ref]);
        } else {
          for (size_t a = 0; a < approaches_.size(); ++a)
            if (approaches_[a].ref == ref && approaches_[a].range == e.range_m)
              eff.push_back(loc_atom_[static_locations_ + a]);
          if (in.split == kSplitLocation)
            travel_lb = std::max(0.f, distLb(k, positions_[ref]) - e.range_m);
        }
        continue;
      }
      const uint32_t base = fact_atom_[idx(e.fact)];
      if (base == kNull) continue;
      if (e.kind == EffectKind::kSet) {
        eff.push_back(base + static_cast<uint32_t>(e.value - e.min));
      } else if (const int32_t raw = splitValue(e.fact, k); raw >= 0) {
        int32_t nv = raw + e.value;
        if (e.clamp) nv = std::clamp(nv, 0, e.max - e.min);
        if (nv < 0 || nv > e.max - e.min) ok = false;
        else eff.push_back(base + static_cast<uint32_t>(nv));
      } else {
        for (int32_t x = 0; x <= e.max - e.min; ++x) eff.push_back(base + static_cast<uint32_t>(x));
      }
    }
    if (!ok) continue;
    float c = def.cost.base + in.pacing;
    if (def.cost.table_size) {
      const int32_t raw = splitValue(def.cost.table_fact, k);
      c += raw >= 0 ? table[def.cost.table_offset + static_cast<uint32_t>(raw)] : table_min;
    }
    if (in.split == kSplitLocation) {
      if (def.cost.travel_per_m != 0.f) c += def.cost.travel_per_m * travel_lb;
      if (def.cost.distance_per_m != 0.f)
        c += def.cost.distance_per_m * distLb(k, positions_[v.slotOf(def.cost.distance_ref)]);
    }
    const uint32_t op = relaxed_.beginOp(c);
    for (uint32_t a : pre) relaxed_.pre(a);
    for (uint32_t a : eff) relaxed_.eff(a);
    relaxed_.endOp();
    key_op_[in.key_base + k] = op;
  }
}

}  // namespace npc::goap
