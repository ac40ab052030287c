// GoapPlanner: forward A* over packed world states, from the agent's current facts to the
// cheapest state satisfying one of the requested goals. See core/goap/README.md.
//
// Search
// - Forward (progression), because costs are re-evaluated on the planned state of every
//   step: travel from the planned position, fact-dependent tables, and the location a
//   MoveNear produces all need the full state, which only forward search has.
// - Heuristic: LM-cut computed once per search on the delete relaxation from the start
//   state, then per node the landmarks no action on its path has hit (admissible, so plans
//   are optimal; "weight" > 1 per domain gives cost ≤ weight × optimum). "blind" = Dijkstra.
//   "auto" (the default) chooses by problem size: a problem whose relevant facts fit
//   ExactHeuristic::kMaxBits of one state word and that plans no position gets an exact
//   table of h*, built on its first search (planner_table.cpp); with no pacing in play the
//   plan is then a walk down the table, with no open list.
// - Pruning that keeps optimality: actions that cannot affect any fact the goals (or the
//   preconditions/costs of relevant actions) read are not searched.
// - Determinism: ties break on (f, h, node index); costs are pure functions of (action
//   instance, planned state, fixed per-search inputs); no randomness, no wall clock (unless
//   an optional PlanClock budget is given).
//
// Use: begin(request), then step(max_expansions) until it returns something other than
// kInProgress (time-slicing), then result(). plan() does all three. One search at a time
// per planner; a new begin() abandons the running one.
//
// Limits (per request, 0 = the domain's "search" setting): node pool size, expansions,
// depth, deterministic work budget (1 unit per expansion + 1 per action instance checked,
// + 1 per relaxed operator of an LM-cut per node, SearchSettings::node_lmcut_after),
// and an optional wall-clock budget through an injected PlanClock. Reaching one returns
// kPartial with the best node found (least h, then least g) and a flag; an exhausted space
// returns kNoPlan with PlanResult::why.
//
// Memory: node pool, hash, open list, relaxed problem and per-search tables are vectors the
// planner owns and reuses; they grow to the largest search seen, then a search allocates
// nothing (tested with a counting allocator). The node pool starts at 256 nodes and doubles
// on demand up to max_nodes (default 65536 = 4 MB of nodes + 1 MB of hash + 2 MB of open
// list at most per planner). ≈ 64 bytes per node. A cache of the last 16 problems
// (relevance verdict, read mask, exact table ≤ 8 KB) and the table builder's scratch
// (≤ 300 KB at kMaxTableTransitions, ≈ 25 KB for B0) are kept per planner too.
// Thread: a planner is single-threaded; use one per worker thread.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "goap/domain.h"
#include "goap/exact_heuristic.h"
#include "goap/landmark_cut.h"
#include "goap/plan.h"
#include "goap/smart_objects.h"

namespace npc::goap {

class PlanTrace;
class PlannerStatistics;

// Optional wall-clock source for SearchLimits::max_wall_ns (tests use step budgets).
class PlanClock {
 public:
  virtual ~PlanClock() = default;
  virtual uint64_t nowNs() const = 0;
};

struct SearchLimits {
  uint32_t max_nodes = 0;        // node pool size
  uint32_t max_expansions = 0;
  uint8_t max_depth = 0;         // actions per plan [Limit: ≤ kMaxPlanSteps]
  uint64_t max_work = 0;         // deterministic time budget in work units
  const PlanClock* clock = nullptr;
  uint64_t max_wall_ns = 0;      // with `clock`; checked every 32 expansions
};

struct TargetPosition {
  bool present = false;
  Vec3 position;
  EntityId entity = EntityId::kNone;
};

// Everything one search reads. Spans and pointers need to stay valid until begin()
// returns; the planner copies what it needs.
struct PlanRequest {
  const GoapDomain* domain = nullptr;
  BucketId bucket = BucketId::kNone;          // kNone: the domain's first bucket
  std::array<GoalId, kMaxGoalsPerRequest> goals{};
  uint8_t goal_count = 0;                      // several = the cheapest plan to any of them
  GoapState start;                             // current facts (location is set to "self")
  Vec3 self_position;
  std::span<const TargetPosition> targets;     // by TargetIndex; absent if shorter
  std::span<const SmartObjectCandidate> objects;  // nearby smart objects
  const Reachability* reachability = nullptr;
  const Blackboard* blackboard = nullptr;      // agent; conditions read it once per search
  const Blackboard* group_blackboard = nullptr;
  const PacingMemory* pacing = nullptr;        // agent
  const PacingMemory* group_pacing = nullptr;
  double now_s = 0.0;                          // for pacing decay
  SearchLimits limits;
  const PlanResult* previous = nullptr;        // reuse it when nothing it read changed
  PlanTrace* trace = nullptr;                  // planner monitor (slower path)

  void addGoal(GoalId g) {
    if (goal_count < kMaxGoalsPerRequest) goals[goal_count++] = g;
  }
};

class GoapPlanner {
 public:
  GoapPlanner();
  GoapPlanner(const GoapPlanner&) = delete;
  GoapPlanner& operator=(const GoapPlanner&) = delete;

  // Prepares a search. Returns kInProgress, or a final status when no search is needed
  // (goal already satisfied, previous result reused, relaxed-unreachable goal, bad request).
  PlanStatus begin(const PlanRequest& request);
  // Expands up to `max_expansions` nodes. Returns kInProgress or the final status.
  PlanStatus step(uint32_t max_expansions);
  // begin() + step() until done.
  const PlanResult& plan(const PlanRequest& request);
  const PlanResult& result() const { return result_; }
  PlanStatus status() const { return result_.status; }
  uint32_t expansions() const { return expansions_; }  // of the current search so far
  void cancel();

  // Counts per action / condition into `stats` (null = off). Uses the per-condition path.
  void setStatistics(PlannerStatistics* stats) { stats_ = stats; }

  // Heuristic cache (on by default): the LM-cut result of the last kHeuristicCacheSize
  // distinct relaxed problems, keyed exactly by everything they read (domain, bucket,
  // goals, instances with their objects and pacing, the start values of the relevant facts,
  // exact location positions when positions matter). A hit yields the very same landmarks,
  // so plans never depend on the cache; agents sharing facts (a squad of one archetype)
  // skip the heuristic set-up. Off: every search computes LM-cut.
  static constexpr int kHeuristicCacheSize = 4;
  void setHeuristicCache(bool enabled) { hcache_enabled_ = enabled; }
  uint64_t heuristicCacheHits() const { return hcache_hits_; }

 private:
  enum Split : uint8_t { kSplitNone, kSplitLocation, kSplitFact };
  static constexpr uint8_t kNoVariant = 0xff;
  // An instance's relaxed operators are keyed by location key, or by the values of up to
  // 3 facts: key = v0 + stride[0]·v1 + stride[1]·v2. The first fact is the instance's
  // split_field; the others, rarer, live in split_more_ so that Instance stays small.
  static constexpr int kMaxSplitFacts = 3;
  static constexpr uint32_t kMaxSplitKeys = 64;  // relaxed operators per instance by fact
  static constexpr uint8_t kNoSplitMore = 0xff;
  struct SplitMore {
    uint8_t count = 0;                 // facts beyond the first (1 or 2)
    std::array<uint16_t, kMaxSplitFacts - 1> stride{};
    std::array<FactField, kMaxSplitFacts - 1> fields{};
  };
  struct Instance {  // 40 bytes: set-up copies a few hundred per search
    const ActionDef* def = nullptr;
    ActionId action = ActionId::kNone;
    uint8_t object_slot = kNoSlot;
    Split split = kSplitNone;
    EntityId object = EntityId::kNone;
    FactField split_field;
    uint8_t split_more = kNoSplitMore;  // index into split_more_
    uint8_t variant = kNoVariant;  // index into def->variants (the `any` alternatives it checks)
    float pacing = 0.f;
    uint32_t key_base = 0;  // into key_op_ / lm_masks_
    bool simple = false;    // no variant, sets only, cost base + pacing: the fast path
    bool alt = false;       // a later variant of the previous instance's action and object

    const ActionVariant* variantDef() const {
      return variant == kNoVariant ? nullptr : &def->variants[variant];
    }
  };
  struct LocationInfo {
    EntityId entity = EntityId::kNone;
    uint8_t kind = 0;       // 0 self, 1 target, 2 object, 3 planned (MoveNear)
    uint8_t index = 0;      // target index
    uint8_t from = kNoSlot, ref = kNoSlot;
    float range = 0.f;
    uint16_t key = 0;       // location key (static slot or approach) for landmark lookup
  };
  struct Approach {
    uint8_t ref;
    float range;
  };
  struct SearchNode {
    GoapState state;
    float g = 0.f, h = 0.f;
    uint64_t accepted = 0;  // landmarks hit on the path
    uint32_t parent = 0, next = 0, hash = 0;
    uint16_t instance = 0;
    uint8_t depth = 0;
    uint8_t closed : 1 = 0;
    uint8_t evaluated : 1 = 0;  // h includes LM-cut from this state (node evaluation)
  };
  // The queue's order in one integer: f, then h (nearer the goal first). Both are finite
  // and not negative, and such floats order as their bit patterns do.
  struct OpenEntry {
    uint64_t key;
    float g;
    uint32_t node;
  };
  struct Pruned {
    ActionId action;
    RejectReason reason;
    uint16_t condition;
  };
  struct InstanceKey {
    Split split;
    FactField split_field;
    uint8_t split_more;
    uint32_t key_base;
  };
  struct HeuristicCacheEntry {
    std::vector<uint64_t> key;
    std::vector<uint64_t> lm_masks;
    std::vector<InstanceKey> instances;
    std::vector<SplitMore> split_more;
    std::vector<Approach> approaches;
    std::array<float, kMaxLandmarks> lm_cost{};
    int lm_count = 0;
    float h0 = 0.f;
    bool valid = false;
  };
  // What depends on the problem alone — (domain, bucket, goals, instances before pruning)
  // — never on the start facts or positions: relevance pruning, the signature's read mask,
  // the exact table (planner_table.cpp). Kept whatever the heuristic cache setting.
  struct ProblemCacheEntry {
    uint64_t domain = 0;
    BucketId bucket = BucketId::kNone;
    std::array<GoalId, kMaxGoalsPerRequest> goals{};
    int goal_count = 0;
    std::vector<uint32_t> instances;  // tableCode() of each instance before pruning
    std::vector<uint8_t> kept;        // pruneIrrelevant()'s verdict on each
    FactSet relevant;
    GoapState read_mask;
    bool pruned = false;              // kept, relevant and read_mask are filled
    uint32_t searches = 0;            // searched since it entered the cache
    uint64_t last_use = 0;            // least recently used goes first
    int8_t table = -1;                // -1 not yet known, 0 does not fit, 1 built
    uint8_t table_word = 0, table_shift = 0, table_bits = 0;  // its index: a bit span
    ExactHeuristic exact;
  };
  struct OrAtom {
    FactId fact;
    uint64_t accepted;  // Condition::accepted
    uint32_t atom;
  };

  // planner_setup.cpp: everything before the first expansion.
  bool validate(const PlanRequest& r);
  void setupLocations(const PlanRequest& r);
  void setupInstances(const PlanRequest& r);
  void addObjectInstances(const PlanRequest& r, const ActionDef& def, ActionId id,
                          uint32_t live);
  void addVariants(uint32_t live);
  uint8_t objectSlot(const SmartObjectCandidate& c);
  bool contextHolds(const PlanRequest& r, ActionId id, std::span<const Condition> conditions,
                    uint16_t& failed);
  uint32_t liveVariants(const PlanRequest& r, ActionId id, uint16_t& failed);
  void pruneIrrelevant();
  void computeSignature(const PlanRequest& r);
  GoapState readMask() const;
  float buildHeuristic();
  float cachedHeuristic();
  void startNodeEvaluation();
  float stateHeuristic(const GoapState& s);
  void buildInstanceOps(Instance& in);
  uint32_t conditionAtom(const Condition& c);
  void reject(uint32_t node, ActionId action, int32_t instance, RejectReason reason,
              uint16_t condition = 0xffff, EntityId object = EntityId::kNone, float value = 0.f);
  void explainNoPlan(bool relaxed);
  uint8_t effectAlwaysOutOfRange(const Instance& in, bool relaxed) const;

  // planner_table.cpp: the problem cache and the exact table of small problems.
  static uint32_t tableCode(const Instance& in) {
    return (uint32_t{in.variant} << 16) | idx(in.action);
  }
  bool sameProblem(const ProblemCacheEntry& e) const;
  ProblemCacheEntry& findProblem();
  void pruneByProblem();
  bool tableFits(ProblemCacheEntry& e) const;
  bool tableIndexValid(uint32_t index) const;
  void buildTable(ExactHeuristic& out);
  const ExactHeuristic* exactTable();
  uint32_t tableIndex(const GoapState& s) const {
    return static_cast<uint32_t>(s.w[table_word_] >> table_shift_) & ((1u << table_bits_) - 1);
  }
  bool walkTable();
  bool usePatternDatabases();
  // The least of the goals' pattern databases' h (pattern_search_).
  float patternH(const GoapState& s) const {
    float h = pattern_dbs_[0]->h(s);
    for (int g = 1; g < goal_count_; ++g) h = std::min(h, pattern_dbs_[g]->h(s));
    return h;
  }
  void noLandmarks();

  // planner.cpp: the search.
  int goalIndex(const GoapState& s) const;
  bool applicable(const Instance& in, const GoapState& s, uint32_t node);
  bool variantApplicable(const Instance& in, const GoapState& s) const;
  bool apply(const Instance& in, const GoapState& s, GoapState& out, RejectReason& why);
  // A `simple` instance (equality preconditions, set effects, constant cost), all inline:
  // false when it does not apply to `s`.
  bool simpleChild(const Instance& in, const GoapState& s, GoapState& child, float& c) const {
    const ActionDef& a = *in.def;
    if (!a.eq.passes(s, words_)) return false;
    child = s;
    for (int w = 0; w < words_; ++w) child.w[w] = (child.w[w] & ~a.sets.mask[w]) | a.sets.value[w];
    c = a.cost.base + in.pacing;
    return true;
  }
  float cost(const Instance& in, const GoapState& s, const GoapState& child) const;
  uint8_t approachSlot(uint8_t from, uint8_t ref, float range);
  // The instance's relaxed-operator key in state s (its landmarks: lm_masks_[key_base + key]).
  uint32_t keyOf(const Instance& in, const GoapState& s) const {
    if (in.split == kSplitNone) return 0;
    if (in.split == kSplitLocation) return loc_info_[readField(s, loc_field_)].key;
    const uint32_t key = readField(s, in.split_field);
    return in.split_more == kNoSplitMore ? key : key + moreKey(in.split_more, s);
  }
  uint32_t moreKey(uint8_t more, const GoapState& s) const;
  float hOf(uint64_t accepted) const;
  uint32_t findNode(const GoapState& s, uint32_t hash) const;
  void pushOpen(uint32_t node);
  void growPool();  // doubles the node pool (≤ max_nodes_) and rehashes
  void expand(uint32_t node);
  bool variantApplied(size_t i, size_t last_applied) const;
  void finish(PlanStatus status, uint32_t node);
  void finishEarly(PlanStatus status, uint16_t flags);
  void traceExpansion(uint32_t node);
  LocationView view(const Instance& in) const {
    return {positions_, in.object_slot, target_slots_.data(), loc_field_};
  }

  // Request (copied at begin).
  const GoapDomain* d_ = nullptr;
  const Reachability* reach_ = nullptr;  // the request's, for travel distances
  BucketId bucket_ = BucketId::kNone;
  std::array<const GoalDef*, kMaxGoalsPerRequest> goals_{};
  std::array<GoalId, kMaxGoalsPerRequest> goal_ids_{};
  std::array<float, kMaxGoalsPerRequest> end_cost_{};
  int goal_count_ = 0;
  GoapState start_;
  int words_ = 1;
  FactField loc_field_;
  bool has_location_ = false;
  float weight_ = 1.f;
  uint32_t max_nodes_ = 0, max_expansions_ = 0;
  uint32_t node_lmcut_after_ = kNeverLmcutPerNode;  // SearchSettings::node_lmcut_after
  uint8_t max_depth_ = 0;
  uint64_t max_work_ = 0, wall_deadline_ns_ = 0;
  const PlanClock* clock_ = nullptr;
  PlanTrace* trace_ = nullptr;
  PlannerStatistics* stats_ = nullptr;
  FactSet relevant_;

  // Per-search tables.
  std::vector<Instance> instances_;
  std::vector<Vec3> positions_;          // by location slot (reserved: never reallocates)
  std::vector<LocationInfo> loc_info_;
  uint8_t static_locations_ = 0;
  std::array<uint8_t, kMaxTargets> target_slots_{};
  std::vector<Approach> approaches_;     // location keys static_locations_.. are these
  std::vector<SmartObjectCandidate> cands_;
  std::vector<float> cand_dist_;
  std::vector<Pruned> pruned_;
  std::vector<uint8_t> ever_applicable_;
  // Heuristic.
  RelaxedProblem relaxed_;
  std::vector<uint32_t> fact_atom_;      // by FactId: first value atom, or kNone
  std::vector<uint32_t> loc_atom_;       // by location key
  std::vector<OrAtom> or_atoms_;
  std::vector<uint32_t> key_op_;         // by instance key: relaxed op or kNone
  std::vector<uint32_t> scratch_pre_, scratch_eff_;
  std::vector<uint64_t> lm_masks_;       // by instance key
  std::vector<SplitMore> split_more_;    // by Instance::split_more (≤ 255: else not split)
  struct RelaxedFact {
    uint32_t atom;                       // the atom of the fact's first value
    FactField field;
  };
  std::vector<RelaxedFact> relaxed_facts_;  // relevant facts, for stateHeuristic()
  bool relaxed_current_ = false;         // relaxed_ is this search's (not a cache hit)
  bool lmcut_search_ = false;            // LM-cut guides this search
  bool node_eval_ = false;               // nodes get LM-cut from their own state
  std::array<float, kMaxLandmarks> lm_cost_{};
  int lm_count_ = 0;
  float h0_ = 0.f;
  std::array<HeuristicCacheEntry, kHeuristicCacheSize> hcache_;
  std::vector<uint64_t> hkey_;
  uint32_t hcache_next_ = 0;
  uint64_t hcache_hits_ = 0;
  bool hcache_enabled_ = true;
  // Problem cache and exact table (table_ null: LM-cut or blind).
  static constexpr int kProblemCacheSize = 16;
  static constexpr size_t kMaxTableTransitions = 8192;  // instances × states checked to build one
  std::array<ProblemCacheEntry, kProblemCacheSize> problems_;
  uint64_t problem_clock_ = 0;
  ProblemCacheEntry* problem_ = nullptr;  // this search's
  const ExactHeuristic* table_ = nullptr;
  uint8_t table_word_ = 0, table_shift_ = 0, table_bits_ = 0;  // copied from problem_
  ExactHeuristicBuilder table_builder_;
  // The goals' pattern databases (the domain's) guide this search (pattern_search_).
  std::array<const PatternDatabase*, kMaxGoalsPerRequest> pattern_dbs_{};
  bool pattern_search_ = false;
  // Search.
  static constexpr uint32_t kInitialNodes = 256;
  std::vector<SearchNode> nodes_;
  uint32_t node_count_ = 0;
  std::vector<uint32_t> hash_heads_;
  uint32_t hash_mask_ = 0;
  std::vector<OpenEntry> open_;
  uint32_t best_ = 0;                    // least (h, g) node: the partial result
  uint32_t expansions_ = 0, generated_ = 0;
  uint64_t work_ = 0;
  uint16_t flags_ = 0;
  PlanResult result_;
};

}  // namespace npc::goap
