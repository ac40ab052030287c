#include "world/entity.h"

namespace npc {

std::string_view toString(EntityKind kind) {
  switch (kind) {
    case EntityKind::kNpc: return "npc";
    case EntityKind::kPlayer: return "player";
    case EntityKind::kObject: return "object";
    case EntityKind::kAttribute: return "attribute";
  }
  return "?";
}

std::optional<EntityKind> parseEntityKind(std::string_view text) {
  if (text == "npc") return EntityKind::kNpc;
  if (text == "player") return EntityKind::kPlayer;
  if (text == "object") return EntityKind::kObject;
  if (text == "attribute") return EntityKind::kAttribute;
  return std::nullopt;
}

}  // namespace npc
