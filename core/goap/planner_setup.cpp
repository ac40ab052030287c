// GoapPlanner, part 1: from a request to the first expansion — validation, the location
// table, action instances (bucket, context conditions, smart-object candidates), relevance
// pruning and the replan-skip signature — plus "no plan: why". The heuristic is
// planner_heuristic.cpp, the search planner.cpp.
#include <algorithm>
#include <bit>
#include <cmath>

#include "goap/planner.h"
#include "goap/statistics.h"
#include "goap/trace.h"

namespace npc::goap {

namespace {
constexpr uint32_t kNull = 0xffffffffu;
constexpr float kSignatureQuantumM = 0.25f;

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xBF58476D1CE4E5B9ull;
}
}  // namespace

GoapPlanner::GoapPlanner() {
  positions_.reserve(kMaxLocations);
  loc_info_.reserve(kMaxLocations);
  // Room for a B1-sized search (instances, relaxed keys, open list) from the start: a fresh
  // planner's first plan then allocates each array once instead of doubling its way up.
  instances_.reserve(64);
  ever_applicable_.reserve(64);
  key_op_.reserve(512);
  lm_masks_.reserve(512);
  hkey_.reserve(256);
  open_.reserve(2 * kInitialNodes);
}

void GoapPlanner::reject(uint32_t node, ActionId action, int32_t instance, RejectReason reason,
                         uint16_t condition, EntityId object, float value) {
  if (!trace_ || !trace_->roomForEvent()) return;
  trace_->rejections.push_back({node, action, instance, reason, condition, object, value});
}

void GoapPlanner::cancel() {
  for (uint32_t k = 0; k < node_count_; ++k) hash_heads_[nodes_[k].hash & hash_mask_] = kNull;
  node_count_ = 0;
  open_.clear();
  result_.status = PlanStatus::kIdle;
}

bool GoapPlanner::validate(const PlanRequest& r) {
  d_ = r.domain;
  if (!d_) return false;
  bucket_ = r.bucket == BucketId::kNone ? BucketId{0} : r.bucket;
  if (idx(bucket_) >= d_->buckets().size()) return false;
  goal_count_ = r.goal_count;
  if (goal_count_ == 0 || goal_count_ > kMaxGoalsPerRequest) return false;
  for (int g = 0; g < goal_count_; ++g) {
    if (idx(r.goals[g]) >= d_->goals().size()) return false;
    goal_ids_[g] = r.goals[g];
    goals_[g] = &d_->goal(r.goals[g]);
  }
  const SearchSettings& s = d_->search();
  max_nodes_ = std::max<uint32_t>(16, r.limits.max_nodes ? r.limits.max_nodes : s.max_nodes);
  max_expansions_ = r.limits.max_expansions ? r.limits.max_expansions : s.max_expansions;
  node_lmcut_after_ = s.node_lmcut_after;
  max_depth_ = std::min<uint8_t>(kMaxPlanSteps, r.limits.max_depth ? r.limits.max_depth : s.max_depth);
  max_work_ = r.limits.max_work ? r.limits.max_work : s.max_work;
  clock_ = r.limits.max_wall_ns ? r.limits.clock : nullptr;
  wall_deadline_ns_ = clock_ ? clock_->nowNs() + r.limits.max_wall_ns : 0;
  weight_ = s.heuristic == HeuristicKind::kBlind ? 1.f : s.weight;
  words_ = d_->stateWords();
  has_location_ = d_->locationFact() != FactId::kNone;
  loc_field_ = has_location_ ? d_->fact(d_->locationFact()).field : FactField{};
  start_ = r.start;
  if (has_location_) writeField(start_, loc_field_, 0);  // slot 0 = where the agent stands
  return true;
}

void GoapPlanner::setupLocations(const PlanRequest& r) {
  positions_.clear();
  loc_info_.clear();
  positions_.push_back(r.self_position);
  loc_info_.push_back({});
  target_slots_.fill(kNoSlot);
  for (size_t t = 0; t < d_->targets().size() && t < r.targets.size(); ++t) {
    if (!r.targets[t].present) continue;
    target_slots_[t] = static_cast<uint8_t>(positions_.size());
    positions_.push_back(r.targets[t].position);
    LocationInfo li;
    li.kind = 1;
    li.index = static_cast<uint8_t>(t);
    li.entity = r.targets[t].entity;
    loc_info_.push_back(li);
  }
}

uint8_t GoapPlanner::objectSlot(const SmartObjectCandidate& c) {
  for (size_t k = 0; k < loc_info_.size(); ++k)
    if (loc_info_[k].kind == 2 && loc_info_[k].entity == c.entity) return static_cast<uint8_t>(k);
  if (positions_.size() >= static_cast<size_t>(kMaxLocations)) return kNoSlot;
  positions_.push_back(c.position);
  LocationInfo li;
  li.kind = 2;
  li.entity = c.entity;
  loc_info_.push_back(li);
  return static_cast<uint8_t>(positions_.size() - 1);
}

bool GoapPlanner::contextHolds(const PlanRequest& r, ActionId id,
                               std::span<const Condition> conditions, uint16_t& failed) {
  for (const Condition& c : conditions) {
    if (c.kind != ConditionKind::kBlackboard) continue;
    const Blackboard* bb = c.scope == BlackboardScope::kAgent ? r.blackboard : r.group_blackboard;
    const std::optional<float> v = bb ? bb->number(c.key) : std::nullopt;
    const bool ok = v && compare(c.op, *v, c.number);  // an unset key fails
    if (stats_) stats_->countCondition(id, c.declared, ok);
    if (!ok) {
      failed = c.declared;
      return false;
    }
  }
  return true;
}

// Bit per variant of the action (it has `any`) whose blackboard conditions hold (`failed`:
// the `any` of the last one that did not).
uint32_t GoapPlanner::liveVariants(const PlanRequest& r, ActionId id, uint16_t& failed) {
  const ActionDef& def = d_->action(id);
  uint32_t live = 0;
  for (size_t v = 0; v < def.variants.size(); ++v) {
    const ActionVariant& var = def.variants[v];
    if (!var.has_context || contextHolds(r, id, var.conditions, failed)) live |= 1u << v;
  }
  return live;
}

// The instance just added (its action has `any`) checks the first live variant; a copy per
// other live variant follows it, marked `alt`: expand() skips those once one applied (same
// child, same cost).
void GoapPlanner::addVariants(uint32_t live) {
  instances_.back().variant = static_cast<uint8_t>(std::countr_zero(live));
  for (live &= live - 1; live != 0; live &= live - 1) {
    instances_.push_back(instances_.back());
    instances_.back().variant = static_cast<uint8_t>(std::countr_zero(live));
    instances_.back().alt = true;
  }
}

void GoapPlanner::addObjectInstances(const PlanRequest& r, const ActionDef& def, ActionId id,
                                     uint32_t live) {
  cands_.clear();
  cand_dist_.clear();
  for (const SmartObjectCandidate& o : r.objects) {
    if (std::find(def.advertised_by.begin(), def.advertised_by.end(), o.type) ==
        def.advertised_by.end())
      continue;
    const float dist = length(o.position - r.self_position);
    if (dist > def.object_max_distance_m) {
      reject(kTraceNoNode, id, -1, RejectReason::kObjectTooFar, 0xffff, o.entity, dist);
      continue;
    }
    if (r.reachability && !r.reachability->reachable(r.self_position, o.position)) {
      reject(kTraceNoNode, id, -1, RejectReason::kObjectUnreachable, 0xffff, o.entity);
      continue;
    }
    // Insertion by (distance, entity id): deterministic whatever the input order.
    size_t at = cands_.size();
    cands_.push_back(o);
    cand_dist_.push_back(dist);
    while (at > 0 && (cand_dist_[at - 1] > dist ||
                      (cand_dist_[at - 1] == dist && raw(cands_[at - 1].entity) > raw(o.entity)))) {
      cands_[at] = cands_[at - 1];
      cand_dist_[at] = cand_dist_[at - 1];
      --at;
    }
    cands_[at] = o;
    cand_dist_[at] = dist;
  }
  const size_t cap = def.max_candidates ? def.max_candidates : d_->search().max_candidates;
  size_t kept = 0;
  for (size_t k = 0; k < cands_.size(); ++k) {
    if (kept >= cap) {
      reject(kTraceNoNode, id, -1, RejectReason::kObjectOverCap, 0xffff, cands_[k].entity,
             static_cast<float>(k + 1));
      continue;
    }
    const uint8_t slot = objectSlot(cands_[k]);
    if (slot == kNoSlot) {
      flags_ |= kPlanLocationTableFull;
      reject(kTraceNoNode, id, -1, RejectReason::kLocationTableFull, 0xffff, cands_[k].entity);
      continue;
    }
    Instance& in = instances_.emplace_back();
    in.def = &def;
    in.action = id;
    in.object_slot = slot;
    in.object = cands_[k].entity;
    in.pacing = pacingCost(def.pacing, r.pacing, r.group_pacing, r.now_s);
    if (!def.variants.empty()) addVariants(live);
    ++kept;
  }
  if (kept == 0) {
    reject(kTraceNoNode, id, -1, RejectReason::kNoCandidate);
    pruned_.push_back({id, RejectReason::kNoCandidate, 0xffff});
  }
}

void GoapPlanner::setupInstances(const PlanRequest& r) {
  instances_.clear();
  pruned_.clear();
  const BucketDef& bucket = d_->bucket(bucket_);
  for (ActionId id : bucket.actions) {
    const ActionDef& def = d_->action(id);
    bool missing = false;
    for (uint32_t t = def.targets_used; t != 0; t &= t - 1)
      missing = missing || target_slots_[std::countr_zero(t)] == kNoSlot;
    if (missing) {
      reject(kTraceNoNode, id, -1, RejectReason::kMissingTarget);
      pruned_.push_back({id, RejectReason::kMissingTarget, 0xffff});
      continue;
    }
    uint16_t failed = 0xffff;
    uint32_t live = 1;  // bit per variant whose blackboard conditions hold (one without `any`)
    if (def.has_context && !contextHolds(r, id, def.conditions, failed)) live = 0;
    else if (!def.variants.empty()) live = liveVariants(r, id, failed);
    if (live == 0) {
      reject(kTraceNoNode, id, -1, RejectReason::kContextCondition, failed);
      pruned_.push_back({id, RejectReason::kContextCondition, failed});
      continue;
    }
    if (def.needs_object) {
      addObjectInstances(r, def, id, live);
      continue;
    }
    Instance& in = instances_.emplace_back();
    in.def = &def;
    in.action = id;
    if (def.pacing.tag != PacingTagId::kNone)
      in.pacing = pacingCost(def.pacing, r.pacing, r.group_pacing, r.now_s);
    if (!def.variants.empty()) addVariants(live);
  }
  if (trace_) {
    for (size_t a = 0; a < d_->actions().size(); ++a) {
      const auto id = static_cast<ActionId>(a);
      if (std::find(bucket.actions.begin(), bucket.actions.end(), id) == bucket.actions.end())
        reject(kTraceNoNode, id, -1, RejectReason::kNotInBucket);
    }
  }
  static_locations_ = static_cast<uint8_t>(positions_.size());
  // Goals' end_with actions: pacing fixed now, context checked now.
  for (int g = 0; g < goal_count_; ++g) {
    end_cost_[g] = -1.f;
    if (goals_[g]->end_with == ActionId::kNone) continue;
    const ActionId end = goals_[g]->end_with;
    const ActionDef& def = d_->action(end);
    uint16_t failed = 0;
    if (def.targets_used || (def.has_context && !contextHolds(r, end, def.conditions, failed)) ||
        (!def.variants.empty() && liveVariants(r, end, failed) == 0))
      continue;
    end_cost_[g] = pacingCost(def.pacing, r.pacing, r.group_pacing, r.now_s);
  }
}

// Keeps the instances that can change a fact the goals read, directly or through the
// preconditions and costs of other kept instances. Removing the others from any plan leaves
// it valid and no more expensive (costs are ≥ 0 and never read a fact they change).
void GoapPlanner::pruneIrrelevant() {
  relevant_ = {};
  for (int g = 0; g < goal_count_; ++g) relevant_.merge(goals_[g]->reads);
  ever_applicable_.assign(instances_.size(), 0);  // scratch: relevant marks
  const bool prune = d_->search().prune_irrelevant;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < instances_.size(); ++i) {
      if (ever_applicable_[i] || (prune && !instances_[i].def->writes.intersects(relevant_)))
        continue;
      ever_applicable_[i] = 1;
      relevant_.merge(instances_[i].def->reads);
      changed = true;
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < instances_.size(); ++i) {
    if (ever_applicable_[i]) {
      if (kept != i) instances_[kept] = instances_[i];  // a copy onto itself stalls the store
      ++kept;
    } else {
      reject(kTraceNoNode, instances_[i].action, -1, RejectReason::kIrrelevant, 0xffff,
             instances_[i].object);
    }
  }
  instances_.resize(kept);
}

// The state bits of the facts the search and the goals' end_with actions read.
GoapState GoapPlanner::readMask() const {
  FactSet read = relevant_;
  for (int g = 0; g < goal_count_; ++g)
    if (goals_[g]->end_with != ActionId::kNone) read.merge(d_->action(goals_[g]->end_with).reads);
  GoapState mask;
  for (size_t f = 0; f < d_->facts().size(); ++f) {
    const auto id = static_cast<FactId>(f);
    if (id == d_->locationFact() || !read.has(id)) continue;
    const FactField ff = d_->fact(id).field;
    mask.w[ff.word] |= ff.mask();
  }
  return mask;
}

void GoapPlanner::computeSignature(const PlanRequest& r) {
  PlanSignature& s = result_.signature;
  s = {};
  s.domain = d_->serial();
  s.bucket = bucket_;
  s.goal_count = static_cast<uint8_t>(goal_count_);
  for (int g = 0; g < goal_count_; ++g) s.goals[g] = goal_ids_[g];
  s.read_mask = problem_->read_mask;
  for (int w = 0; w < kStateWords; ++w) s.read_values.w[w] = start_.w[w] & s.read_mask.w[w];
  uint64_t h = 0xcbf29ce484222325ull;
  for (const Instance& in : instances_)
    h = mix(mix(h, (uint64_t{in.variant} << 16) | idx(in.action)), raw(in.object));
  for (const Pruned& p : pruned_)
    h = mix(h, (uint64_t{idx(p.action)} << 24) | (uint64_t{static_cast<uint8_t>(p.reason)} << 16) |
                   p.condition);
  for (int g = 0; g < goal_count_; ++g) h = mix(h, static_cast<uint64_t>(end_cost_[g] >= 0.f));
  if (has_location_ && relevant_.has(d_->locationFact())) {
    auto q = [](float v) {
      return static_cast<uint64_t>(static_cast<int64_t>(std::floor(v / kSignatureQuantumM)));
    };
    for (uint8_t k = 0; k < static_locations_; ++k)
      h = mix(mix(mix(h, q(positions_[k].x)), q(positions_[k].y)), q(positions_[k].z));
  }
  (void)r;
  s.context = h;
  s.valid = true;
}

PlanStatus GoapPlanner::begin(const PlanRequest& r) {
  cancel();
  result_.status = PlanStatus::kInProgress;
  result_.flags = 0;
  result_.goal = GoalId::kNone;
  result_.fallback = ActionId::kNone;
  result_.step_count = 0;
  result_.cost = 0.f;
  result_.h0 = 0.f;
  result_.expansions = result_.generated = 0;
  result_.work = 0;
  result_.why.count = 0;
  result_.signature.valid = false;
  flags_ = 0;
  h0_ = 0.f;
  lm_count_ = 0;
  relaxed_current_ = lmcut_search_ = node_eval_ = pattern_search_ = false;
  expansions_ = generated_ = 0;
  work_ = 0;
  trace_ = r.trace;
  reach_ = r.reachability;
  if (trace_) trace_->clear();
  if (!validate(r)) {
    finishEarly(PlanStatus::kInvalidRequest, 0);
    return result_.status;
  }
  result_.fallback = d_->bucket(bucket_).fallback;
  if (trace_) {
    trace_->domain = d_;
    trace_->bucket = bucket_;
    for (int g = 0; g < goal_count_; ++g) trace_->goals.push_back(goal_ids_[g]);
    trace_->start = start_;
    for (int g = 0; g < goal_count_; ++g)
      for (size_t i = 0; i < goals_[g]->desired.size(); ++i)
        trace_->desired.push_back({goal_ids_[g], static_cast<uint16_t>(i)});
  }
  setupLocations(r);
  setupInstances(r);
  problem_ = &findProblem();
  pruneByProblem();
  computeSignature(r);
  if (r.previous && r.previous->signature.valid && r.previous->signature == result_.signature &&
      r.previous->status != PlanStatus::kInProgress &&
      r.previous->status != PlanStatus::kInvalidRequest) {
    result_ = *r.previous;
    result_.flags |= kPlanReused;
    result_.expansions = result_.generated = 0;
    result_.work = 0;
    if (trace_) trace_->result = result_;
    return result_.status;
  }
  // Already satisfied: an empty plan (the caller may still run end_with pacing itself).
  if (const int g = goalIndex(start_); g >= 0) {
    result_.goal = goal_ids_[g];
    finishEarly(PlanStatus::kFound, kPlanAlreadySatisfied);
    return result_.status;
  }

  for (Instance& in : instances_) {
    const ActionDef& a = *in.def;
    in.simple = in.variant == kNoVariant && !a.has_add && !a.moves && a.rest.empty() &&
                !a.cost.table_size && !a.cost.readsLocation();
  }
  // The domain's pattern databases when it built them; else by problem size: an exact table
  // when it fits, else LM-cut. A start that a table calls a dead end is left to LM-cut,
  // whose relaxation explains why there is no plan.
  const HeuristicKind heuristic = d_->search().heuristic;
  pattern_search_ = heuristic == HeuristicKind::kAuto && usePatternDatabases();
  table_ = heuristic == HeuristicKind::kAuto && !pattern_search_ ? exactTable() : nullptr;
  if (table_ && !(table_->h(tableIndex(start_)) < kInfiniteCost)) table_ = nullptr;
  if (table_) {
    noLandmarks();
    h0_ = table_->h(tableIndex(start_));
    flags_ |= kPlanExactHeuristic;
  } else if (pattern_search_) {
    noLandmarks();
    h0_ = patternH(start_);
    flags_ |= kPlanPatternHeuristic;
  } else if (heuristic != HeuristicKind::kBlind) {
    lmcut_search_ = true;
    h0_ = cachedHeuristic();
    if (h0_ == kInfiniteCost) {
      h0_ = 0.f;
      explainNoPlan(true);
      finishEarly(PlanStatus::kNoPlan, kPlanRelaxedUnreachable);
      return result_.status;
    }
  } else {
    noLandmarks();
  }

  // Pools start small and grow on demand (growPool) up to max_nodes_, then are reused.
  if (nodes_.size() < std::min(max_nodes_, kInitialNodes)) {
    nodes_.resize(std::min(max_nodes_, kInitialNodes));
    hash_heads_.assign(nodes_.size() * 2, kNull);
    hash_mask_ = static_cast<uint32_t>(hash_heads_.size() - 1);
    open_.reserve(2 * nodes_.size());
  }
  ever_applicable_.assign(instances_.size(), 0);

  SearchNode& root = nodes_[0];
  root.state = start_;
  root.g = 0.f;
  root.h = h0_;
  root.accepted = 0;
  root.parent = kNull;
  root.instance = 0;
  root.depth = 0;
  root.closed = 0;
  root.evaluated = 0;
  root.hash = static_cast<uint32_t>(hashState(start_, words_));
  root.next = hash_heads_[root.hash & hash_mask_];
  hash_heads_[root.hash & hash_mask_] = 0;
  node_count_ = 1;
  generated_ = 1;
  best_ = 0;
  pushOpen(0);
  if (table_ && walkTable()) return result_.status;

  if (trace_) {
    for (const Instance& in : instances_)
      trace_->instances.push_back({in.action, in.object, in.object_slot, in.pacing});
    for (size_t k = 0; k < positions_.size(); ++k)
      trace_->locations.push_back({positions_[k], loc_info_[k].entity, loc_info_[k].kind,
                                   loc_info_[k].index});
    for (int l = 0; l < lm_count_; ++l) {
      TraceLandmark lm;
      lm.cost = lm_cost_[l];
      lm.first_member = static_cast<uint32_t>(trace_->landmark_members.size());
      for (size_t i = 0; i < instances_.size(); ++i) {
        const Instance& in = instances_[i];
        const uint32_t keys = static_cast<uint32_t>(
            (i + 1 < instances_.size() ? instances_[i + 1].key_base : lm_masks_.size()) -
            in.key_base);
        bool member = false;
        for (uint32_t k = 0; k < keys; ++k) member = member || (lm_masks_[in.key_base + k] >> l & 1);
        if (member) trace_->landmark_members.push_back(static_cast<int32_t>(i));
      }
      lm.member_count =
          static_cast<uint32_t>(trace_->landmark_members.size()) - lm.first_member;
      trace_->landmarks.push_back(lm);
    }
  }
  return result_.status;
}

// The search's h is the table's or 0: no landmark, every instance on key 0.
void GoapPlanner::noLandmarks() {
  h0_ = 0.f;
  lm_count_ = 0;
  lm_masks_.assign(1, 0);
  for (Instance& in : instances_) {
    in.split = kSplitNone;
    in.key_base = 0;
  }
}

// --- no plan: why -----------------------------------------------------------------------

// The index of a strict add/sub effect that left its fact's range in every searched state where
// the instance's preconditions held (so it never applied), or 0xff. `relaxed`: in every
// value of the fact the delete relaxation reaches.
uint8_t GoapPlanner::effectAlwaysOutOfRange(const Instance& in, bool relaxed) const {
  const ActionDef& a = *in.def;
  if (!a.has_add) return 0xff;
  if (relaxed) {
    for (size_t e = 0; e < a.effects.size(); ++e) {
      const Effect& ef = a.effects[e];
      const uint32_t base = ef.kind == EffectKind::kAdd ? fact_atom_[idx(ef.fact)] : kNull;
      if (base == kNull || ef.clamp) continue;
      bool fits = false;
      for (int32_t raw = 0; raw <= ef.max - ef.min && !fits; ++raw)
        fits = relaxed_.reachable(base + static_cast<uint32_t>(raw)) && raw + ef.value >= 0 &&
               raw + ef.value <= ef.max - ef.min;
      if (!fits) return static_cast<uint8_t>(e);
    }
    return 0xff;
  }
  const LocationView v = view(in);
  uint8_t blocking = 0xff;
  for (uint32_t n = 0; n < node_count_; ++n) {
    const GoapState& s = nodes_[n].state;
    bool pre = true;
    for (const Condition& c : a.conditions)
      pre = pre && (c.kind == ConditionKind::kBlackboard || holds(c, s, &v));
    if (!pre) continue;
    uint8_t out = 0xff;
    for (size_t e = 0; e < a.effects.size() && out == 0xff; ++e) {
      const Effect& ef = a.effects[e];
      if (ef.kind != EffectKind::kAdd || ef.clamp) continue;
      const int32_t value = static_cast<int32_t>(readField(s, ef.field)) + ef.value;
      if (value < 0 || value > ef.max - ef.min) out = static_cast<uint8_t>(e);
    }
    if (out == 0xff) return 0xff;  // it applied here
    if (blocking == 0xff) blocking = out;
  }
  return blocking;
}

void GoapPlanner::explainNoPlan(bool relaxed) {
  NoPlanWhy& why = result_.why;
  why.count = 0;
  auto relaxedHolds = [&](const Condition& c, auto& self) -> bool {
    if (c.kind == ConditionKind::kAny)
      return std::any_of(c.any.begin(), c.any.end(), [&](const std::vector<Condition>& alt) {
        return std::all_of(alt.begin(), alt.end(),
                           [&](const Condition& part) { return self(part, self); });
      });
    if (c.kind != ConditionKind::kFact) return true;
    const uint32_t base = fact_atom_[idx(c.fact)];
    if (base == kNull) return true;
    const FactDef& f = d_->fact(c.fact);
    for (int32_t v = f.min; v <= f.max; ++v)
      if (c.accepts(v) && relaxed_.reachable(base + static_cast<uint32_t>(v - f.min))) return true;
    return false;
  };
  auto everHeld = [&](const Condition& c, const LocationView* v) {
    if (relaxed) return relaxedHolds(c, relaxedHolds);
    if (c.kind == ConditionKind::kBlackboard) return true;
    for (uint32_t n = 0; n < node_count_; ++n)
      if (holds(c, nodes_[n].state, v)) return true;
    return node_count_ == 0 && holds(c, start_, v);
  };
  // An achiever of an `any` achieves one of its alternatives' conditions.
  auto achievesPart = [](const Effect& e, const Condition& c, auto& self) -> bool {
    if (c.kind == ConditionKind::kAny)
      return std::any_of(c.any.begin(), c.any.end(), [&](const std::vector<Condition>& alt) {
        return std::any_of(alt.begin(), alt.end(),
                           [&](const Condition& part) { return self(e, part, self); });
      });
    return !e.moves() && e.fact == c.fact && (e.kind == EffectKind::kAdd || c.accepts(e.value));
  };
  const BucketDef& bucket = d_->bucket(bucket_);
  for (int g = 0; g < goal_count_ && why.count < why.unmet.size(); ++g) {
    const GoalDef& goal = *goals_[g];
    for (size_t i = 0; i < goal.desired.size() && why.count < why.unmet.size(); ++i) {
      const Condition& c = goal.desired[i];
      if (everHeld(c, nullptr)) continue;
      UnmetCondition u;
      u.goal = goal_ids_[g];
      u.desired = static_cast<uint16_t>(i);
      for (ActionId a : bucket.actions) {
        const ActionDef& def = d_->action(a);
        bool achieves = false;
        for (const Effect& e : def.effects) achieves = achieves || achievesPart(e, c, achievesPart);
        if (!achieves) continue;
        if (u.achievers < 255) ++u.achievers;
        if (u.blocker_count >= u.blockers.size()) continue;
        UnmetCondition::Blocker b;
        b.action = a;
        for (const Pruned& p : pruned_)
          if (p.action == a) {
            b.reason = p.reason;
            b.condition = p.condition;
          }
        if (b.reason == RejectReason::kNone) {
          for (const Instance& in : instances_) {
            if (in.action != a) continue;
            b.object = in.object;
            const LocationView v = view(in);
            for (uint16_t d = 0; d < def.conditions.size() && b.condition == 0xffff; ++d)
              for (const Condition& pc : def.conditions)
                if (pc.declared == d && !everHeld(pc, &v)) {
                  b.condition = d;
                  b.reason = RejectReason::kCondition;
                }
            if (b.reason == RejectReason::kNone) b.effect = effectAlwaysOutOfRange(in, relaxed);
            if (b.effect != 0xff) b.reason = RejectReason::kEffectOutOfRange;
            break;
          }
        }
        u.blockers[u.blocker_count++] = b;
      }
      why.unmet[why.count++] = u;
    }
  }
}

}  // namespace npc::goap
