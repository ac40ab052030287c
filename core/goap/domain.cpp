#include "goap/domain.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/definition_file_name.h"
#include "goap/domain_loader.h"

namespace npc::goap {

const char* toString(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return "=";
    case CompareOp::kNe: return "!=";
    case CompareOp::kLt: return "<";
    case CompareOp::kLe: return "<=";
    case CompareOp::kGt: return ">";
    case CompareOp::kGe: return ">=";
    case CompareOp::kIn: return "in";
  }
  return "?";
}

GoapDomain::GoapDomain() {
  static std::atomic<uint64_t> next{1};
  serial_ = next.fetch_add(1, std::memory_order_relaxed);
}

FactId GoapDomain::findFact(std::string_view name) const {
  for (size_t i = 0; i < facts_.size(); ++i)
    if (facts_[i].name == name) return static_cast<FactId>(i);
  return FactId::kNone;
}

bool GoapDomain::set(GoapState& s, FactId f, int32_t value) const {
  const FactDef& d = facts_[idx(f)];
  if (value < d.min || value > d.max) return false;
  writeField(s, d.field, static_cast<uint32_t>(value - d.min));
  return true;
}

bool GoapDomain::set(GoapState& s, std::string_view fact, std::string_view value) const {
  const FactId f = findFact(fact);
  if (f == FactId::kNone) return false;
  const FactDef& d = facts_[idx(f)];
  switch (d.type) {
    case FactType::kBool:
      if (value == "true") return set(s, f, 1);
      if (value == "false") return set(s, f, 0);
      return false;
    case FactType::kEnum:
      for (size_t i = 0; i < d.values.size(); ++i)
        if (d.values[i] == value) return set(s, f, static_cast<int32_t>(i));
      return false;
    case FactType::kInt:
    case FactType::kLocation: {
      int32_t v = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || p != value.data() + value.size()) return false;
      return set(s, f, v);
    }
  }
  return false;
}

std::string GoapDomain::formatValue(FactId f, int32_t value) const {
  const FactDef& d = facts_[idx(f)];
  switch (d.type) {
    case FactType::kBool: return value ? "true" : "false";
    case FactType::kEnum:
      return value >= 0 && value < static_cast<int32_t>(d.values.size()) ? d.values[value]
                                                                           : std::to_string(value);
    case FactType::kLocation: return "#" + std::to_string(value);
    case FactType::kInt: return std::to_string(value);
  }
  return std::to_string(value);
}

std::string GoapDomain::formatState(const GoapState& s) const {
  std::string out;
  for (size_t i = 0; i < facts_.size(); ++i) {
    if (!out.empty()) out += ' ';
    out += facts_[i].name;
    out += '=';
    out += formatValue(static_cast<FactId>(i), get(s, static_cast<FactId>(i)));
  }
  return out;
}

TargetIndex GoapDomain::findTarget(std::string_view name) const {
  for (size_t i = 0; i < targets_.size(); ++i)
    if (targets_[i] == name) return static_cast<TargetIndex>(i);
  return TargetIndex::kNone;
}

ActionId GoapDomain::findAction(std::string_view name) const {
  for (size_t i = 0; i < actions_.size(); ++i)
    if (actions_[i].name == name) return static_cast<ActionId>(i);
  return ActionId::kNone;
}

GoalId GoapDomain::findGoal(std::string_view name) const {
  for (size_t i = 0; i < goals_.size(); ++i)
    if (goals_[i].name == name) return static_cast<GoalId>(i);
  return GoalId::kNone;
}

BucketId GoapDomain::findBucket(std::string_view name) const {
  for (size_t i = 0; i < buckets_.size(); ++i)
    if (buckets_[i].name == name) return static_cast<BucketId>(i);
  return BucketId::kNone;
}

SmartObjectTypeId GoapDomain::findSmartObjectType(std::string_view species) const {
  for (size_t i = 0; i < object_types_.size(); ++i)
    if (object_types_[i].species == species) return static_cast<SmartObjectTypeId>(i);
  return SmartObjectTypeId::kNone;
}

void GoapDomain::reorderConditions(ActionId action, std::span<const uint16_t> order) {
  ActionDef& a = actions_[idx(action)];
  if (order.size() != a.conditions.size()) return;
  std::vector<Condition> next;
  next.reserve(order.size());
  std::vector<bool> seen(order.size(), false);
  for (uint16_t i : order) {
    if (i >= a.conditions.size() || seen[i]) return;  // not a permutation: keep the order
    seen[i] = true;
    next.push_back(a.conditions[i]);
  }
  // The fast path (eq / rest) indexes conditions; rebuild `rest` for the new positions.
  a.conditions = std::move(next);
  a.rest.clear();
  for (size_t i = 0; i < a.conditions.size(); ++i) {
    const Condition& c = a.conditions[i];
    const bool in_mask = c.kind == ConditionKind::kFact && c.op == CompareOp::kEq;
    const bool variant = c.kind == ConditionKind::kAny;  // checked by ActionVariant
    if (!in_mask && !variant && c.readsPlannedState()) a.rest.push_back(static_cast<uint16_t>(i));
  }
}

std::string GoapLoadReport::text() const {
  std::string out;
  for (const auto& e : errors) {
    if (!out.empty()) out += '\n';
    out += e;
  }
  return out;
}

GoapLoadReport GoapLibrary::loadDirectory(const std::string& dir) {
  GoapLoadReport report;
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      paths.push_back(entry.path().string());
  }
  if (ec) {
    report.errors.push_back(dir + ": cannot list directory: " + ec.message());
    return report;
  }
  std::sort(paths.begin(), paths.end());
  std::vector<GoapSourceFile> files;
  for (const auto& p : paths) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
      report.errors.push_back(p + ": cannot open file");
      continue;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    files.push_back({definitionFileName(dir, p), buffer.str()});
  }
  if (!report.ok()) return report;
  return loadFiles(files);
}

GoapLoadReport GoapLibrary::loadFiles(std::span<const GoapSourceFile> files) {
  GoapLoadReport report;
  std::vector<std::unique_ptr<GoapDomain>> loaded;
  for (const GoapSourceFile& f : files) {
    auto domain = std::make_unique<GoapDomain>();
    DomainLoader loader(*this, f.path);
    if (!loader.load(f.text, *domain)) {
      for (auto& e : loader.errors()) report.errors.push_back(e);
      continue;
    }
    const bool dup = find(domain->name()) != nullptr ||
                     std::any_of(loaded.begin(), loaded.end(),
                                 [&](const auto& d) { return d->name() == domain->name(); });
    if (dup) {
      report.errors.push_back(f.path + ": /domain: domain \"" + domain->name() +
                              "\" is already loaded");
      continue;
    }
    loaded.push_back(std::move(domain));
  }
  if (!report.ok()) return report;
  for (auto& d : loaded) {
    report.loaded.push_back(d->name());
    domains_.push_back(std::move(d));
  }
  return report;
}

const GoapDomain* GoapLibrary::reusableDomain(std::string_view name,
                                              std::string_view source) const {
  const GoapDomain* d = reuse_from_ ? reuse_from_->find(name) : nullptr;
  return d && d->pattern_databases_ && d->source_ == source ? d : nullptr;
}

const GoapDomain* GoapLibrary::find(std::string_view name) const {
  for (const auto& d : domains_)
    if (d->name() == name) return d.get();
  return nullptr;
}

GoapDomain* GoapLibrary::findMutable(std::string_view name) {
  for (auto& d : domains_)
    if (d->name() == name) return d.get();
  return nullptr;
}

PacingTagId GoapLibrary::internPacingTag(std::string_view name) {
  const PacingTagId existing = findPacingTag(name);
  if (existing != PacingTagId::kNone) return existing;
  if (pacing_tags_.size() >= 0xfffe) return PacingTagId::kNone;
  pacing_tags_.emplace_back(name);
  return static_cast<PacingTagId>(pacing_tags_.size() - 1);
}

PacingTagId GoapLibrary::findPacingTag(std::string_view name) const {
  for (size_t i = 0; i < pacing_tags_.size(); ++i)
    if (pacing_tags_[i] == name) return static_cast<PacingTagId>(i);
  return PacingTagId::kNone;
}

}  // namespace npc::goap
