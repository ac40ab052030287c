// PlaceHandoff: one place's agents as they move between cluster nodes (proto/npc/state/v1/
// place.proto, server/cluster/README.md "Handoff"). The holder of a place cuts its part out
// of a whole-state capture (sim_state_codec.h) and writes it to Redis under the place's
// lease; the next holder adopts it into its own running simulation, between two ticks.
//
// Adopting is a restore into a simulation that runs on: the two nodes' clocks, name tables
// and client ids differ, so the handoff carries names, not the writer's indices, and the
// reader moves every time in it onto its own clock. What comes back is what a daemon
// restarting from a snapshot gets (state/README.md "What a restore brings back"): memory,
// variables, inventories, plans' memory, long actions and the place's sleep clock; trees
// start again at their roots, agents plan afresh, and an intention that was running is
// reported INTERRUPTED (the game's reply to it went to the node that gave the place up).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "npc/state/v1/place.pb.h"
#include "sim/client_directory.h"
#include "npc/state/v1/snapshot.pb.h"
#include "world/ids.h"

namespace npc {

class Simulation;
namespace pb = ::npc::state::v1;

inline constexpr uint32_t kPlaceHandoffVersion = 1;

// A place to cut out of a capture, and the lease it is written under.
struct PlaceToHand {
  PlaceIndex index = PlaceIndex::kNone;
  std::string name;
  uint64_t epoch = 0;
  std::string arrivals_after;  // PlaceHandoff.arrivals_after
};

// Who writes the handoffs: the definitions they belong to and the writing node.
struct HandoffSource {
  std::string definitions_hash;
  std::string node;
};

// Cuts each place's part out of `whole` (a capture, buildSimState), whose agents it moves
// out: `out[i]` is places[i]'s handoff. `sim_time_s`: the capture's clock.
void splitPlaces(pb::SimState& whole, std::span<const PlaceToHand> places, double sim_time_s,
                 const HandoffSource& source, std::vector<pb::PlaceHandoff>& out);

// The writer's client ids are its own: one of a configured identity maps to that client's
// id here, any other client to the daemon (any client may then drive what it owns);
// kDaemon and kUnowned stay. For owners in a handoff and origins in a place's inputs.
class WriterClients {
 public:
  WriterClients(const google::protobuf::RepeatedPtrField<pb::ClientBindingState>& bindings,
                const ClientDirectory& here);
  ClientId operator()(ClientId writer) const;

 private:
  std::unordered_map<uint32_t, ClientId> ids_;
};

struct PlaceAdoption {
  size_t awake = 0;           // agents adopted awake
  size_t asleep = 0;          // sleepers adopted
  size_t skipped = 0;         // records whose id is an entity here already (kept as it is)
  double clock_shift_s = 0.0; // added to every time of the handoff
};

// Tick thread, between ticks: the place's agents here are replaced by the handoff's. False
// with `error` when it is not for these definitions or this world, or a record cannot be
// restored (an archetype unknown here, a malformed sleeper): the place then has no agents
// here at all, so the caller can start it afresh.
bool adoptPlace(const pb::PlaceHandoff& handoff, std::string_view definitions_hash,
                Simulation& sim, PlaceAdoption& report, std::string& error);

// Tick thread, between ticks: npcs that walked into the handoff's place from a place held by
// another node join it (the place woken if it slept); the place's own agents stay. An id
// already here is kept as it is (report.skipped). False with `error`, adding nothing, as
// adoptPlace() refuses.
bool adoptArrivals(const pb::PlaceHandoff& arrivals, std::string_view definitions_hash,
                   Simulation& sim, PlaceAdoption& report, std::string& error);

}  // namespace npc
