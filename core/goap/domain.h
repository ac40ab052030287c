// GoapDomain: one immutable planning domain (facts, actions, goals, smart-object types,
// buckets, search settings), loaded once from JSON (domain_loader.h) and shared by every
// agent that plans with it. GoapLibrary owns the domains of one daemon plus the names they
// share (blackboard keys, pacing tags).
//
// Invariants
// - Every name is resolved at load: facts, actions, goals, buckets, targets, smart-object
//   types, blackboard keys and pacing tags are small integer ids; nothing compares strings
//   while planning. Names are kept (cold) for traces, statistics and diagnostics.
// - Facts are packed into GoapState bit fields (FactDef::field). A domain that uses positions
//   gets a hidden fact "@location" (6 bits): the planned position as a slot of the search's
//   location table (planner.h).
// - After load a domain does not change, except reorderConditions() which statistics apply
//   before the domain is handed to planners (GoapLibrary::applyStatistics).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "goap/blackboard.h"
#include "goap/condition.h"
#include "goap/goap_types.h"
#include "goap/pacing.h"
#include "goap/pattern_database.h"

namespace npc::goap {

// A set of facts, one bit per FactId (at most 256 facts: every fact takes ≥ 1 state bit).
struct FactSet {
  std::array<uint64_t, 4> bits{};
  void add(FactId f) { bits[idx(f) >> 6] |= 1ull << (idx(f) & 63); }
  bool has(FactId f) const { return (bits[idx(f) >> 6] >> (idx(f) & 63)) & 1; }
  bool intersects(const FactSet& o) const {
    for (int i = 0; i < 4; ++i)
      if (bits[i] & o.bits[i]) return true;
    return false;
  }
  void merge(const FactSet& o) {
    for (int i = 0; i < 4; ++i) bits[i] |= o.bits[i];
  }
  friend bool operator==(const FactSet&, const FactSet&) = default;
};

enum class FactType : uint8_t { kBool, kEnum, kInt, kLocation };

struct FactDef {
  std::string name;
  FactType type = FactType::kBool;
  int32_t min = 0;                  // logical range [min, max]; raw bits hold value − min
  int32_t max = 1;
  std::vector<std::string> values;  // enum value names
  int32_t initial = 0;
  FactField field;
};

struct BlackboardWrite {
  BlackboardKeyId key = BlackboardKeyId::kNone;
  BlackboardType type = BlackboardType::kBool;
  float value = 0.f;
};

// A designer parameter handed to the caller with each plan step ("animation": "swing").
struct ActionParam {
  std::string name;
  std::string text;     // string values
  float number = 0.f;   // number / bool values
  bool is_number = false;
};

// One way to satisfy an action's `any` conditions: an alternative of each, combined. The
// planner searches every variant as an instance of the same action (same name, effects and
// cost), so a variant is checked like an action without `any`: one mask test and a few plain
// conditions, and the heuristic sees ordinary operators. [Limit: ≤ kMaxActionVariants]
struct ActionVariant {
  MaskTest eq;                          // the action's eq plus the alternatives' equalities
  std::vector<Condition> conditions;    // the chosen alternatives' conditions; `declared` is
                                        // their `any`'s (statistics, traces, why)
  std::vector<uint16_t> rest;           // indices into `conditions`: planned state, not in eq
  bool has_context = false;             // a blackboard condition among them
};
inline constexpr int kMaxActionVariants = 16;

struct ActionDef {
  std::string name;
  bool needs_object = false;            // a smart-object action: one instance per candidate
  float object_max_distance_m = 1e30f;  // candidates farther from the agent are pruned
  uint8_t max_candidates = 0;           // 0 = domain default
  std::vector<Condition> conditions;    // evaluation order (statistics may re-order); an
                                        // `any` is one condition (kAny)
  std::vector<Effect> effects;
  CostSpec cost;
  PacingSpec pacing;
  std::vector<PacingTagId> records;     // extra tags recorded when the step succeeds
  std::vector<BlackboardWrite> on_success;
  std::vector<ActionParam> params;
  std::vector<SmartObjectTypeId> advertised_by;

  // Compiled at load (never changed by re-ordering: the fast path is order-free).
  MaskTest eq;                          // every "fact = v" condition
  std::vector<uint16_t> rest;           // other planned-state conditions but kAny (indices)
  MaskTest sets;                        // every "fact := v" effect
  bool has_add = false;                 // an add/sub effect (strict or clamped)
  bool moves = false;
  bool reads_location = false;          // a location condition or cost term
  bool has_context = false;             // a blackboard condition
  uint8_t targets_used = 0;             // bit per TargetIndex referenced
  // One per combination of `any` alternatives; empty without `any`. Placed by the flags the
  // planner's set-up reads, so an action without `any` costs no extra cache line there.
  std::vector<ActionVariant> variants;
  FactSet reads;                        // condition facts (every alternative's), the cost
                                        // table fact, and the facts of strict add/sub
                                        // effects (range check; a clamped one reads nothing)
  FactSet writes;
};

// One way to satisfy a goal's `any` conditions: the goal's other conditions plus one
// alternative of each `any`. A goal with `any` holds when one of its variants does; to the
// heuristic each variant is a way into the goal (planner_heuristic.cpp), so the goal stays
// one goal for plans, traces and explain(). [Limit: ≤ kMaxGoalVariants]
struct GoalVariant {
  MaskTest eq;                          // every equality, the goal's and the alternatives'
  std::vector<Condition> conditions;    // all of them, `declared` is the desired index
  std::vector<uint16_t> rest;           // indices into `conditions`: the others
};
inline constexpr int kMaxGoalVariants = 16;

struct GoalDef {
  std::string name;
  float priority = 0.f;
  std::vector<Condition> desired;       // fact conditions, or an `any` of them
  std::vector<Condition> relevant;      // fact or blackboard conditions; empty = always
  ActionId end_with = ActionId::kNone;  // appended to plans when applicable (pacing)
  // Compiled at load. Without `any`: the goal holds when eq passes and `rest` (indices
  // into `desired`) hold. With `any`: when one of `variants` holds (eq and rest unused).
  MaskTest eq;
  std::vector<uint16_t> rest;
  std::vector<GoalVariant> variants;
  FactSet reads;                        // every fact of every condition and alternative

  bool holdsIn(const GoapState& s, int words) const {
    if (variants.empty()) {
      if (!eq.passes(s, words)) return false;
      for (uint16_t i : rest)
        if (!holdsPlain(desired[i], s, nullptr)) return false;
      return true;
    }
    for (const GoalVariant& v : variants) {
      if (!v.eq.passes(s, words)) continue;
      bool all = true;
      for (uint16_t i : v.rest) all = all && holdsPlain(v.conditions[i], s, nullptr);
      if (all) return true;
    }
    return false;
  }
};

struct BucketDef {
  std::string name;
  std::vector<ActionId> actions;
  std::vector<GoalId> goals;
  ActionId fallback = ActionId::kNone;  // always-available action when nothing plans
};

struct SmartObjectTypeDef {
  std::string species;                  // world entities of kind object with this species
  std::vector<ActionId> actions;
};

inline constexpr uint32_t kNeverLmcutPerNode = 0xffffffffu;

// kAuto: an exact table on problems whose relevant facts fit ExactHeuristic::kMaxBits and
// that do not plan positions, LM-cut otherwise (planner_table.cpp).
enum class HeuristicKind : uint8_t { kAuto, kLandmarkCut, kBlind };

struct SearchSettings {
  float weight = 1.f;                   // f = g + weight·h; 1 = optimal, > 1 bounded-suboptimal
  HeuristicKind heuristic = HeuristicKind::kAuto;
  uint32_t max_nodes = 65536;           // node pool bound (grown on demand; 64 B per node)
  uint32_t max_expansions = 20000;
  uint8_t max_depth = kMaxPlanSteps;    // actions per plan
  uint64_t max_work = 0;                // deterministic time budget (planner.h); 0 = none
  uint8_t max_candidates = 3;           // smart objects kept per action
  float object_radius_m = 30.f;         // gathering radius around the agent
  float at_tolerance_m = 0.5f;          // At(ref) means within this distance
  bool prune_irrelevant = true;         // relevance pruning (never changes the optimum)
  bool accept_partial = false;          // a limit-cut prefix may be adopted as a plan
  // LM-cut from the start weakens along a path: a node only knows which of the start's
  // landmarks its path hit, not what its own state still needs (the walk back home, say).
  // A search still running after this many expansions evaluates each node it pops with
  // LM-cut from the node's own state (max with the path's h, deferred: a node whose h grew
  // goes back into the queue). Fewer expansions, but each evaluation costs a whole LM-cut
  // (≈ 80 µs on the villager's day): opt-in, for long plans planned off the tick (e.g.
  // `npcd plan`). Never by default. An evaluation spends a time-sliced step budget like an
  // expansion (not max_expansions) and one work unit per relaxed operator (max_work).
  uint32_t node_lmcut_after = kNeverLmcutPerNode;
  // > 0: at load, a pattern database per goal over at most this many combinations of fact
  // values (2 bytes each), for domains that plan no positions. "auto" then guides a search
  // whose goals all have one by it instead of LM-cut: for long plans over counters and
  // walks, where the delete relaxation sees neither the walk back nor what is used up
  // (README "Pattern databases"). 0 = none. [Limit: ≤ 2^24; a domain's tables ≤ 2^26 states]
  uint32_t pattern_states = 0;
};

struct GoalSelectionSettings {
  float hysteresis = 0.f;               // a new goal must beat the running one by more
  float retry_s = 2.f;                  // a goal that failed to plan is skipped this long
  float replan_cooldown_s = 0.5f;       // minimum time between two replans of one agent
};

class GoapLibrary;

class GoapDomain {
 public:
  GoapDomain();
  // Unique for the process lifetime: caches and plan signatures key on it, never on the
  // address (a reloaded domain may reuse one).
  uint64_t serial() const { return serial_; }
  const std::string& name() const { return name_; }
  const std::string& file() const { return file_; }
  const GoapLibrary& library() const { return *library_; }

  // --- facts and states ---
  std::span<const FactDef> facts() const { return facts_; }
  const FactDef& fact(FactId id) const { return facts_[idx(id)]; }
  FactId findFact(std::string_view name) const;
  FactId locationFact() const { return location_fact_; }
  int stateWords() const { return state_words_; }
  const GoapState& initialState() const { return initial_; }
  int32_t get(const GoapState& s, FactId f) const {
    return static_cast<int32_t>(readField(s, facts_[idx(f)].field)) + facts_[idx(f)].min;
  }
  // False (state unchanged) when the value is outside the fact's range.
  bool set(GoapState& s, FactId f, int32_t value) const;
  // Test and tooling helper: "true"/"false", an enum value name or an integer.
  bool set(GoapState& s, std::string_view fact, std::string_view value) const;
  std::string formatValue(FactId f, int32_t value) const;
  std::string formatState(const GoapState& s) const;  // "at=hall has_key=true ..."

  // --- everything else, by id and by name (kNone when unknown) ---
  std::span<const std::string> targets() const { return targets_; }
  TargetIndex findTarget(std::string_view name) const;
  std::span<const ActionDef> actions() const { return actions_; }
  const ActionDef& action(ActionId id) const { return actions_[idx(id)]; }
  ActionId findAction(std::string_view name) const;
  std::span<const GoalDef> goals() const { return goals_; }
  const GoalDef& goal(GoalId id) const { return goals_[idx(id)]; }
  GoalId findGoal(std::string_view name) const;
  std::span<const BucketDef> buckets() const { return buckets_; }
  const BucketDef& bucket(BucketId id) const { return buckets_[idx(id)]; }
  // A domain without "buckets" has one bucket named "default" with every action and goal.
  BucketId findBucket(std::string_view name) const;
  std::span<const SmartObjectTypeDef> smartObjectTypes() const { return object_types_; }
  SmartObjectTypeId findSmartObjectType(std::string_view species) const;
  std::span<const float> costTable() const { return cost_table_; }

  const SearchSettings& search() const { return search_; }
  // The goal's pattern database, or null (search().pattern_states is 0, or none of the
  // goal's facts fitted).
  const PatternDatabase* patternDatabase(GoalId g) const {
    return pattern_databases_ && idx(g) < pattern_databases_->size() &&
                   !(*pattern_databases_)[idx(g)].empty()
               ? &(*pattern_databases_)[idx(g)]
               : nullptr;
  }
  const GoalSelectionSettings& goalSelection() const { return goal_selection_; }

  // Load-time only: evaluation order of an action's conditions (a permutation of
  // 0..n−1 over the current order). Results never depend on the order.
  void reorderConditions(ActionId action, std::span<const uint16_t> order);

 private:
  friend class DomainLoader;
  friend class GoapLibrary;  // reusableDomain
  uint64_t serial_ = 0;
  std::string name_, file_;
  const GoapLibrary* library_ = nullptr;
  std::vector<FactDef> facts_;
  FactId location_fact_ = FactId::kNone;
  int state_words_ = 1;
  GoapState initial_;
  std::vector<std::string> targets_;
  std::vector<ActionDef> actions_;
  std::vector<GoalDef> goals_;
  std::vector<BucketDef> buckets_;
  std::vector<SmartObjectTypeDef> object_types_;
  std::vector<float> cost_table_;
  SearchSettings search_;
  GoalSelectionSettings goal_selection_;
  // By GoalId, when pattern_states > 0. Shared with the domain of a reload that read the
  // same text (GoapLibrary::reusePatternDatabases): the tables depend on it alone.
  std::shared_ptr<const std::vector<PatternDatabase>> pattern_databases_;
  std::string source_;  // the JSON it was loaded from, kept when it has pattern databases
};

struct GoapSourceFile {
  std::string path;  // as shown in diagnostics
  std::string text;
};

struct GoapLoadReport {
  std::vector<std::string> errors;   // "file: /json/path: message", all of them
  std::vector<std::string> loaded;   // domain names added
  bool ok() const { return errors.empty(); }
  std::string text() const;
};

class PlannerStatistics;

class GoapLibrary {
 public:
  GoapLibrary() = default;
  GoapLibrary(const GoapLibrary&) = delete;
  GoapLibrary& operator=(const GoapLibrary&) = delete;

  // Loads every *.json file of `dir` (sorted by name) as one domain each. All or nothing:
  // when any file has an error, no domain is added and every error is reported.
  GoapLoadReport loadDirectory(const std::string& dir);
  GoapLoadReport loadFiles(std::span<const GoapSourceFile> files);
  GoapLoadReport loadText(std::string path, std::string text) {
    GoapSourceFile f{std::move(path), std::move(text)};
    return loadFiles({&f, 1});
  }
  // Domains loaded from now on take their pattern databases from `previous`'s domain of the
  // same name when it was loaded from the same text, rather than building them again (a
  // reload of a directory where one file changed rebuilds that file's tables only).
  // `previous` must outlive the loads; null stops reusing.
  void reusePatternDatabases(const GoapLibrary* previous) { reuse_from_ = previous; }

  const GoapDomain* find(std::string_view name) const;
  GoapDomain* findMutable(std::string_view name);  // load-time tooling (statistics)
  size_t size() const { return domains_.size(); }
  const GoapDomain& domain(size_t i) const { return *domains_[i]; }

  BlackboardSchema& blackboard() { return blackboard_; }
  const BlackboardSchema& blackboard() const { return blackboard_; }
  PacingTagId internPacingTag(std::string_view name);
  PacingTagId findPacingTag(std::string_view name) const;
  const std::string& pacingTagName(PacingTagId id) const { return pacing_tags_[idx(id)]; }

 private:
  std::vector<std::unique_ptr<GoapDomain>> domains_;
  BlackboardSchema blackboard_;
  friend class DomainLoader;
  const GoapDomain* reusableDomain(std::string_view name, std::string_view source) const;

  std::vector<std::string> pacing_tags_;
  const GoapLibrary* reuse_from_ = nullptr;
};

}  // namespace npc::goap
