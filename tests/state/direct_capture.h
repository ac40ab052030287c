// The reference capture: the SimState messages built straight from a simulation on the
// tick thread, as captureSimState() did before it only copied (direct_capture.cpp).
#pragma once

#include "npc/state/v1/snapshot.pb.h"

namespace npc {
class Simulation;
namespace direct {

void captureSimStateDirect(Simulation& sim, ::npc::state::v1::SimState& out);

}  // namespace direct
}  // namespace npc
