// DomainLoader, part 3: after parsing — the hidden location fact, the bit layout of the
// state, and compiling actions and goals (resolved fields, equality masks, read/write sets).
#include <algorithm>
#include <cstdio>

#include "goap/domain_loader.h"
#include "goap/pattern_database_builder.h"

namespace npc::goap {

namespace {

int bitsFor(int32_t range) {  // number of values → bits (≥ 1)
  int bits = 1;
  while ((1 << bits) < range) ++bits;
  return bits;
}

std::string number(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  return buf;
}

// What a condition makes its action read: facts, the planned position, targets.
void noteReads(ActionDef& a, const Condition& c) {
  switch (c.kind) {
    case ConditionKind::kFact: a.reads.add(c.fact); break;
    case ConditionKind::kDistance:
    case ConditionKind::kAt:
      a.reads_location = true;
      if (c.ref.kind == RefKind::kTarget) a.targets_used |= uint8_t(1u << idx(c.ref.target));
      break;
    case ConditionKind::kBlackboard: break;
    case ConditionKind::kAny:
      for (const std::vector<Condition>& alternative : c.any)
        for (const Condition& part : alternative) noteReads(a, part);
      break;
  }
}

}  // namespace

void DomainLoader::resolveCondition(Condition& c) {
  if (c.kind == ConditionKind::kFact) {
    const FactDef& f = d_->fact(c.fact);
    c.field = f.field;
    c.min = f.min;
    if (c.op != CompareOp::kIn) {  // `in` listed its values when parsed
      c.accepted = 0;
      for (int32_t v = f.min; v <= f.max; ++v)
        if (compare(c.op, v, c.value)) c.accepted |= 1ull << (v - f.min);
    }
  }
  for (std::vector<Condition>& alternative : c.any)
    for (Condition& part : alternative) resolveCondition(part);
  c.text = conditionText(c);
}

std::string DomainLoader::conditionText(const Condition& c) const {
  auto ref = [&](LocationRef r) {
    return r.kind == RefKind::kObject ? std::string("$object") : d_->targets_[idx(r.target)];
  };
  switch (c.kind) {
    case ConditionKind::kFact: {
      const FactDef& f = d_->fact(c.fact);
      if (c.op != CompareOp::kIn)
        return f.name + " " + toString(c.op) + " " + d_->formatValue(c.fact, c.value);
      std::string values;
      for (int32_t v = f.min; v <= f.max; ++v)
        if (c.accepts(v)) values += (values.empty() ? "" : ", ") + d_->formatValue(c.fact, v);
      return f.name + " in [" + values + "]";
    }
    case ConditionKind::kDistance:
      return "distance_to(" + ref(c.ref) + ") " + toString(c.op) + " " + number(c.metres);
    case ConditionKind::kAt: return "at(" + ref(c.ref) + ")";
    case ConditionKind::kBlackboard:
      return std::string(c.scope == BlackboardScope::kGroup ? "group." : "blackboard.") +
             library_.blackboard().name(c.key) + " " + toString(c.op) + " " + number(c.number);
    case ConditionKind::kAny: {
      std::string out = "any(";
      for (size_t k = 0; k < c.any.size(); ++k)
        for (size_t i = 0; i < c.any[k].size(); ++i)
          out += (i > 0 ? " and " : k > 0 ? " or " : "") + conditionText(c.any[k][i]);
      return out + ")";
    }
  }
  return "?";
}

// Expands the action's `any` conditions into variants (domain.h): the product of their
// alternatives, each variant the action's equalities plus one alternative of each `any`.
// A combination whose equalities contradict can never hold and is dropped.
void DomainLoader::compileVariants(ActionDef& a, const std::string& path) {
  std::vector<const Condition*> anys;
  size_t combinations = 1;
  for (const Condition& c : a.conditions) {
    if (c.kind != ConditionKind::kAny) continue;
    anys.push_back(&c);
    combinations *= c.any.size();
  }
  if (anys.empty()) return;
  if (combinations > kMaxActionVariants) {
    err(path, "action \"" + a.name + "\": its \"any\" conditions combine into " +
                  std::to_string(combinations) + " variants (at most " +
                  std::to_string(kMaxActionVariants) + ")");
    return;
  }
  for (size_t n = 0; n < combinations; ++n) {
    ActionVariant v;
    v.eq = a.eq;
    bool possible = true;
    size_t choice = n;
    for (const Condition* any : anys) {
      for (Condition part : any->any[choice % any->any.size()]) {
        part.declared = any->declared;
        if (part.kind == ConditionKind::kFact && part.op == CompareOp::kEq)
          possible = possible && v.eq.add(part.field, static_cast<uint32_t>(part.value - part.min));
        else if (part.readsPlannedState())
          v.rest.push_back(static_cast<uint16_t>(v.conditions.size()));
        else
          v.has_context = true;
        v.conditions.push_back(std::move(part));
      }
      choice /= any->any.size();
    }
    if (possible) a.variants.push_back(std::move(v));
  }
  if (a.variants.empty())
    err(path, "action \"" + a.name + "\": every alternative of its \"any\" conditions "
                  "contradicts its other conditions");
}

void DomainLoader::finish() {
  // The hidden location fact, then the bit layout in declaration order.
  if (uses_location_) {
    FactDef loc;
    loc.name = "@location";
    loc.type = FactType::kLocation;
    loc.min = 0;
    loc.max = kMaxLocations - 1;
    d_->location_fact_ = static_cast<FactId>(d_->facts_.size());
    d_->facts_.push_back(std::move(loc));
  }
  int word = 0, shift = 0;
  for (FactDef& f : d_->facts_) {
    const int bits = bitsFor(f.max - f.min + 1);
    if (shift + bits > 64) {
      ++word;
      shift = 0;
    }
    if (word >= kStateWords) {
      err("/facts", "the facts need more than 256 state bits");
      return;
    }
    f.field = {static_cast<uint8_t>(word), static_cast<uint8_t>(shift), static_cast<uint8_t>(bits)};
    shift += bits;
  }
  d_->state_words_ = word + 1;
  for (size_t i = 0; i < d_->facts_.size(); ++i)
    d_->set(d_->initial_, static_cast<FactId>(i), d_->facts_[i].initial);

  for (size_t ai = 0; ai < d_->actions_.size(); ++ai) {
    ActionDef& a = d_->actions_[ai];
    for (size_t i = 0; i < a.conditions.size(); ++i) {
      Condition& c = a.conditions[i];
      c.declared = static_cast<uint16_t>(i);
      resolveCondition(c);
      noteReads(a, c);
      if (c.kind == ConditionKind::kAny) continue;  // compileVariants
      if (c.kind == ConditionKind::kFact && c.op == CompareOp::kEq) {
        if (!a.eq.add(c.field, static_cast<uint32_t>(c.value - c.min)))
          err(action_paths_[ai], "action \"" + a.name + "\": contradictory conditions on \"" +
                                     d_->fact(c.fact).name + "\"");
      } else if (c.readsPlannedState()) {
        a.rest.push_back(static_cast<uint16_t>(i));
      } else {
        a.has_context = true;
      }
    }
    compileVariants(a, action_paths_[ai]);
    for (Effect& e : a.effects) {
      if (e.moves()) {
        a.moves = true;
        a.writes.add(d_->location_fact_);
        if (e.ref.kind == RefKind::kTarget) a.targets_used |= uint8_t(1u << idx(e.ref.target));
        continue;
      }
      e.field = d_->fact(e.fact).field;
      e.min = d_->fact(e.fact).min;
      e.max = d_->fact(e.fact).max;
      a.writes.add(e.fact);
      if (e.kind == EffectKind::kSet) {
        a.sets.add(e.field, static_cast<uint32_t>(e.value - e.min));
      } else {
        // A strict add/sub that would leave [min, max] makes the action inapplicable: its
        // applicability depends on the fact, so actions changing the fact are relevant. A
        // clamped one always applies; its result depends on the fact, but only through the
        // actions that already change it, so it reads nothing.
        a.has_add = true;
        if (!e.clamp) a.reads.add(e.fact);
      }
    }
    if (a.cost.table_fact != FactId::kNone) {
      a.cost.table_field = d_->fact(a.cost.table_fact).field;
      a.reads.add(a.cost.table_fact);
    }
    if (a.cost.readsLocation()) {
      a.reads_location = true;
      if (a.cost.distance_per_m > 0 && a.cost.distance_ref.kind == RefKind::kTarget)
        a.targets_used |= uint8_t(1u << idx(a.cost.distance_ref.target));
    }
    if (a.reads_location) a.reads.add(d_->location_fact_);
  }
  for (size_t gi = 0; gi < d_->goals_.size(); ++gi) compileGoal(d_->goals_[gi], goal_paths_[gi]);
  if (d_->search_.pattern_states > 0 && reader_.ok()) buildPatternDatabases();
}

// A projection keeps facts only: the planned position, computed per search from the
// world, has no value the table could be indexed by.
void DomainLoader::buildPatternDatabases() {
  if (uses_location_) {
    err("/search/pattern_states",
        "pattern databases need a domain that plans no positions (an action moves, or a "
        "condition or cost measures a distance)");
    return;
  }
  d_->source_ = source_;
  if (const GoapDomain* before = library_.reusableDomain(d_->name_, source_)) {
    d_->pattern_databases_ = before->pattern_databases_;
    return;
  }
  // Every goal's pattern first: their tables together are bounded, so that a file with
  // many goals cannot make a load take minutes or gigabytes.
  std::vector<std::vector<FactId>> patterns;
  uint64_t total = 0;
  for (size_t g = 0; g < d_->goals_.size(); ++g) {
    patterns.push_back(PatternDatabaseBuilder::choosePattern(*d_, static_cast<GoalId>(g),
                                                             d_->search_.pattern_states));
    total += PatternDatabaseBuilder::states(*d_, patterns.back());
  }
  if (total > PatternDatabaseBuilder::kMaxDomainStates) {
    err("/search/pattern_states",
        "the goals' pattern databases would hold " + std::to_string(total) +
            " states, more than " + std::to_string(PatternDatabaseBuilder::kMaxDomainStates) +
            " for one domain: lower it");
    return;
  }
  PatternDatabaseBuilder builder;
  auto tables = std::make_shared<std::vector<PatternDatabase>>();
  for (size_t g = 0; g < d_->goals_.size(); ++g)
    tables->push_back(builder.build(*d_, static_cast<GoalId>(g), std::move(patterns[g])));
  d_->pattern_databases_ = std::move(tables);
}

// A goal's plain conditions compile as an action's do (eq, rest). Its `any` conditions
// expand into variants (domain.h), one per combination of alternatives, each carrying the
// plain conditions too, so that one variant alone decides the goal and gives the heuristic
// one complete way into it. A combination whose equalities contradict never holds: dropped.
void DomainLoader::compileGoal(GoalDef& g, const std::string& path) {
  for (auto* list : {&g.desired, &g.relevant})
    for (size_t i = 0; i < list->size(); ++i) {
      (*list)[i].declared = static_cast<uint16_t>(i);
      resolveCondition((*list)[i]);
    }
  size_t combinations = 1;
  for (size_t i = 0; i < g.desired.size(); ++i) {
    const Condition& c = g.desired[i];
    if (c.kind == ConditionKind::kAny) {
      for (const std::vector<Condition>& alternative : c.any)
        for (const Condition& part : alternative) g.reads.add(part.fact);
      combinations *= c.any.size();
      continue;
    }
    g.reads.add(c.fact);
    if (c.op == CompareOp::kEq && g.eq.add(c.field, static_cast<uint32_t>(c.value - c.min)))
      continue;
    if (c.op == CompareOp::kEq) {
      err(path, "goal \"" + g.name + "\": contradictory desired values for \"" +
                    d_->fact(c.fact).name + "\"");
      continue;
    }
    g.rest.push_back(static_cast<uint16_t>(i));
  }
  const bool has_any =
      std::any_of(g.desired.begin(), g.desired.end(),
                  [](const Condition& c) { return c.kind == ConditionKind::kAny; });
  if (!has_any) return;
  if (combinations > kMaxGoalVariants) {
    err(path, "goal \"" + g.name + "\": its \"any\" conditions combine into " +
                  std::to_string(combinations) + " variants (at most " +
                  std::to_string(kMaxGoalVariants) + ")");
    return;
  }
  for (size_t n = 0; n < combinations; ++n) {
    GoalVariant v;
    bool possible = true;
    size_t choice = n;
    auto add = [&](Condition part) {
      if (part.op == CompareOp::kEq)
        possible = possible && v.eq.add(part.field, static_cast<uint32_t>(part.value - part.min));
      else
        v.rest.push_back(static_cast<uint16_t>(v.conditions.size()));
      v.conditions.push_back(std::move(part));
    };
    for (const Condition& c : g.desired) {
      if (c.kind != ConditionKind::kAny) {
        add(c);
        continue;
      }
      for (Condition part : c.any[choice % c.any.size()]) {
        part.declared = c.declared;
        add(std::move(part));
      }
      choice /= c.any.size();
    }
    if (possible) g.variants.push_back(std::move(v));
  }
  if (g.variants.empty())
    err(path, "goal \"" + g.name + "\": every alternative of its \"any\" conditions "
                  "contradicts its other desired conditions");
}

}  // namespace npc::goap
