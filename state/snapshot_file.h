// Snapshot files: what one snapshot looks like on disk, and writing it so that a reader
// never sees half of one.
//
// Layout: the 8 bytes "NPCSNAP\n", the header's length (4 bytes, little-endian), the
// npc.state.v1.SnapshotHeader, then the npc.state.v1.SimState body. The header carries the
// format version, the definitions hash, the tick and the body's length and CRC-32.
// Writing goes to "<path>.tmp", is fsynced, renamed over <path>, and the directory is
// fsynced: after a crash either the old file or the new one is there, whole.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "npc/state/v1/snapshot.pb.h"

namespace npc {

namespace pb = ::npc::state::v1;

// 2: sleepers as flat records with indices into the snapshot's tables (hibernation.proto).
inline constexpr uint32_t kSnapshotFormatVersion = 2;

struct SnapshotInfo {
  std::string definitions_hash;  // of the definition files loaded (definitions_hash.h)
  uint64_t world_seed = 0;
  double sim_time_s = 0.0;
};

// Serializes `state` with its header (any thread: the state is a copy).
std::string encodeSnapshot(const pb::SimState& state, const SnapshotInfo& info);
// Writes `bytes` to `path` atomically (see above).
Status writeFileAtomically(const std::string& path, const std::string& bytes);

// Reads and checks a snapshot file: every refusal names the file and says why
// ("snap.npcsnap: checksum mismatch: ..."). `definitions_hash` empty: not compared.
Status readSnapshotFile(const std::string& path, const std::string& definitions_hash,
                        pb::SnapshotHeader& header, pb::SimState& state);
// The same checks on bytes already read; `name` is the file named in errors.
Status decodeSnapshot(const std::string& name, const std::string& bytes,
                      const std::string& definitions_hash, pb::SnapshotHeader& header,
                      pb::SimState& state);

}  // namespace npc
