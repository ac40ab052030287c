#include "journal_replay.h"

#include <vector>

#include "journal_codec.h"
#include "sim/simulation.h"
#include "state_checksum.h"

namespace npc {

Status replayTick(Simulation& sim, const pb::JournalTick& record, ReplayedTick& out) {
  if (record.tick() != sim.tickCount() + 1) {
    return {StatusCode::kFailedPrecondition,
            "journal record of tick " + std::to_string(record.tick()) + ", the simulation is at tick " +
                std::to_string(sim.tickCount())};
  }
  std::vector<Command> commands(static_cast<size_t>(record.commands_size()));
  for (int i = 0; i < record.commands_size(); ++i) {
    std::string error;
    if (!decodeCommand(record.commands(i), commands[static_cast<size_t>(i)], error)) {
      return {StatusCode::kInvalidArgument, "tick " + std::to_string(record.tick()) + ", command " +
                                                std::to_string(i) + ": " + error};
    }
  }
  if (!sim.submit(commands)) {
    return {StatusCode::kResourceExhausted,
            "tick " + std::to_string(record.tick()) + ": the command queue is full"};
  }
  sim.tick();
  out.tick = sim.tickCount();
  out.state_checksum = stateChecksum(sim);
  out.output_hash = hashTickOutput(sim.output(), sim.names());
  out.matches = out.state_checksum == record.state_checksum() && out.output_hash == record.output_hash();
  return {};
}

}  // namespace npc
