#include "intent/action_args.h"

#include <type_traits>

namespace npc {

static_assert(sizeof(ActionArg) == 24, "an argument stays at 24 bytes (README: memory)");
static_assert(std::is_trivially_copyable_v<ActionArg>, "arguments are snapshotted as bytes");

std::string_view toString(ArgType type) {
  switch (type) {
    case ArgType::kEntity: return "entity";
    case ArgType::kValue: return "value";
    case ArgType::kPosition: return "position";
    case ArgType::kEntityType: return "entity_type";
    case ArgType::kMessage: return "message";
    case ArgType::kGroup: return "group";
  }
  return "?";
}

std::string_view toString(ArgRole role) {
  switch (role) {
    case ArgRole::kParam: return "param";
    case ArgRole::kInvoker: return "invoker";
    case ArgRole::kReceiver: return "receiver";
  }
  return "?";
}

ActionArg ActionArg::ofEntity(EntityId id, ArgRole role, ActionNameId name) {
  ActionArg a;
  a.type = ArgType::kEntity;
  a.role = role;
  a.name = name;
  a.entity = id;
  return a;
}

ActionArg ActionArg::ofValue(double value, ActionNameId unit, ActionNameId name) {
  ActionArg a;
  a.type = ArgType::kValue;
  a.name = name;
  a.unit = unit;
  a.value = value;
  return a;
}

ActionArg ActionArg::ofPosition(Vec3 position, PlaceIndex place, ActionNameId name) {
  ActionArg a;
  a.type = ArgType::kPosition;
  a.name = name;
  a.place = place;
  a.xyz = {position.x, position.y, position.z};
  return a;
}

ActionArg ActionArg::ofEntityType(ActionNameId type_name, ActionNameId name) {
  ActionArg a;
  a.type = ArgType::kEntityType;
  a.name = name;
  a.text_index = type_name.value;
  return a;
}

ActionArg ActionArg::ofMessage(ActionNameId message, ActionNameId name) {
  ActionArg a;
  a.type = ArgType::kMessage;
  a.name = name;
  a.text_index = message.value;
  return a;
}

ActionArg ActionArg::ofGroup(uint32_t group, ArgRole role, ActionNameId name) {
  ActionArg a;
  a.type = ArgType::kGroup;
  a.role = role;
  a.name = name;
  a.group = group;
  return a;
}

bool operator==(const ActionArg& a, const ActionArg& b) {
  if (a.type != b.type || a.role != b.role || a.name != b.name) return false;
  switch (a.type) {
    case ArgType::kEntity: return a.entity == b.entity;
    case ArgType::kValue: return a.value == b.value && a.unit == b.unit;
    case ArgType::kPosition: return a.position() == b.position() && a.place == b.place;
    case ArgType::kEntityType:
    case ArgType::kMessage: return a.text() == b.text();
    case ArgType::kGroup: return a.group == b.group;
  }
  return false;
}

const ActionArg* nthArg(std::span<const ActionArg> args, ArgRole role, unsigned n) {
  for (const ActionArg& a : args) {
    if (a.role == role && n-- == 0) return &a;
  }
  return nullptr;
}

const ActionArg* nthParam(std::span<const ActionArg> args, ArgType type, unsigned n) {
  for (const ActionArg& a : args) {
    if (a.role == ArgRole::kParam && a.type == type && n-- == 0) return &a;
  }
  return nullptr;
}

const ActionArg* namedArg(std::span<const ActionArg> args, ActionNameId name) {
  for (const ActionArg& a : args) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

unsigned countArgs(std::span<const ActionArg> args, ArgRole role) {
  unsigned n = 0;
  for (const ActionArg& a : args) n += a.role == role ? 1u : 0u;
  return n;
}

}  // namespace npc
