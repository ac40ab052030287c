// Journal codec: a Command (core/sim/commands.h) to npc.state.v1.JournalCommand and back,
// for the input journal (journal.proto). Replies are not kept; queries that change nothing
// are not journaled.
#pragma once

#include <string>

#include "npc/state/v1/journal.pb.h"
#include "sim/commands.h"

namespace npc {

namespace pb = ::npc::state::v1;

// False (and `out` untouched) for a command that changes nothing: DescribeAgent, GetStealth,
// DescribeWorld, GetPlanTrace that leaves tracing as it is.
bool encodeCommand(const Command& command, pb::JournalCommand& out);
// False with `error` naming what is wrong (no body, a value out of its type's range).
bool decodeCommand(const pb::JournalCommand& in, Command& out, std::string& error);

}  // namespace npc
