#include "intent/action_registry.h"

#include <algorithm>

namespace npc {

namespace {
constexpr size_t kMaxIds = 0xfffe;  // 0xffff is kNone
}

ActionRegistry::ActionRegistry(NameTable<ActionNameId>& names) : names_(names) {
  param_names_.param = names_.intern("param");
  param_names_.invoker = names_.intern("invoker");
  param_names_.receiver = names_.intern("receiver");
  param_names_.group_unit = names_.intern("group");
}

ActionImplId ActionRegistry::add(std::string_view name, std::unique_ptr<ActionImpl> impl) {
  if (name.empty() || !impl || impls_.size() >= kMaxIds) return ActionImplId::kNone;
  const ActionNameId id = names_.intern(name);
  if (id == ActionNameId::kNone) return ActionImplId::kNone;
  if (flags_.size() <= raw(id)) flags_.resize(raw(id) + 1u, 0);
  uint8_t& flags = flags_[raw(id)];
  flags |= kKnownFlag;
  if (impl->traits().game_only) flags |= kGameOnlyFlag;
  if (impl->traits().coercive) flags |= kCoerciveFlag;
  impls_.push_back({id, std::move(impl)});
  return static_cast<ActionImplId>(impls_.size() - 1);
}

ActionListId ActionRegistry::createList(std::string_view name, bool influence, int16_t priority) {
  if (name.empty() || findList(name) != ActionListId::kNone || lists_.size() >= kMaxIds) {
    return ActionListId::kNone;
  }
  lists_.push_back({std::string(name), influence, priority, {}});
  return static_cast<ActionListId>(lists_.size() - 1);
}

ActionListId ActionRegistry::createOwnList(std::string_view name) {
  return createList(name, false, 0);
}

ActionListId ActionRegistry::createInfluence(std::string_view name, int16_t priority) {
  return createList(name, true, priority);
}

size_t ActionRegistry::implRoom() const { return kMaxIds - impls_.size(); }
size_t ActionRegistry::listRoom() const { return kMaxIds - lists_.size(); }

bool ActionRegistry::resetInfluence(ActionListId list, int16_t priority) {
  if (!isInfluence(list)) return false;
  List& l = lists_[raw(list)];
  l.entries.clear();
  l.priority = priority;
  return true;
}

Status ActionRegistry::addToList(ActionListId list, ActionImplId impl) {
  if (raw(list) >= lists_.size()) {
    return {StatusCode::kInvalidArgument,
            "action registry: unknown action list " + std::to_string(raw(list))};
  }
  if (raw(impl) >= impls_.size()) {
    return {StatusCode::kInvalidArgument,
            "action registry: unknown implementation " + std::to_string(raw(impl))};
  }
  List& l = lists_[raw(list)];
  const ActionNameId name = impls_[raw(impl)].name;
  auto it = std::lower_bound(l.entries.begin(), l.entries.end(), name,
                             [](const auto& e, ActionNameId n) { return e.first < n; });
  if (it != l.entries.end() && it->first == name) {
    return {StatusCode::kAlreadyExists, "action registry: list \"" + l.name +
                                            "\" already has an implementation of \"" +
                                            names_.name(name) + "\""};
  }
  l.entries.insert(it, {name, impl});
  return {};
}

ActionImplId ActionRegistry::addTo(ActionListId list, std::string_view name,
                                   std::unique_ptr<ActionImpl> impl) {
  const ActionImplId id = add(name, std::move(impl));
  if (id == ActionImplId::kNone || !addToList(list, id).isOk()) return ActionImplId::kNone;
  return id;
}

IntentStatus ActionRegistry::addInfluence(ActionAccess& access, ActionListId list) const {
  if (!isInfluence(list)) return IntentStatus::kNotInfluence;
  return access.addInfluence(list, lists_[raw(list)].priority);
}

ActionImplId ActionRegistry::findInList(ActionListId list, ActionNameId action) const {
  if (raw(list) >= lists_.size()) return ActionImplId::kNone;
  const auto& entries = lists_[raw(list)].entries;
  auto it = std::lower_bound(entries.begin(), entries.end(), action,
                             [](const auto& e, ActionNameId n) { return e.first < n; });
  return it != entries.end() && it->first == action ? it->second : ActionImplId::kNone;
}

ActionResolution ActionRegistry::resolve(const ActionAccess& access, ActionNameId action) const {
  if (!known(action)) return {};
  if (const ActionImplId impl = findInList(access.own(), action); impl != ActionImplId::kNone) {
    return {impl, access.own()};
  }
  for (const ActionListId list : access.influences()) {
    if (const ActionImplId impl = findInList(list, action); impl != ActionImplId::kNone) {
      return {impl, list};
    }
  }
  return {};
}

ActionListId ActionRegistry::findList(std::string_view name) const {
  for (size_t i = 0; i < lists_.size(); ++i) {
    if (lists_[i].name == name) return static_cast<ActionListId>(i);
  }
  return ActionListId::kNone;
}

const std::string& ActionRegistry::listName(ActionListId list) const {
  static const std::string kEmpty;
  return raw(list) < lists_.size() ? lists_[raw(list)].name : kEmpty;
}

bool ActionRegistry::isInfluence(ActionListId list) const {
  return raw(list) < lists_.size() && lists_[raw(list)].influence;
}

int16_t ActionRegistry::priority(ActionListId list) const {
  return raw(list) < lists_.size() ? lists_[raw(list)].priority : int16_t{0};
}

}  // namespace npc
