#include "mbt/nodes/node_target.h"

#include <cstdlib>
#include <string>

#include "mbt/instance.h"
#include "mbt/load_context.h"  // equalsNoCase
#include "mbt/node.h"

namespace npc {

bool parseMbtPosition(std::string_view text, Vec3& out) {
  std::string s(text);
  const char* p = s.c_str();
  float v[3];
  for (int i = 0; i < 3; ++i) {
    char* end = nullptr;
    v[i] = std::strtof(p, &end);
    if (end == p) return false;
    p = end;
    while (*p == ' ') ++p;
    if (i < 2) {
      if (*p != ',') return false;
      ++p;
    }
  }
  while (*p == ' ') ++p;
  if (*p != '\0') return false;
  out = {v[0], v[1], v[2]};
  return true;
}

bool parseMbtNodeTarget(std::string_view text, MbtNodeTarget& out) {
  if (equalsNoCase(text, "Target")) {
    out.source = MbtNodeTarget::Source::kAttention;
  } else if (equalsNoCase(text, "RefPoint") || equalsNoCase(text, "LastOp")) {
    out.source = MbtNodeTarget::Source::kRefPoint;
  } else if (equalsNoCase(text, "Cover")) {
    out.source = MbtNodeTarget::Source::kCover;
  } else if (equalsNoCase(text, "InitialPosition") || equalsNoCase(text, "Home")) {
    out.source = MbtNodeTarget::Source::kHome;
  } else if (text.size() > 7 && equalsNoCase(text.substr(0, 7), "entity:")) {
    char* end = nullptr;
    const std::string id(text.substr(7));
    const unsigned long long value = std::strtoull(id.c_str(), &end, 10);
    if (end == id.c_str() || *end != '\0' || value == 0) return false;
    out.source = MbtNodeTarget::Source::kEntity;
    out.entity = static_cast<EntityId>(value);
  } else if (parseMbtPosition(text, out.position)) {
    out.source = MbtNodeTarget::Source::kPosition;
  } else {
    return false;
  }
  return true;
}

bool resolveMbtNodeTarget(const MbtNodeTarget& target, MbtContext& ctx, MbtActionParam& param, const char*& why) {
  const MbtAgentView& view = ctx.host.agent();
  switch (target.source) {
    case MbtNodeTarget::Source::kAttention:
      if (view.target_class == MbtTargetClass::kNone) {
        why = "has no attention target";
        return false;
      }
      param.type = view.target == EntityId::kNone ? MbtActionParam::Type::kPosition
                                                  : MbtActionParam::Type::kEntity;
      param.entity = view.target;
      param.position = view.target_position;
      return true;
    case MbtNodeTarget::Source::kRefPoint:
    case MbtNodeTarget::Source::kCover: {
      const MbtRegister reg = target.source == MbtNodeTarget::Source::kCover ? MbtRegister::kCover
                                                                      : MbtRegister::kRefPoint;
      if (!ctx.instance.getRegister(reg, param.position)) {
        why = reg == MbtRegister::kCover ? "has no cover (run a QueryTPS register=\"Cover\" first)"
                                         : "has no RefPoint (run a QueryTPS first)";
        return false;
      }
      param.type = MbtActionParam::Type::kPosition;
      return true;
    }
    case MbtNodeTarget::Source::kHome:
      param.type = MbtActionParam::Type::kPosition;
      param.position = view.home;
      return true;
    case MbtNodeTarget::Source::kEntity:
      param.type = MbtActionParam::Type::kEntity;
      param.entity = target.entity;
      return true;
    case MbtNodeTarget::Source::kPosition:
      param.type = MbtActionParam::Type::kPosition;
      param.position = target.position;
      return true;
  }
  return false;
}

}  // namespace npc
