// ClusterNode: the daemon's side of a cluster. Its LeaseKeeper holds place leases in Redis;
// between ticks the node turns what changed into HoldPlace commands (a place acquired is
// held at its lease's epoch; a place lost is released and its agents unloaded) and says
// which places' output must not reach clients because their lease ran out while the tick
// ran.
//
// Handoff: a place comes with its last snapshot (LeaseChange::snapshot). Once the tick
// after the grant has applied the hold, the node adopts the snapshot's agents
// (state/place_handoff.h); a place never written, or whose snapshot is of other
// definitions, gets the world file's npcs instead. Every snapshot_interval_s, and once more
// when it drains, the node writes the places it holds (PlaceSnapshotWriter).
//
// Shedding (balanced): asked to give a place up for a fair share (LeaseChange::kShed), the
// node writes the place and stops sending its actions; once the write is in Redis it
// releases the place (its agents unloaded at the next tick) and the lease, and the node
// that joined claims it and adopts it from that snapshot.
//
// Npcs that walk across: one the game moves from a place held here into a place held by
// another node (Simulation::takeLeaving) goes to that place's arrivals stream through the
// NpcCourier; its actions are not sent meanwhile, and once the stream has it a HandOver
// takes it from this node. The node reads the arrivals streams of the places it holds and
// adopts who arrives; each place's snapshot says up to which entry, so a next holder reads
// on from there. Sounds made here that reach a place held elsewhere go the same way, as a
// relayed SoundEvent its holder's agents hear, and so do the game's signals sent to such a
// place or within a radius reaching one (a relayed SignalEvent).
//
// Inputs after a crash: every command a tick applies for a place held here (sim/
// command_places.h) goes to the place's input stream, one entry per tick, under the lease.
// A node that takes a place over applies again, after adopting its snapshot, the entries
// written after the snapshot, so that a node killed between two snapshots loses at most
// what had not reached Redis yet (what its last tick or two applied).
//
// Tick thread, except view() and stats().
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cluster/cluster_config.h"
#include "cluster/durable_replies.h"
#include "cluster/lease_keeper.h"
#include "cluster/npc_courier.h"
#include "cluster/place_snapshot_writer.h"
#include "npc/state/v1/place.pb.h"
#include "sim/world_file.h"

namespace npc {

class Simulation;

class ClusterNode {
 public:
  // `address`: where clients reach this node (the advertised gRPC address);
  // `definitions_hash`: the definition set its place snapshots are written with and must be
  // read with.
  ClusterNode(const ClusterConfig& config, std::string address, WorldFile world,
              std::string definitions_hash);
  ~ClusterNode();

  // Before the first tick: a simulation restored from a snapshot gives up every place (their
  // leases may be anyone's now); then the keeper starts claiming.
  void start(Simulation& sim);
  // Tick thread, after each tick and before its output is published: lease changes become
  // commands of the next tick. Returns the places whose actions this tick must not be sent,
  // and how far clients' stream updates are now stored in Redis (ClusterNews).
  ClusterNews afterTick(Simulation& sim);
  // After the last tick (the tick thread has stopped): with `drain` (SIGTERM), the places
  // held are written for their next holders, then every lease is given up.
  void stop(Simulation& sim, bool drain);
  // Tick thread: called after a place was adopted from a snapshot (the daemon then starts a
  // new local snapshot: its input journal cannot replay an adoption).
  void setOnAdopt(std::function<void()> on_adopt) { on_adopt_ = std::move(on_adopt); }

  ClusterView view() const { return keeper_.view(); }
  LeaseKeeperStats stats() const { return keeper_.stats(); }
  PlaceSnapshotStats snapshotStats() const { return writer_.stats(); }
  uint64_t adopted() const { return adopted_.load(); }
  uint64_t handedOver() const { return handed_over_.load(); }  // npcs, HandOver submitted
  uint64_t arrived() const { return arrived_.load(); }          // npcs adopted from arrivals
  uint64_t soundsRelayed() const { return sounds_relayed_.load(); }  // sent to other places
  uint64_t soundsHeard() const { return sounds_heard_.load(); }      // relayed here
  uint64_t signalsRelayed() const { return signals_relayed_.load(); }  // sent to other places
  uint64_t signalsHeard() const { return signals_heard_.load(); }      // relayed here
  uint64_t playersRelayed() const { return players_relayed_.load(); }  // to other places
  uint64_t playersVisiting() const { return players_visiting_.load(); }  // relayed here
  uint64_t inputsReplayed() const { return inputs_replayed_.load(); }  // commands applied again
  NpcCourierStats courierStats() const { return courier_.stats(); }
  const ClusterConfig& config() const { return keeper_.config(); }
  const std::string& address() const { return keeper_.address(); }

 private:
  // A grant whose snapshot is adopted once the hold at `epoch` is in force.
  // A grant waiting for its hold to be in force: its snapshot is then adopted (or, with
  // none, the world file's npcs were queued), and its arrivals stream watched.
  struct PendingAdoption {
    std::string place;
    uint64_t epoch = 0;
    pb::PlaceHandoff handoff;
    bool has_snapshot = false;
    std::vector<std::string> inputs;  // LeaseChange::inputs
  };
  void onChange(LeaseChange& change, Simulation& sim);
  void adoptPending(Simulation& sim);
  bool adoptSnapshot(const PendingAdoption& p, Simulation& sim);
  void receiveArrivals(Simulation& sim);
  void sendLeaving(Simulation& sim);
  void handOverDelivered(Simulation& sim);
  void shedPlaces(Simulation& sim);
  // Sounds and the game's signals that reach places held elsewhere, to their streams.
  void relayStimuli(Simulation& sim);
  void applyRelayed(const IncomingNpcs& in, Simulation& sim);
  // The command recorder: `command`, about to apply, joins its places' inputs of this tick,
  // and its reply waits until Redis has them (DurableReplies).
  void recordInput(uint64_t tick, Command& command, const Simulation& sim);
  // After the tick: its inputs go to their places' streams.
  void sendInputs(const Simulation& sim);
  // Answers the replies whose inputs the courier has settled.
  void answerStored(const Simulation& sim);
  // After an adoption (or a start from the world file): the place's inputs written after
  // its snapshot are queued for the next tick.
  void replayInputs(const PendingAdoption& p, Simulation& sim);
  // Hands the places held here to the writer; false when none or it is still busy.
  bool writeHeld(Simulation& sim);
  void queueWorldNpcs(const std::string& place, uint64_t epoch, Simulation& sim, const std::string& why);

  WorldFile world_;
  std::string definitions_hash_;
  LeaseKeeper keeper_;
  PlaceSnapshotWriter writer_;
  NpcCourier courier_;
  std::vector<PendingAdoption> pending_;
  // A place being given up for a fair share: written (`writing`), then released.
  struct Shedding {
    std::string place;
    uint64_t epoch = 0;
    bool writing = false;
  };
  std::vector<Shedding> shedding_;
  std::vector<PlaceWritten> written_;  // scratch
  std::map<std::string, std::string> arrivals_after_;  // held place -> last entry adopted
  std::map<EntityId, PlaceIndex> in_flight_;           // npcs leaving -> where to
  std::vector<EntityId> ids_;                          // scratch
  std::vector<IncomingNpcs> arrivals_;                 // scratch
  std::vector<std::pair<PlaceIndex, Sound>> sounds_;   // scratch
  std::vector<std::pair<PlaceIndex, SignalEvent>> signals_;  // scratch
  std::vector<std::pair<PlaceIndex, EntityState>> players_;  // scratch
  SimStateCopy leaving_copy_;
  std::vector<pb::PlaceInput> tick_inputs_;  // by place: this tick's commands for it
  std::vector<PlaceIndex> input_places_;     // the places with some, in order of the first
  pb::JournalCommand encoded_;               // scratch
  DurableReplies replies_;                   // admin answers waiting for their inputs' append
  std::vector<uint64_t> lost_inputs_;        // scratch
  std::function<void()> on_adopt_;
  std::atomic<uint64_t> adopted_{0};
  std::atomic<uint64_t> handed_over_{0};
  std::atomic<uint64_t> arrived_{0};
  std::atomic<uint64_t> sounds_relayed_{0};
  std::atomic<uint64_t> sounds_heard_{0};
  std::atomic<uint64_t> signals_relayed_{0};
  std::atomic<uint64_t> signals_heard_{0};
  std::atomic<uint64_t> players_relayed_{0};
  std::atomic<uint64_t> players_visiting_{0};
  std::atomic<uint64_t> inputs_replayed_{0};
  std::chrono::steady_clock::time_point next_write_{};
  std::vector<LeaseChange> changes_;  // scratch, capacity reused
  std::vector<PlaceIndex> fenced_;
};

}  // namespace npc
