// NpcCourier: carries npcs across place borders between cluster nodes. When the game walks
// an npc from a place held here into a place held by another node, this node appends the
// npc's state (an encoded PlaceHandoff of it, state/place_handoff.h) to the destination
// place's arrivals stream in Redis (PlaceLeaseStore::appendArrivals); whoever holds that
// place reads its stream and adopts the npc. Redis keeps the entry, so a destination that
// nobody holds, or whose holder dies before adopting, loses nothing: its next holder reads
// the stream after the last entry the place's snapshot had adopted.
//
// It also carries the held places' inputs to their input streams (PlaceLeaseStore::
// appendInput, fenced by the place's lease): what a tick applied for a place, so that the
// place's next holder after a crash can apply it again (server/cluster/README.md "Inputs
// after a crash").
//
// A thread of its own, with its own connection: woken by what is queued, it sends npcs
// and inputs at once (what Redis did not take stays queued and is tried again a poll
// later), and every `poll` interval it reads the watched places' streams after their
// cursors. Each of these is one round trip however many places it concerns (up to
// kMaxArrivalsPerAppend / kMaxInputsPerAppend entries per append). The tick thread queues
// and collects.
//
// Thread: send/record/takeDelivered/watch/unwatch/takeArrivals on the tick thread; flush
// and stats from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster/cluster_config.h"
#include "cluster/place_lease_store.h"
#include "world/ids.h"

namespace npc {

// For `place`'s arrivals stream: npcs leaving for it (`field` kArrivalNpcs, `bytes` their
// PlaceHandoff, `ids` reported delivered once Redis has them), or a sound made here that
// reaches it (kArrivalCommand, an encoded JournalCommand).
struct OutgoingNpcs {
  std::string place;
  std::string bytes;
  std::vector<EntityId> ids;
  std::string field = std::string(kArrivalNpcs);
};

// An arrivals stream entry of a watched place.
struct IncomingNpcs {
  std::string place;
  std::string entry_id;
  std::string field;
  std::string bytes;
};

struct NpcCourierStats {
  uint64_t sent = 0;         // batches appended to a destination's stream
  uint64_t send_failures = 0;  // appends Redis did not take (tried again)
  uint64_t received = 0;     // entries read from watched streams
  uint64_t inputs = 0;       // place inputs appended to their streams
  uint64_t inputs_dropped = 0;  // not appended: the lease was lost, or too many queued
};

class NpcCourier {
 public:
  explicit NpcCourier(const ClusterConfig& config,
                      std::chrono::milliseconds poll = std::chrono::milliseconds(50));
  ~NpcCourier();
  NpcCourier(const NpcCourier&) = delete;
  NpcCourier& operator=(const NpcCourier&) = delete;

  // Queued in order, appended in order.
  void send(OutgoingNpcs batch);
  // At most this many arrivals go in one round trip (PlaceLeaseStore::appendArrivals): a
  // tick's npcs and sounds leaving for other places together.
  static constexpr size_t kMaxArrivalsPerAppend = 256;
  // Queued in order; at most kMaxQueuedInputs wait (Redis away), the oldest dropped beyond.
  static constexpr size_t kMaxQueuedInputs = 10000;
  // Entries appended in one round trip (PlaceLeaseStore::appendInputs): a tick's places
  // together, with Redis's reply buffer for them kept small.
  static constexpr size_t kMaxInputsPerAppend = 256;
  // Returns the entry's number: entries are numbered 1, 2, ... in the order recorded.
  uint64_t record(PlaceInputEntry entry);
  // Every entry up to `through` is settled: stored in its place's stream, or not — those are
  // added to `lost` (the lease was lost, or the queue overflowed) since the last call.
  void takeSettled(uint64_t& through, std::vector<uint64_t>& lost);
  // The ids of every batch appended since the last call: they may leave this node now.
  void takeDelivered(std::vector<EntityId>& out);
  // Reads `place`'s arrivals after the entry `after` ("" = from the start); a place watched
  // again starts over from `after`, and what was read for it before is dropped.
  void watch(const std::string& place, std::string after);
  void unwatch(const std::string& place);
  // Entries read since the last call, each place's in stream order.
  void takeArrivals(std::vector<IncomingNpcs>& out);
  // Waits until no npc or input is queued (or `timeout` passes); true when so.
  bool flush(std::chrono::milliseconds timeout);
  NpcCourierStats stats() const;

 private:
  struct Watch {
    std::string cursor;       // the last entry read
    uint64_t generation = 0;  // bumped by watch(): reads of an older watch are dropped
  };
  void run();
  // False when Redis did not take everything: what is left is tried a poll later.
  bool sendQueued(PlaceLeaseStore& store);
  // Counts one batch's answers; the batches Redis did not take go back to the queue's front.
  bool settleSent(std::vector<OutgoingNpcs>& batch, const std::vector<AppendResult>& appended);
  bool appendInputs(PlaceLeaseStore& store);
  void readWatched(PlaceLeaseStore& store);

  ClusterConfig config_;
  std::chrono::milliseconds poll_;

  mutable std::mutex mutex_;
  std::condition_variable wake_, sent_all_;
  bool running_ = true;
  std::deque<OutgoingNpcs> outgoing_;
  std::deque<PlaceInputEntry> inputs_;
  uint64_t inputs_removed_ = 0;  // entries ever taken off inputs_' front (appended or dropped)
  std::vector<uint64_t> inputs_lost_;  // numbers of entries not stored, for takeSettled
  std::chrono::milliseconds input_keep_;
  std::vector<EntityId> delivered_;
  std::map<std::string, Watch> watched_;
  std::vector<IncomingNpcs> incoming_;
  uint64_t generations_ = 0;
  NpcCourierStats stats_;
  std::thread thread_;
};

}  // namespace npc
