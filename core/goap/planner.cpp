// GoapPlanner, part 3: the A* search (setup: planner_setup.cpp, heuristic: planner_heuristic.cpp).
#include "goap/planner.h"

#include <algorithm>
#include <bit>

#include "goap/statistics.h"
#include "goap/trace.h"

namespace npc::goap {

namespace {
constexpr uint32_t kNull = 0xffffffffu;

// Heap order: least f, then least h (nearer the goal), then oldest node: deterministic.
struct Worse {
  template <class E>
  bool operator()(const E& a, const E& b) const {
    return a.key != b.key ? a.key > b.key : a.node > b.node;
  }
};

uint64_t orderBits(float v) { return v > 0.f ? std::bit_cast<uint32_t>(v) : 0u; }

// The conditions `rest` indexes in `conditions`.
bool allHold(std::span<const Condition> conditions, std::span<const uint16_t> rest,
             const GoapState& s, const LocationView& v) {
  for (uint16_t i : rest)
    if (!holdsPlain(conditions[i], s, &v)) return false;
  return true;
}

// The variant's alternative of the `any` declared as `declared` (its blackboard conditions
// were checked at begin()).
bool alternativeHolds(const ActionVariant& var, uint16_t declared, const GoapState& s,
                      const LocationView& v) {
  for (const Condition& part : var.conditions)
    if (part.declared == declared && !holdsPlain(part, s, &v)) return false;
  return true;
}

}  // namespace

const PlanResult& GoapPlanner::plan(const PlanRequest& request) {
  begin(request);
  while (result_.status == PlanStatus::kInProgress) step(0xffffffffu);
  return result_;
}

int GoapPlanner::goalIndex(const GoapState& s) const {
  for (int g = 0; g < goal_count_; ++g)
    if (goals_[g]->holdsIn(s, words_)) return g;
  return -1;
}

bool GoapPlanner::applicable(const Instance& in, const GoapState& s, uint32_t node) {
  const ActionDef& a = *in.def;
  if (!stats_ && !trace_) {
    if (in.variant != kNoVariant) return variantApplicable(in, s);
    if (!a.eq.passes(s, words_)) return false;
    return a.rest.empty() || allHold(a.conditions, a.rest, s, view(in));
  }
  // Per-condition path: statistics and the monitor need to know which condition failed. An
  // `any` counts as one condition: the variant's alternative of it.
  const LocationView v = view(in);
  for (const Condition& c : a.conditions) {
    if (c.kind == ConditionKind::kBlackboard) continue;  // checked once at begin()
    const bool ok = c.kind == ConditionKind::kAny
                        ? alternativeHolds(a.variants[in.variant], c.declared, s, view(in))
                        : holdsPlain(c, s, &v);
    if (stats_) stats_->countCondition(in.action, c.declared, ok);
    if (!ok) {
      if (stats_) stats_->countCheck(in.action, false);
      reject(node, in.action, static_cast<int32_t>(&in - instances_.data()),
             RejectReason::kCondition, c.declared, in.object);
      return false;
    }
  }
  if (stats_) stats_->countCheck(in.action, true);
  return true;
}

// An instance of an action with `any` (kept apart so that the others' path is unchanged): the
// variant's equalities (the action's included), the action's other conditions, the variant's.
bool GoapPlanner::variantApplicable(const Instance& in, const GoapState& s) const {
  const ActionDef& a = *in.def;
  const ActionVariant& var = a.variants[in.variant];
  if (!var.eq.passes(s, words_)) return false;
  const LocationView v = view(in);
  return allHold(a.conditions, a.rest, s, v) && allHold(var.conditions, var.rest, s, v);
}

uint8_t GoapPlanner::approachSlot(uint8_t from, uint8_t ref, float range) {
  const Vec3 delta = positions_[from] - positions_[ref];
  const float dist = length(delta);
  if (dist <= range) return from;  // already within range: stay put
  for (size_t k = static_locations_; k < positions_.size(); ++k) {
    const LocationInfo& li = loc_info_[k];
    if (li.from == from && li.ref == ref && li.range == range) return static_cast<uint8_t>(k);
  }
  if (positions_.size() >= static_cast<size_t>(kMaxLocations)) return kNoSlot;
  LocationInfo li;
  li.kind = 3;
  li.from = from;
  li.ref = ref;
  li.range = range;
  for (size_t a = 0; a < approaches_.size(); ++a)
    if (approaches_[a].ref == ref && approaches_[a].range == range)
      li.key = static_cast<uint16_t>(static_locations_ + a);
  // 1 mm inside the range, so "distance_to(ref) <= range" holds despite rounding.
  positions_.push_back(positions_[ref] + delta * (std::max(range - 1e-3f, 0.f) / dist));
  loc_info_.push_back(li);
  if (trace_) trace_->locations.push_back({positions_.back(), EntityId::kNone, 3, 0});
  return static_cast<uint8_t>(positions_.size() - 1);
}

bool GoapPlanner::apply(const Instance& in, const GoapState& s, GoapState& out,
                        RejectReason& why) {
  const ActionDef& a = *in.def;
  out = s;
  for (int w = 0; w < words_; ++w) out.w[w] = (out.w[w] & ~a.sets.mask[w]) | a.sets.value[w];
  if (!a.has_add && !a.moves) return true;
  for (const Effect& e : a.effects) {
    switch (e.kind) {
      case EffectKind::kSet: break;
      case EffectKind::kAdd: {
        int32_t v = static_cast<int32_t>(readField(s, e.field)) + e.value;
        if (v < 0 || v > e.max - e.min) {
          if (!e.clamp) {
            why = RejectReason::kEffectOutOfRange;
            return false;
          }
          v = std::clamp(v, 0, e.max - e.min);
        }
        writeField(out, e.field, static_cast<uint32_t>(v));
        break;
      }
      case EffectKind::kMoveTo:
        writeField(out, loc_field_, view(in).slotOf(e.ref));
        break;
      case EffectKind::kMoveNear: {
        const auto from = static_cast<uint8_t>(readField(s, loc_field_));
        const uint8_t slot = approachSlot(from, view(in).slotOf(e.ref), e.range_m);
        if (slot == kNoSlot) {
          why = RejectReason::kLocationTableFull;
          flags_ |= kPlanLocationTableFull;
          return false;
        }
        writeField(out, loc_field_, slot);
        break;
      }
    }
  }
  return true;
}

float GoapPlanner::cost(const Instance& in, const GoapState& s, const GoapState& child) const {
  const CostSpec& c = in.def->cost;
  float v = c.base + in.pacing;
  if (c.table_size) v += d_->costTable()[c.table_offset + readField(s, c.table_field)];
  if (c.travel_per_m != 0.f || c.distance_per_m != 0.f) {
    const Vec3 from = positions_[readField(s, loc_field_)];
    auto walk = [&](Vec3 to) {
      return reach_ ? reach_->travelDistance(from, to) : length(to - from);
    };
    if (c.travel_per_m != 0.f) v += c.travel_per_m * walk(positions_[readField(child, loc_field_)]);
    if (c.distance_per_m != 0.f) v += c.distance_per_m * walk(positions_[view(in).slotOf(c.distance_ref)]);
  }
  return v;
}

// The key part of a split's second and third facts (planner.h, SplitMore).
uint32_t GoapPlanner::moreKey(uint8_t more, const GoapState& s) const {
  const SplitMore& m = split_more_[more];
  uint32_t key = 0;
  for (int i = 0; i < m.count; ++i) key += m.stride[i] * readField(s, m.fields[i]);
  return key;
}

float GoapPlanner::hOf(uint64_t accepted) const {
  uint64_t open = ~accepted & (lm_count_ >= 64 ? ~0ull : ((1ull << lm_count_) - 1));
  float h = 0.f;
  while (open) {
    h += lm_cost_[std::countr_zero(open)];
    open &= open - 1;
  }
  return h;
}

uint32_t GoapPlanner::findNode(const GoapState& s, uint32_t hash) const {
  for (uint32_t k = hash_heads_[hash & hash_mask_]; k != kNull; k = nodes_[k].next)
    if (nodes_[k].hash == hash && sameState(nodes_[k].state, s, words_)) return k;
  return kNull;
}

void GoapPlanner::pushOpen(uint32_t node) {
  const SearchNode& n = nodes_[node];
  open_.push_back({orderBits(n.g + weight_ * n.h) << 32 | orderBits(n.h), n.g, node});
  std::push_heap(open_.begin(), open_.end(), Worse{});
}

PlanStatus GoapPlanner::step(uint32_t max_expansions) {
  if (result_.status != PlanStatus::kInProgress) return result_.status;
  for (uint32_t done = 0; done < max_expansions;) {
    if (open_.empty()) {
      // Exhausted. Complete only if no limit cut states away.
      const bool cut = flags_ & (kPlanOutOfNodes | kPlanDepthLimited | kPlanLocationTableFull);
      finish(cut && best_ != 0 ? PlanStatus::kPartial : PlanStatus::kNoPlan, best_);
      return result_.status;
    }
    std::pop_heap(open_.begin(), open_.end(), Worse{});
    const OpenEntry e = open_.back();
    open_.pop_back();
    SearchNode& n = nodes_[e.node];
    if (n.closed || e.g != n.g) continue;  // stale entry
    if (goalIndex(n.state) >= 0) {
      finish(PlanStatus::kFound, e.node);
      return result_.status;
    }
    if (!node_eval_ && lmcut_search_ && expansions_ >= node_lmcut_after_) startNodeEvaluation();
    if (node_eval_ && !n.evaluated) {
      // An evaluation costs about what expanding does, or more: it spends the time-sliced
      // budget (step(n)) like an expansion, and a work unit per relaxed operator.
      n.evaluated = 1;
      ++done;
      work_ += relaxed_.opCount();
      const float h = stateHeuristic(n.state);
      if (h > n.h) {
        n.h = h;
        if (!(h < kInfiniteCost)) {  // no goal from here, even relaxed
          n.closed = 1;
          continue;
        }
        pushOpen(e.node);  // back into the queue with its better h (admissible: still optimal)
        continue;
      }
    }
    n.closed = 1;
    if (n.depth >= max_depth_) {
      flags_ |= kPlanDepthLimited;
      if (trace_) reject(e.node, ActionId::kNone, -1, RejectReason::kDepthLimit);
      continue;
    }
    if (expansions_ >= max_expansions_) flags_ |= kPlanExpansionLimit;
    if (max_work_ && work_ >= max_work_) flags_ |= kPlanWorkLimit;
    if (clock_ && (expansions_ & 31) == 0 && clock_->nowNs() >= wall_deadline_ns_)
      flags_ |= kPlanWallClockLimit;
    if (flags_ & (kPlanExpansionLimit | kPlanWorkLimit | kPlanWallClockLimit)) {
      n.closed = 0;
      finish(PlanStatus::kPartial, best_);
      return result_.status;
    }
    expand(e.node);
    ++expansions_;
    ++done;
  }
  return result_.status;
}

// Whether another variant of instance i's action and object (they are adjacent, the first
// not `alt`) applied at this node: `last_applied` is the last instance that did.
bool GoapPlanner::variantApplied(size_t i, size_t last_applied) const {
  size_t first = i;
  while (instances_[first].alt) --first;
  return last_applied >= first && last_applied < i;
}

void GoapPlanner::traceExpansion(uint32_t node) {
  const SearchNode& n = nodes_[node];
  TraceExpansion t;
  t.node = node;
  t.parent = n.parent;
  t.via = node == 0 ? -1 : n.instance;
  t.depth = n.depth;
  t.g = n.g;
  t.h = n.h;
  t.state = n.state;
  for (size_t i = 0; i < trace_->desired.size() && i < 32; ++i) {
    const TraceDesired& x = trace_->desired[i];
    if (!holds(d_->goal(x.goal).desired[x.desired], n.state, nullptr)) t.open_conditions |= 1u << i;
  }
  t.first_child = static_cast<uint32_t>(trace_->children.size());
  t.first_rejection = static_cast<uint32_t>(trace_->rejections.size());
  trace_->expansions.push_back(t);
}

void GoapPlanner::expand(uint32_t node) {
  PlanTrace* const saved_trace = trace_;
  if (trace_) {
    if (trace_->expansions.size() < trace_->max_expansions) {
      traceExpansion(node);
    } else {
      ++trace_->dropped;
      trace_ = nullptr;  // keep children/rejections of untraced nodes out of the trace
    }
  }
  const SearchNode parent = nodes_[node];
  const uint8_t depth = static_cast<uint8_t>(parent.depth + 1);
  const bool fast = !stats_ && !trace_;
  work_ += instances_.size();
  // Most children hit no landmark their parent had not: their landmark h is the parent's,
  // summed once here rather than once a child (the same sum, so the same float).
  const bool looked_up = table_ || pattern_search_;  // no landmarks: h is looked up
  const float parent_lm_h = looked_up ? 0.f : hOf(parent.accepted);
  size_t last_applied = instances_.size();  // none yet at this node
  for (size_t i = 0; i < instances_.size(); ++i) {
    const Instance& in = instances_[i];
    GoapState child;
    float c;
    if (fast && in.simple) {
      if (!simpleChild(in, parent.state, child, c)) continue;
    } else {
      if (in.alt && variantApplied(i, last_applied)) continue;  // it would give the same child
      if (!applicable(in, parent.state, node)) continue;
      RejectReason why = RejectReason::kNone;
      if (!apply(in, parent.state, child, why)) {
        if (trace_) reject(node, in.action, static_cast<int32_t>(i), why, 0xffff, in.object);
        continue;
      }
      c = cost(in, parent.state, child);
      if (!(c < kInfiniteCost)) {  // a travel the navmesh says cannot be walked
        if (trace_) reject(node, in.action, static_cast<int32_t>(i), RejectReason::kObjectUnreachable,
                           0xffff, in.object);
        continue;
      }
    }
    ever_applicable_[i] = 1;
    last_applied = i;
    const float g = parent.g + c;
    const uint64_t accepted = parent.accepted | lm_masks_[in.key_base + keyOf(in, parent.state)];
    const auto hash = static_cast<uint32_t>(hashState(child, words_));
    const uint32_t found = findNode(child, hash);
    if (found != kNull) {
      SearchNode& o = nodes_[found];
      if (g < o.g) {
        o.parent = node;
        o.instance = static_cast<uint16_t>(i);
        o.depth = depth;
        o.g = g;
        o.accepted &= accepted;  // both paths' unhit landmarks must still be hit
        // Fewer hit landmarks only raise hOf; max keeps a node evaluation's h.
        if (!looked_up) o.h = std::max(o.h, hOf(o.accepted));
        if (node_eval_) o.h = std::max(o.h, parent.h - c);  // pathmax
        o.closed = 0;
        pushOpen(found);
        if (trace_ && trace_->roomForEvent())
          trace_->children.push_back({found, static_cast<int32_t>(i), c, g, o.h, true});
      } else {
        if (!o.closed && (o.accepted & accepted) != o.accepted) {
          o.accepted &= accepted;
          o.h = std::max(o.h, hOf(o.accepted));  // its queue key stays a lower bound
        }
        if (trace_)
          reject(node, in.action, static_cast<int32_t>(i), RejectReason::kDuplicate, 0xffff,
                 in.object, o.g);
      }
      continue;
    }
    // h* = infinity: no goal is reachable from the child, so it is not worth a node.
    float h = table_                        ? table_->h(tableIndex(child))
              : pattern_search_             ? patternH(child)
              : accepted == parent.accepted ? parent_lm_h
                                            : hOf(accepted);
    // Pathmax: h(parent) ≤ c + h*(child), so h(parent) − c bounds the child too.
    if (node_eval_) h = std::max(h, parent.h - c);
    if (!(h < kInfiniteCost)) continue;
    if (node_count_ < max_nodes_ && node_count_ >= nodes_.size()) growPool();
    if (node_count_ >= max_nodes_) {
      flags_ |= kPlanOutOfNodes;
      reject(node, in.action, static_cast<int32_t>(i), RejectReason::kNodePoolFull, 0xffff,
             in.object);
      continue;
    }
    const uint32_t k = node_count_++;
    SearchNode& n = nodes_[k];
    n.state = child;
    n.g = g;
    n.accepted = accepted;
    n.h = h;
    n.parent = node;
    n.instance = static_cast<uint16_t>(i);
    n.depth = depth;
    n.closed = 0;
    n.evaluated = 0;
    n.hash = hash;
    n.next = hash_heads_[hash & hash_mask_];
    hash_heads_[hash & hash_mask_] = k;
    ++generated_;
    pushOpen(k);
    const SearchNode& b = nodes_[best_];
    if (n.h < b.h || (n.h == b.h && n.g < b.g)) best_ = k;
    if (trace_ && trace_->roomForEvent())
      trace_->children.push_back({k, static_cast<int32_t>(i), c, g, n.h, false});
  }
  if (trace_) {
    TraceExpansion& t = trace_->expansions.back();
    t.child_count = static_cast<uint32_t>(trace_->children.size()) - t.first_child;
    t.rejection_count = static_cast<uint32_t>(trace_->rejections.size()) - t.first_rejection;
  }
  trace_ = saved_trace;
}

void GoapPlanner::growPool() {
  const size_t size = std::min<size_t>(max_nodes_, nodes_.size() * 2);
  nodes_.resize(size);
  size_t buckets = hash_heads_.size();
  while (buckets < size * 2) buckets <<= 1;
  if (buckets == hash_heads_.size()) return;
  hash_heads_.assign(buckets, kNull);
  hash_mask_ = static_cast<uint32_t>(buckets - 1);
  for (uint32_t k = 0; k < node_count_; ++k) {
    nodes_[k].next = hash_heads_[nodes_[k].hash & hash_mask_];
    hash_heads_[nodes_[k].hash & hash_mask_] = k;
  }
}

void GoapPlanner::finishEarly(PlanStatus status, uint16_t flags) {
  flags_ |= flags;
  result_.status = status;
  result_.flags = flags_;
  result_.h0 = h0_;
  result_.expansions = expansions_;
  result_.generated = generated_;
  result_.work = work_;
  if (trace_) trace_->result = result_;
}

void GoapPlanner::finish(PlanStatus status, uint32_t node) {
  // Path from the root, written back to front.
  int depth = nodes_[node].depth;
  if (depth > kMaxPlanSteps) {
    flags_ |= kPlanStepsTruncated;
    depth = kMaxPlanSteps;
  }
  result_.step_count = static_cast<uint8_t>(depth);
  uint32_t k = node;
  while (nodes_[k].depth > depth) k = nodes_[k].parent;
  for (int i = depth - 1; i >= 0; --i) {
    const SearchNode& n = nodes_[k];
    const SearchNode& p = nodes_[n.parent];
    const Instance& in = instances_[n.instance];
    PlanStep& s = result_.steps[i];
    s.action = in.action;
    s.object = in.object;
    s.object_position = in.object_slot != kNoSlot ? positions_[in.object_slot] : Vec3{};
    s.moves = in.def->moves;
    s.destination = has_location_ ? positions_[readField(n.state, loc_field_)] : Vec3{};
    s.cost = n.g - p.g;
    s.target = TargetIndex::kNone;
    for (const Effect& e : in.def->effects)
      if (e.moves() && e.ref.kind == RefKind::kTarget) s.target = e.ref.target;
    k = n.parent;
  }
  result_.cost = nodes_[node].g;
  const GoapState& final_state = nodes_[node].state;
  if (status == PlanStatus::kFound) {
    const int g = goalIndex(final_state);
    result_.goal = goal_ids_[g];
    if (weight_ > 1.f) flags_ |= kPlanSuboptimal;
    // Pacing action at the end of the plan ("end_with"), when it applies there.
    const ActionId end = goals_[g]->end_with;
    if (end != ActionId::kNone && end_cost_[g] >= 0.f && result_.step_count < kMaxPlanSteps) {
      Instance tmp;
      tmp.def = &d_->action(end);
      tmp.action = end;
      tmp.pacing = end_cost_[g];
      const LocationView v = view(tmp);
      bool ok = true;
      for (const Condition& c : tmp.def->conditions)
        ok = ok && (c.kind == ConditionKind::kBlackboard || holds(c, final_state, &v));
      GoapState after;
      RejectReason why;
      if (ok && apply(tmp, final_state, after, why)) {
        PlanStep& s = result_.steps[result_.step_count++];
        s = {};
        s.action = end;
        s.moves = tmp.def->moves;
        s.cost = cost(tmp, final_state, after);
        s.destination = has_location_ ? positions_[readField(after, loc_field_)] : Vec3{};
        result_.cost += s.cost;
      }
    }
  } else {
    result_.goal = goal_ids_[0];
    if (status == PlanStatus::kPartial && d_->search().accept_partial)
      flags_ |= kPlanPartialAccepted;
    explainNoPlan(false);
  }
  if (stats_ && status == PlanStatus::kFound)
    for (int i = 0; i < result_.step_count; ++i) stats_->countPlanned(result_.steps[i].action);
  finishEarly(status, 0);
}

}  // namespace npc::goap
