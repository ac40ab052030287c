// DurableReplies: a cluster node answers a client's command only once Redis has it. A
// command on a place held here is applied by the tick and recorded into the place's input
// stream after the tick (NpcCourier, on its own thread); a node killed in between loses it,
// and with it the place's next holder does not apply it again. So the command's reply (an
// admin RPC's answer) is held back: its entry in the input stream is numbered when the tick's
// inputs are handed to the courier, and the answer goes out once the courier has settled
// that entry — stored (the answer as the simulation gave it), or not (the lease was lost,
// or the queue overflowed: UNAVAILABLE, "not kept"). A refusal is answered at once: nothing
// of it needs keeping.
//
// Stream updates have no answer, so the node tells each client instead how far its updates
// are settled (ServerMessage.stored_seq): every update of the client up to that seq is in
// Redis, except those named not kept (an error event per client, place and run of seqs).
// Counted per tick, not per command, so a tick of ten thousand moves costs a few records.
//
// Thread: tick thread (the recorder, afterTick and stop all run there).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "sim/commands.h"
#include "world/ids.h"
#include "world/world.h"

namespace npc {

// A client's stream updates settled up to `seq` (all of them, kept or named not kept).
struct StoredUpdate {
  ClientId client = ClientId::kDaemon;
  uint64_t seq = 0;
};
// A client's stream updates `first_seq`..`last_seq` whose commands on `place` Redis did not
// store: the place was given up first. They are not kept; the game sends them to its holder.
struct UnkeptUpdates {
  ClientId client = ClientId::kDaemon;
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  std::string place;
};

// What a cluster node has to tell clients after a tick (ClusterNode::afterTick), for
// ClientHub::publish. Valid until the node's next afterTick.
struct ClusterNews {
  std::span<const PlaceIndex> fenced;     // places whose actions of the tick are not sent
  std::span<const StoredUpdate> stored;   // ServerMessage.stored_seq, per client
  std::span<const UnkeptUpdates> unkept;  // an error event each, to its client
};

class DurableReplies {
 public:
  // Wraps `command`'s reply, if it has one, so that a successful answer waits for the
  // input entries of `places` (kNone for none; at least one not kNone).
  void hold(Command& command, std::array<PlaceIndex, 2> places);
  // A client's stream command (no reply) of update `seq` (> 0), recorded into the entries of
  // `places` (kNone for none: it needs no keeping), applied this tick.
  void holdStream(ClientId client, uint64_t seq, std::array<PlaceIndex, 2> places);
  // After the tick: `place`'s inputs of it are the courier's entry `number`.
  void recorded(PlaceIndex place, uint64_t number);
  // After recorded(): the answers given this tick wait for their places' latest entries.
  void numberTick();
  // The courier settled every entry up to `through`; `lost` are those Redis did not store.
  // Answers what waited for them (a lost place named from `world`); returns how many.
  // Fills stored() and unkept() with what this call settled of the clients' streams.
  size_t settle(uint64_t through, std::span<const uint64_t> lost, const World& world);
  // Per client, the highest seq settled by the last settle() (none: nothing new).
  std::span<const StoredUpdate> stored() const { return stored_; }
  std::span<const UnkeptUpdates> unkept() const { return unkept_; }
  // Answers everything still waiting with UNAVAILABLE `why` (the node stops).
  void abandon(const std::string& why);
  size_t waiting() const { return given_.size() + numbered_.size(); }

 private:
  struct Held {
    std::array<PlaceIndex, 2> places{PlaceIndex::kNone, PlaceIndex::kNone};
    std::array<uint64_t, 2> entries{};  // the courier's numbers, 0 for none
    Status status;
    std::function<void(const Status&)> answer;  // the original reply, its other values bound
  };
  template <class... Args>
  void wrap(std::function<void(const Status&, Args...)>& reply, std::array<PlaceIndex, 2> places);

  // One tick's stream commands: per client its highest seq, and per client and place the
  // run of seqs recorded in that place's entry.
  struct StreamTick {
    struct Run {
      ClientId client;
      PlaceIndex place;
      uint64_t first_seq, last_seq, entry;
    };
    std::vector<StoredUpdate> highest;
    std::vector<Run> runs;
    uint64_t last_entry = 0;  // the tick's highest entry number (0: none)
    bool empty() const { return highest.empty(); }
    void clear() { highest.clear(), runs.clear(), last_entry = 0; }
  };
  void settleStreams(uint64_t through, const World& world);

  std::vector<uint64_t> latest_;  // by place: its last entry number
  // Ticks numbered, not settled, in order: [0, open_ticks_); the rest are spares whose
  // capacity the next ticks reuse.
  std::vector<StreamTick> stream_ticks_;
  size_t open_ticks_ = 0;
  StreamTick given_stream_;       // this tick's, not numbered yet
  std::vector<StoredUpdate> stored_;
  std::vector<UnkeptUpdates> unkept_;
  std::vector<Held> given_;       // answered this tick, entries not numbered yet
  std::deque<Held> numbered_;
  std::set<uint64_t> lost_;       // entries Redis did not store, not yet matched
};

}  // namespace npc
