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
    [[maybe_unused]] const SignalId id = names_.intern(kStandardNames[i]);
    assert(raw(id) == i);
  }
}

SignalId SignalNames::intern(std::string_view name) {
  if (name.empty()) return SignalId::kNone;
  return names_.intern(name);
}

SignalId SignalNames::find(std::string_view name) const {
  return names_.find(name);
}

const std::string& SignalNames::name(SignalId id) const {
  return names_.name(id);
}

}  // namespace npc
