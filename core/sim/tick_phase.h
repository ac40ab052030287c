// TickPhase: the named steps of one tick (ARCHITECTURE.md "One tick"), as the profile and
// the watchdog report them. `kEmit` is measured by whoever publishes the tick's output
// (the server), the others by Simulation::tick.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace npc {

enum class TickPhase : uint8_t {
  kIngest,      // commands applied
  kPlaces,      // hibernation sweep, spatial index refresh
  kPerception,  // sight, hearing, signals, stealth meter
  kSelection,   // selection trees pick behaviors
  kBehavior,    // behavior trees and built-in behaviors program intentions
  kPlanning,    // GOAP planners
  kScheduling,  // intentions start, run, time out
  kEmit,        // output handed to clients (server side)
};

inline constexpr size_t kTickPhaseCount = 8;

inline constexpr std::array<TickPhase, kTickPhaseCount> kTickPhases{
    TickPhase::kIngest,   TickPhase::kPlaces,   TickPhase::kPerception, TickPhase::kSelection,
    TickPhase::kBehavior, TickPhase::kPlanning, TickPhase::kScheduling, TickPhase::kEmit};

// Lower-case name used in logs, metrics labels and GetStats ("perception").
std::string_view tickPhaseName(TickPhase phase);

inline constexpr size_t index(TickPhase phase) { return static_cast<size_t>(phase); }

}  // namespace npc
