// SleeperList: one place's sleeping agents, shareable with a snapshot capture.
//
// A world's sleepers are most of its agents (a million asleep beside ten thousand awake is
// the usual shape of a large world) and they change rarely: a place falls asleep or wakes,
// the game moves a sleeper's body, a client leaves. Copying them into every capture cost
// the tick thread a memcpy of 240 MB per million; sharing costs it one reference per place
// (SharedRows: copy on write, once per capture and changed place).
// Thread: the simulation's (tick) thread; shared rows may be read by any thread.
#pragma once

#include "base/shared_rows.h"
#include "hibernation/dormant_agent.h"

namespace npc {

using SleeperList = SharedRows<DormantAgent>;

}  // namespace npc
