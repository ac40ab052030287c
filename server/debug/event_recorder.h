// EventRecorder: the recent history of what agents did, for the debug page's recorder (the
// seed's "AI recorder"). The tick thread copies each tick's events (behavior changes,
// intentions started / completed / failed / interrupted, places waking and sleeping,
// errors) and the client-side actions it emitted into a ring of the last `capacity` entries;
// HTTP threads read it. One mutex guards the ring.
//
// Only a daemon with debug_listen set records: the copy costs a string per event, which the
// tick's zero-allocation rule does not allow on the plain path.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "world/ids.h"

namespace npc {

class Simulation;

struct RecordedEvent {
  uint64_t seq = 0;  // 1, 2, ... in recording order; clients ask for entries after one
  uint64_t tick = 0;
  double time_s = 0.0;  // simulated time
  std::string kind;     // EventKind name, or "action" for an emitted client-side action
  EntityId agent = EntityId::kNone;
  EntityId subject = EntityId::kNone;
  IntentionId intention = IntentionId::kNone;
  std::string place;
  float value = 0.f;
  std::string text;
};

class EventRecorder {
 public:
  explicit EventRecorder(size_t capacity = 8192) : capacity_(capacity) {}

  // Tick thread, after every tick: records sim.output().
  void record(const Simulation& sim);

  // Any thread: entries with seq > after, oldest first, of `agent` (kNone: all agents) or
  // of `place` ("" = any), at most `limit` (the newest ones when more matched). JSON:
  // {"events": [...], "last_seq": N, "oldest_seq": seq of the oldest entry kept}.
  nlohmann::json query(uint64_t after, EntityId agent, const std::string& place, size_t limit) const;

 private:
  void push(RecordedEvent event);  // caller holds mutex_

  size_t capacity_;
  mutable std::mutex mutex_;
  std::vector<RecordedEvent> ring_;  // guarded by mutex_; ring_[seq % capacity_]
  uint64_t last_seq_ = 0;            // guarded by mutex_
};

}  // namespace npc
