#include "intent/action_out.h"

namespace npc {

static_assert(kMaxClientArgs == kMaxActionParams,
              "a client-side action's arguments must fit ActionOut::params");

ActionParam toActionParam(const ActionArg& arg, const ClientParamNames& names) {
  ActionParam p;
  if (arg.name != ActionNameId::kNone) {
    p.name = arg.name;
  } else {
    switch (arg.role) {
      case ArgRole::kParam: p.name = names.param; break;
      case ArgRole::kInvoker: p.name = names.invoker; break;
      case ArgRole::kReceiver: p.name = names.receiver; break;
    }
  }
  p.unit = ActionNameId::kNone;
  p.text = ActionNameId::kNone;
  switch (arg.type) {
    case ArgType::kEntity:
      p.type = ActionParam::Type::kEntity;
      p.entity = arg.entity;
      break;
    case ArgType::kValue:
      p.type = ActionParam::Type::kNumber;
      p.number = arg.value;
      p.unit = arg.unit;
      break;
    case ArgType::kPosition:
      p.type = ActionParam::Type::kPosition;
      p.position = arg.position();
      break;
    case ArgType::kEntityType:
    case ArgType::kMessage:
      p.type = ActionParam::Type::kText;
      p.text = arg.text();
      break;
    case ArgType::kGroup:
      p.type = ActionParam::Type::kNumber;
      p.number = static_cast<double>(arg.group);
      p.unit = names.group_unit;
      break;
  }
  return p;
}

void toActionOut(const ClientActionStart& start, const ClientParamNames& names, ActionOut& out) {
  out.owner = start.owner;
  out.place = start.place;
  out.agent = start.agent;
  out.intention = start.intention;
  out.name = start.action;
  out.param_count = start.arg_count;
  for (uint8_t i = 0; i < start.arg_count; ++i) out.params[i] = toActionParam(start.args[i], names);
}

}  // namespace npc
