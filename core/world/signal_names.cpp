#include "world/signal_names.h"

#include <array>
#include <cassert>

namespace npc {

namespace {

constexpr std::array<std::string_view, kStandardSignalCount> kStandardNames = {
    "OnEnemySeen",  "OnLostSightOfTarget", "OnNoTarget",
    "OnNewAttentionTarget", "OnTargetForgotten", "OnSuspicious",
    "OnHearSound",  "OnHearThreateningSound", "OnBulletRain", "OnObjectSeen"};

}  // namespace

SignalNames::SignalNames() {
  for (size_t i = 0; i < kStandardNames.size(); ++i) {
    [[maybe_unused]] const uint16_t id = names_.intern(kStandardNames[i]);
    assert(id == i);
  }
}

SignalId SignalNames::intern(std::string_view name) {
  if (name.empty()) return SignalId::kNone;
  const uint16_t id = names_.intern(name);
  return id == NameTable::kNone ? SignalId::kNone : static_cast<SignalId>(id);
}

SignalId SignalNames::find(std::string_view name) const {
  const uint16_t id = names_.find(name);
  return id == NameTable::kNone ? SignalId::kNone : static_cast<SignalId>(id);
}

const std::string& SignalNames::name(SignalId id) const {
  return names_.name(static_cast<uint16_t>(id));
}

}  // namespace npc
