// `npcd replay SNAPSHOT JOURNAL [--config FILE] [--agent ID] [--quiet]`: re-runs the ticks
// a journal recorded after a snapshot, offline, in this process, with the definitions the
// config names (those the daemon ran with: the snapshot's definitions hash must match).
// Prints one line per tick with the state checksum and output hash, and whether they equal
// the live run's; with --agent, what that agent emitted each tick (actions, behavior
// changes, intention events): the tool for "why did this NPC do that an hour ago".
// Exit 0 when every tick matched, 1 when one differed, 2 on an error (named).
#pragma once

#include <string>
#include <vector>

namespace npc {

struct ReplayCommandResult {
  int exit_code = 0;
  std::string out;
  std::string err;
};

ReplayCommandResult replayCommandMain(const std::vector<std::string>& args);

}  // namespace npc
