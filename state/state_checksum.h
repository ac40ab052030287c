// A checksum of the simulation's state after a tick (GetStats state_checksum): two runs
// from the same seed, snapshot and inputs show the same value tick for tick, and a restore
// shows the value of the state it restored. It covers what a snapshot restores (sim/
// sim_state_access.h): the tick, every awake agent's body, random stream, selection state,
// inventory, long action, perception tracks and attention, and every sleeper; not the
// intention queues or running tree nodes.
//
// Tick thread, between ticks. O(agents), no allocation: word-wise mixing, about 0.1 ms for
// 10,000 agents.
#pragma once

#include <cstdint>

namespace npc {

class Simulation;

uint64_t stateChecksum(Simulation& sim);

}  // namespace npc
