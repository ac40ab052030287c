#include "intent/intent_debug.h"

#include <cmath>

namespace npc {

namespace {

nlohmann::json nameOrNull(const NameTable<ActionNameId>& names, ActionNameId name) {
  return name == ActionNameId::kNone ? nlohmann::json(nullptr) : nlohmann::json(names.name(name));
}

}  // namespace

nlohmann::json describe(const ActionArg& arg, const NameTable<ActionNameId>& names) {
  nlohmann::json j;
  j["type"] = toString(arg.type);
  j["role"] = toString(arg.role);
  if (arg.name != ActionNameId::kNone) j["name"] = names.name(arg.name);
  switch (arg.type) {
    case ArgType::kEntity: j["entity"] = raw(arg.entity); break;
    case ArgType::kValue:
      j["value"] = arg.value;
      j["unit"] = nameOrNull(names, arg.unit);
      break;
    case ArgType::kPosition:
      j["position"] = {arg.xyz.x, arg.xyz.y, arg.xyz.z};
      j["place"] = arg.place == PlaceIndex::kNone ? nlohmann::json(nullptr)
                                                  : nlohmann::json(raw(arg.place));
      break;
    case ArgType::kEntityType:
    case ArgType::kMessage: j["text"] = names.name(arg.text()); break;
    case ArgType::kGroup: j["group"] = arg.group; break;
  }
  return j;
}

nlohmann::json describe(const Intention& in, const ActionRegistry& registry, double now_s) {
  const NameTable<ActionNameId>& names = registry.names();
  nlohmann::json j;
  j["id"] = raw(in.id);
  j["action"] = names.name(in.action);
  j["phase"] = toString(in.phase);
  j["date_s"] = in.date_s;
  j["started_s"] = in.started() ? nlohmann::json(in.started_s) : nlohmann::json(nullptr);
  j["progress"] = in.progress;
  j["timeout_in_s"] = std::isfinite(in.deadline_s) && in.started()
                          ? nlohmann::json(in.deadline_s - now_s)
                          : nlohmann::json(nullptr);
  j["game"] = in.gameScheduled();
  j["coercive"] = in.coercive();
  if (in.impl != ActionImplId::kNone) {
    j["side"] = toString(registry.impl(in.impl).traits().side);
    j["source"] = registry.listName(in.source);
  }
  nlohmann::json args = nlohmann::json::array();
  for (const ActionArg& a : in.args()) args.push_back(describe(a, names));
  j["args"] = std::move(args);
  return j;
}

nlohmann::json describe(const IntentionQueue& queue, const ActionRegistry& registry,
                        double now_s) {
  nlohmann::json j;
  const Intention* cur = queue.current();
  j["current"] = cur ? nlohmann::json(raw(cur->id)) : nlohmann::json(nullptr);
  j["size"] = queue.size();
  j["capacity"] = IntentionQueue::kCapacity;
  j["overflow"] = queue.overflow();
  j["busy_until_s"] = queue.busyUntil();
  nlohmann::json list = nlohmann::json::array();
  for (uint8_t i = 0; i < queue.size(); ++i) {
    nlohmann::json in = describe(queue.at(i), registry, now_s);
    const Intention* prerequisite = queue.prerequisiteOf(queue.at(i));
    in["depends_on"] = prerequisite ? nlohmann::json(raw(prerequisite->id)) : nlohmann::json(nullptr);
    list.push_back(std::move(in));
  }
  j["intentions"] = std::move(list);
  return j;
}

nlohmann::json describe(const ActionAccess& access, const ActionRegistry& registry) {
  nlohmann::json j;
  j["own"] = access.own() == ActionListId::kNone ? nlohmann::json(nullptr)
                                                 : nlohmann::json(registry.listName(access.own()));
  nlohmann::json list = nlohmann::json::array();
  for (const ActionListId id : access.influences()) {
    list.push_back({{"name", registry.listName(id)}, {"priority", registry.priority(id)}});
  }
  j["influences"] = std::move(list);
  j["refused"] = access.refused();
  return j;
}

nlohmann::json describe(const IntentAgentState& state, const ActionRegistry& registry,
                        double now_s) {
  return {{"actions", describe(state.access, registry)},
          {"queue", describe(state.queue, registry, now_s)}};
}

}  // namespace npc
