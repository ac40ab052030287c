#include "replay_command.h"

#include <cinttypes>
#include <cstdio>
#include <memory>

#include "command_line.h"
#include "journal_file.h"
#include "journal_replay.h"
#include "sim/simulation.h"
#include "sim/world_file.h"
#include "sim_builder.h"
#include "sim_state_codec.h"
#include "snapshot_file.h"
#include "snapshot_restore.h"

namespace npc {

namespace {

struct ReplayArgs {
  std::string snapshot;
  std::string journal;
  std::string config;
  uint64_t agent = 0;
  bool quiet = false;
};

bool parseArgs(const std::vector<std::string>& args, ReplayArgs& out, std::string& error) {
  std::vector<std::string> files;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "--config" || a == "--agent") && i + 1 >= args.size()) {
      error = a + " needs a value";
      return false;
    }
    if (a == "--config") {
      out.config = args[++i];
    } else if (a == "--agent") {
      char* end = nullptr;
      out.agent = std::strtoull(args[++i].c_str(), &end, 10);
      if (*end != '\0' || out.agent == 0) {
        error = "--agent needs an entity id, not \"" + args[i] + "\"";
        return false;
      }
    } else if (a == "--quiet") {
      out.quiet = true;
    } else if (a.starts_with("--")) {
      error = "unknown option " + a;
      return false;
    } else {
      files.push_back(a);
    }
  }
  if (files.size() != 2) {
    error = "usage: npcd replay SNAPSHOT JOURNAL [--config FILE] [--agent ID] [--quiet]";
    return false;
  }
  out.snapshot = files[0];
  out.journal = files[1];
  return true;
}

std::string hex(uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "%016" PRIx64, v);
  return text;
}

// What `agent` emitted in the tick just run.
void describeAgent(const Simulation& sim, EntityId agent, std::string& out) {
  for (const ActionOut& a : sim.output().actions) {
    if (a.agent != agent) continue;
    out += "  action " + sim.names().name(a.name) + " (intention " + std::to_string(raw(a.intention)) + ")\n";
  }
  for (const EventOut& e : sim.output().events) {
    if (e.agent != agent) continue;
    out += "  " + std::string(toString(e.kind));
    if (e.intention != IntentionId::kNone) out += " (intention " + std::to_string(raw(e.intention)) + ")";
    out += (e.text.empty() ? "" : ": " + e.text) + "\n";
  }
}

// The simulation the config describes, restored exactly from the snapshot.
bool loadStart(const ReplayArgs& a, std::unique_ptr<Simulation>& sim, JournalContents& journal,
               std::string& error) {
  CommandLine cli;
  cli.config_path = a.config;
  DaemonConfig config;
  std::vector<std::string> errors;
  WorldFile world;
  if (!resolveConfig(cli, config, errors) || !buildSimulation(config, sim, world, errors)) {
    error = errors.empty() ? "the config does not load" : errors.front();
    return false;
  }
  const std::string hash = configDefinitionsHash(config);
  pb::SnapshotHeader header;
  pb::SimState state;
  if (const Status s = readSnapshotFile(a.snapshot, hash, header, state); !s.isOk()) {
    error = s.message();
    return false;
  }
  if (const Status s = readJournalFile(a.journal, journal); !s.isOk()) {
    error = s.message();
    return false;
  }
  if (journal.header.after_tick() != header.tick()) {
    error = a.journal + ": follows the snapshot of tick " + std::to_string(journal.header.after_tick()) +
            ", " + a.snapshot + " is of tick " + std::to_string(header.tick());
    return false;
  }
  if (!restoreSimState(state, *sim, error, RestoreMode::kExact)) {
    error = a.snapshot + ": " + error;
    return false;
  }
  return true;
}

}  // namespace

ReplayCommandResult replayCommandMain(const std::vector<std::string>& args) {
  ReplayCommandResult r;
  ReplayArgs a;
  std::string error;
  std::unique_ptr<Simulation> sim;
  JournalContents journal;
  if (!parseArgs(args, a, error) || !loadStart(a, sim, journal, error)) {
    r.err = "npcd replay: " + error + "\n";
    r.exit_code = 2;
    return r;
  }
  uint64_t differed = 0;
  for (const pb::JournalTick& record : journal.ticks) {
    ReplayedTick t;
    if (const Status s = replayTick(*sim, record, t); !s.isOk()) {
      r.err += "npcd replay: " + a.journal + ": " + s.message() + "\n";
      r.exit_code = 2;
      return r;
    }
    if (!t.matches) ++differed;
    if (!a.quiet || !t.matches) {
      r.out += "tick " + std::to_string(t.tick) + " state " + hex(t.state_checksum) + " output " +
               hex(t.output_hash) + (t.matches ? " ok" : " DIFFERS (live: state " +
                                                            hex(record.state_checksum()) + " output " +
                                                            hex(record.output_hash()) + ")") +
               "\n";
    }
    if (a.agent != 0) describeAgent(*sim, EntityId{a.agent}, r.out);
  }
  r.out += "replayed " + std::to_string(journal.ticks.size()) + " ticks from tick " +
           std::to_string(journal.header.after_tick()) + ": " +
           (differed == 0 ? "every tick matches the live run"
                          : std::to_string(differed) + " differ from the live run") +
           "\n";
  if (!journal.stopped.empty()) r.out += "the journal ends early: " + journal.stopped + "\n";
  r.exit_code = differed == 0 ? 0 : 1;
  return r;
}

}  // namespace npc
