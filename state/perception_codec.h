// Perception codec: one agent's PerceptionState (sensors, tracks, sound targets,
// attention) to npc.state.v1.PerceptionState and back.
#pragma once

#include <string>

#include "npc/state/v1/perception.pb.h"
#include "perception/perception_state.h"

namespace npc {

namespace pb = ::npc::state::v1;

void encodePerception(const PerceptionState& s, pb::PerceptionState& out);
// Track entity handles are left null: SimStateAccess::finishRestore() finds them again.
// Lists longer than the fixed arrays keep their first entries.
void decodePerception(const pb::PerceptionState& in, PerceptionState& out);

class SimStateAccess;
struct SimStateCopy;
// Perception's daemon-wide state: tuning, registered visibility types, attribute links.
void encodePerceptionSystem(const SimStateCopy& copy, pb::PerceptionSystemState& out);
// False with `error` for a value the daemon would refuse (the same rules as the admin
// calls): nothing is changed then.
bool restorePerceptionSystem(const pb::PerceptionSystemState& in, SimStateAccess& access,
                             std::string& error);

}  // namespace npc
