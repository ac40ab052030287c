// DomainLoader, part 3: after parsing — the hidden location fact, the bit layout of the
// state, and compiling actions and goals (resolved fields, equality masks, read/write sets).
#include <cstdio>

#include "goap/domain_loader.h"

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

}  // namespace

void DomainLoader::resolveCondition(Condition& c) {
  if (c.kind == ConditionKind::kFact) {
    c.field = d_->fact(c.fact).field;
    c.min = d_->fact(c.fact).min;
  }
  c.text = conditionText(c);
}

std::string DomainLoader::conditionText(const Condition& c) const {
  auto ref = [&](LocationRef r) {
    return r.kind == RefKind::kObject ? std::string("$object") : d_->targets_[idx(r.target)];
  };
  switch (c.kind) {
    case ConditionKind::kFact:
      return d_->fact(c.fact).name + " " + toString(c.op) + " " + d_->formatValue(c.fact, c.value);
    case ConditionKind::kDistance:
      return "distance_to(" + ref(c.ref) + ") " + toString(c.op) + " " + number(c.metres);
    case ConditionKind::kAt: return "at(" + ref(c.ref) + ")";
    case ConditionKind::kBlackboard:
      return std::string(c.scope == BlackboardScope::kGroup ? "group." : "blackboard.") +
             library_.blackboard().name(c.key) + " " + toString(c.op) + " " + number(c.number);
  }
  return "?";
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
      if (c.kind == ConditionKind::kFact) {
        a.reads.add(c.fact);
        if (c.op == CompareOp::kEq) {
          if (!a.eq.add(c.field, static_cast<uint32_t>(c.value - c.min)))
            err(action_paths_[ai], "action \"" + a.name + "\": contradictory conditions on \"" +
                                       d_->fact(c.fact).name + "\"");
          continue;
        }
        a.rest.push_back(static_cast<uint16_t>(i));
      } else if (c.readsLocation()) {
        a.reads_location = true;
        if (c.ref.kind == RefKind::kTarget) a.targets_used |= uint8_t(1u << idx(c.ref.target));
        a.rest.push_back(static_cast<uint16_t>(i));
      } else {
        a.has_context = true;
      }
    }
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
        // applicability depends on the fact, so actions changing the fact are relevant.
        a.has_add = true;
        a.reads.add(e.fact);
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
  for (GoalDef& g : d_->goals_) {
    for (auto* list : {&g.desired, &g.relevant})
      for (size_t i = 0; i < list->size(); ++i) {
        (*list)[i].declared = static_cast<uint16_t>(i);
        resolveCondition((*list)[i]);
      }
    for (size_t i = 0; i < g.desired.size(); ++i) {
      const Condition& c = g.desired[i];
      g.reads.add(c.fact);
      if (c.op == CompareOp::kEq && g.eq.add(c.field, static_cast<uint32_t>(c.value - c.min)))
        continue;
      if (c.op == CompareOp::kEq) {
        err("/goals", "goal \"" + g.name + "\": contradictory desired values for \"" +
                          d_->fact(c.fact).name + "\"");
        continue;
      }
      g.rest.push_back(static_cast<uint16_t>(i));
    }
  }
}

}  // namespace npc::goap
