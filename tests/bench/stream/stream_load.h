// StreamLoad: the one client of the stream bench, the same code against npcd and against the
// echo. Each stream is a game client as the bots are (one Connect stream on its own TCP
// connection, sync API, a writer and a reader thread), but with no frame clock: the writer
// sends WorldUpdates back to back, as fast as the server's flow control lets it, so the
// figures are what the server can take, not what a game would send.
//
// A frame (one WorldUpdate) upserts the stream's NPCs and players, each moved a little, and
// reports OUTCOME_COMPLETED for every action received since the previous frame (up to the
// update's item limit), so agents keep deciding new actions as under a game that finishes
// them at once.
//
// Counters are totals since start(); the bench takes differences over its window.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "npc/v1/npc.grpc.pb.h"

namespace npc::bench {

struct LoadShape {
  size_t streams = 2;
  size_t npcs_per_stream = 500;
  size_t players_per_stream = 5;
  size_t max_items_per_update = 10000;  // npcd's default limit: results beyond it wait
  std::vector<std::string> archetypes = {"guard", "villager"};  // round-robin
};

struct LoadCounts {
  uint64_t updates_sent = 0;
  uint64_t update_bytes = 0;   // serialized size of the updates sent
  uint64_t results_sent = 0;   // action results among their items
  uint64_t messages_received = 0;
  uint64_t message_bytes = 0;  // serialized size of the messages received
  uint64_t actions_received = 0;
  uint64_t error_events = 0;
};

// The final state of one stream, after stop().
struct StreamEnd {
  grpc::Status status;
  bool welcomed = false;  // its first message carried a Welcome
  std::string first_error;  // text of the first EVENT_KIND_ERROR received, if any
};

class StreamLoad {
 public:
  // `target`: "127.0.0.1:PORT". Streams open in start().
  StreamLoad(const LoadShape& shape, const std::string& target);
  ~StreamLoad();
  StreamLoad(const StreamLoad&) = delete;
  StreamLoad& operator=(const StreamLoad&) = delete;

  void start();
  // Half-closes every stream and waits until the server has finished each one (bounded by
  // the streams' deadline).
  std::vector<StreamEnd> stop();

  // Any thread: all streams together, since start().
  LoadCounts counts() const;
  // Actions of the last message received that carried any (for an echo of the same shape).
  std::vector<v1::Action> sampleActions() const;

 private:
  struct Stream;
  void writeLoop(Stream& stream);
  void readLoop(Stream& stream);

  const LoadShape shape_;
  const std::string target_;
  std::vector<std::unique_ptr<Stream>> streams_;
  std::atomic<bool> stopping_{false};
  mutable std::mutex sample_mutex_;
  std::vector<v1::Action> sample_;  // guarded by sample_mutex_
};

}  // namespace npc::bench
