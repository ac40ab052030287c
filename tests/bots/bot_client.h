// BotClient: one simulated game client — one Connect stream, driven by the synchronous gRPC
// API with two threads:
//   - the game thread runs BotGame at the scenario's rate_hz on a fixed grid (a frame that
//     finds itself more than one period late skips the missed slots and counts them as
//     late frames), writes one WorldUpdate per frame, and at stop() sends a last update
//     that removes its entities, half-closes and collects the stream's final status;
//   - the reader thread blocks in Read(), hands received actions to the game thread (they
//     start on its next frame, as a game would pick them up), and with them the daemon's
//     EVENT_KIND_INTENTION_FAILED events (when subscribed), so actions the daemon gave up on
//     (its action timeout) stop instead of reporting results it would refuse; it counts
//     error events and records latency samples (latency.h).
// A blocked Write (the daemon pausing reads: HTTP/2 flow control) holds the game thread
// back, which shows up as late frames, not as lost updates.
//
// Stream failures: a non-OK final status, a stream that ends before stop(), or no Welcome
// within 5 s. Each is reported once with its status text.
//
// Thread safety: start(), stop(), join() from one controlling thread; counters() and
// takeSamples() from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "bot_game.h"
#include "epoch_fence.h"
#include "latency.h"
#include "npc/v1/npc.grpc.pb.h"
#include "scenario.h"

namespace npc::bots {

using Clock = std::chrono::steady_clock;

struct ClientCounters {
  // Sent.
  uint64_t messages_sent = 0;  // WorldUpdates
  FrameCounts items;           // their items by kind; items.items() = world updates
  uint64_t late_frames = 0;    // frame slots skipped because the game loop was behind
  uint64_t late_frames_own = 0;     // ...because building the frame took the time (harness lag)
  uint64_t late_frames_daemon = 0;  // ...because writing it blocked (npcd paused reads)
  uint64_t split_frames = 0;   // frames over max_items_per_update, sent in several updates
  double build_s = 0.0;        // time spent building frames (the harness's own work)
  double build_max_s = 0.0;
  double write_s = 0.0;        // time blocked writing them (the daemon's back-pressure)
  double write_max_s = 0.0;
  // Received.
  uint64_t messages_received = 0;
  uint64_t actions = 0;
  uint64_t foreign_actions = 0;  // for agents this client did not create (ignored)
  uint64_t superseded = 0;       // actions that replaced one still running on the agent
  uint64_t ended_by_daemon = 0;  // running actions the daemon failed itself (timeouts)
  double longest_action_s = 0.0; // longest planned action (MoveTo: distance / speed)
  // Actions dropped as stale: their place's epoch is below one already seen for it, so they
  // come from a cluster node that lost the place (README "Cluster").
  uint64_t stale_actions = 0;
  uint64_t error_events = 0;
  uint64_t other_events = 0;
  // Stream.
  bool welcomed = false;
  uint32_t client_id = 0;  // the daemon's id for this stream, from the Welcome
  double tick_dt_s = 0.0;  // from the Welcome
  bool failed = false;
  std::string failure;  // "UNAVAILABLE: npcd is shutting down"
};

class BotClient {
 public:
  // `epoch` is the harness clock's zero; `token` ("" = none) goes out as a bearer token;
  // the stream is cancelled `deadline_s` from now if it is still open.
  BotClient(const Scenario& scenario, uint32_t index, std::shared_ptr<grpc::Channel> channel,
            std::string token, Clock::time_point epoch, double deadline_s);
  ~BotClient();
  BotClient(const BotClient&) = delete;
  BotClient& operator=(const BotClient&) = delete;

  void start();
  // Asks the game thread to say farewell and half-close; returns at once.
  void stop();
  // Waits for both threads (bounded: a daemon that never ends the stream is cancelled
  // 10 s after stop()).
  void join();

  ClientCounters counters() const;
  // Moves the latency samples gathered since the last call into `out`.
  void takeSamples(std::vector<LatencySample>& out);
  // The first error texts received (at most `max` kept per client).
  std::vector<std::string> errorTexts() const;

  size_t players() const { return game_.playerCount(); }
  size_t npcs() const { return game_.npcCount(); }

 private:
  void gameLoop();
  void readLoop();
  void fail(const std::string& why);
  double now() const;

  const Scenario& scenario_;
  std::unique_ptr<v1::NpcSim::Stub> stub_;
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::WorldUpdate, v1::ServerMessage>> stream_;
  const Clock::time_point epoch_;
  BotGame game_;  // game thread only

  std::thread game_thread_;
  std::thread reader_thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> reader_done_{false};

  mutable std::mutex mutex_;
  std::condition_variable wake_;           // stop requested, Welcome arrived, reader done
  std::vector<ActionOrder> orders_;        // guarded by mutex_: received, not yet started
  std::vector<LatencySample> samples_;     // guarded by mutex_
  std::vector<std::string> error_texts_;   // guarded by mutex_
  ClientCounters counters_;                // guarded by mutex_
  EpochFence fence_;                       // read loop only
};

}  // namespace npc::bots
