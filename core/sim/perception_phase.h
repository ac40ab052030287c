// PerceptionPhase: step 3 of the tick (ARCHITECTURE.md "One tick"). Footsteps of moving
// players are posted, every awake agent is a perceiver, PerceptionSystem::update delivers
// signals and sounds and runs the due full updates (on the worker pool when there is one),
// places with an attentive agent count as active, and stealth meter changes become events.
//
// Reads: the world as of this tick's spatial index (frozen: nothing moves during the phase).
// Writes: each agent's own PerceptionState, `signals` (what selection reads next), the
// places' activity and `events`. With a pool the outcome equals the one-thread outcome
// (core/perception/perception_full_updates.cpp). Thread: the tick thread calls run(); the
// pool's threads run full updates and the passes over every agent's row (listing the
// perceivers, gathering their keys, finding attentive agents' places), each worker a
// contiguous slice that writes only its own rows or its own scratch.
#pragma once

#include <span>
#include <vector>

#include "agent/agent.h"
#include "hibernation/place_dispatcher.h"
#include "perception/perception_system.h"
#include "sim/tick_output.h"
#include "world/world.h"

namespace npc {

class WorkerPool;

struct PerceptionPhaseContext {
  const World& world;
  std::span<Agent> agents;           // awake agents; their perception state is written
  std::span<const uint8_t> runs;     // by agent row: 0 = no full update this tick (empty: all)
  PerceptionSystem& perception;
  PlaceDispatcher& places;           // noteActivity for places with an attentive agent
  uint64_t tick = 0;
  double now_s = 0.0;
  bool derive_footsteps = true;      // moving players make footstep sounds
  WorkerPool* pool = nullptr;        // null or one thread: the tick thread alone
  SignalQueue& signals;              // cleared, then this tick's deliveries
  std::vector<EventOut>& events;     // kStealth events appended
};

class PerceptionPhase {
 public:
  void run(const PerceptionPhaseContext& ctx);

 private:
  // Places where an agent pays attention count as active (hibernation's quiet timer).
  void noteActivePlaces(const PerceptionPhaseContext& ctx);

  std::vector<Perceiver> perceivers_;  // tick scratch, capacity reused
  std::vector<std::vector<uint8_t>> active_;  // by worker: 1 for a place with an attentive agent
};

}  // namespace npc
