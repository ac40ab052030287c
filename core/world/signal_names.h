// Signal names: the one vocabulary of signals in the daemon. Perception emits the standard
// signals, clients and behaviors send custom ones, selection trees react to them. A name is
// interned once to a SignalId (stable for the daemon's life); the tick moves ids, never
// strings. The Simulation owns the table and lends it to every subsystem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "world/name_table.h"

namespace npc {

// Interned signal name. The standard names have fixed ids; custom ones follow.
enum class SignalId : uint16_t {
  kOnEnemySeen = 0,             // a target entered the visibility list (subject, position)
  kOnLostSightOfTarget,         // visible → memory (subject, last known position)
  kOnNoTarget,                  // the attention target became none
  kOnNewAttentionTarget,        // the attention target changed (value = AttentionClass)
  kOnTargetForgotten,           // a memory target expired
  kOnSuspicious,                // coefficient crossed the suspicious threshold (investigate
                                // position = target position then; value = coefficient)
  kOnHearSound,                 // a new sound target (position; value = threat)
  kOnHearThreateningSound,      // a new or escalated sound target with threat >= threshold
  kOnBulletRain,                // a bullet impact within bullet_rain_radius_m
  kOnObjectSeen,                // a neutral target (VisibilityType::neutral) came into view
  kFirstCustom,
  kNone = 0xffff,
};
inline constexpr size_t kStandardSignalCount = static_cast<size_t>(SignalId::kFirstCustom);

class SignalNames {
 public:
  SignalNames();  // interns the standard names ("OnEnemySeen", ...) at their fixed ids

  // Id of `name`, adding it if new; kNone for an empty name or a full table.
  SignalId intern(std::string_view name);
  SignalId find(std::string_view name) const;
  // "" for kNone or an unknown id.
  const std::string& name(SignalId id) const;
  // Ids in use are 0 .. size() - 1.
  size_t size() const { return names_.size(); }

 private:
  NameTable<SignalId> names_;
};

inline constexpr uint16_t raw(SignalId id) { return static_cast<uint16_t>(id); }

}  // namespace npc
