// ClientHub: every connected game client (one Connect stream each), what it subscribed to,
// and its bounded outbox. The tick thread publishes each tick's output here; gRPC threads
// drain outboxes into their streams. See server/README.md for the threading rules.
//
// Lifetime: reactors call back into the hub until their OnDone, so the gRPC server must be
// shut down (Server::Shutdown returned) before the hub is destroyed.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include <grpcpp/support/status.h>

#include "cluster/durable_replies.h"
#include "npc/v1/npc.pb.h"
#include "sim/simulation.h"

namespace npc {

class Session;

struct HubLimits {
  size_t outbox_max_messages = 256;    // a client further behind than this is dropped
  size_t max_items_per_update = 10000; // items in one WorldUpdate beyond this are refused
  size_t max_inbox_commands = 262144;  // back-pressure: reads pause while the sim queue is fuller
  double max_updates_per_s = 0.0;      // per stream, burst of one second's worth; 0 = no limit
  size_t max_clients = 1000;           // Connect streams open at once; beyond it open() refuses
};

class ClientHub {
 public:
  ClientHub(Simulation& sim, const HubLimits& limits);
  ~ClientHub();

  // gRPC threads: a new stream. Returns null with `refusal` set when it cannot open:
  // UNAVAILABLE once drain() has begun, RESOURCE_EXHAUSTED with max_clients streams open
  // (or client ids exhausted); the refusal says which. `identity` "" is an
  // anonymous client (a new ClientId, its entities shared once it leaves); a named one gets
  // the identity's ClientId, shared by all its open streams: the first stream to open after
  // the identity was away gets its entities back (ClientBack), the last one to close leaves
  // them owned while away (ClientGone, keeps_ownership). `read_only`: observer streams,
  // whose updates may only subscribe.
  std::shared_ptr<Session> open(const std::string& identity, bool read_only,
                                grpc::Status& refusal);
  // gRPC threads: the stream is gone (finished, cancelled or vanished). Idempotent.
  void close(const std::shared_ptr<Session>& session);
  // Any thread: the stable ClientId of a named identity (allocated on first use).
  ClientId identityClient(const std::string& identity);

  // Error events delivered to clients, each counted once per client it reached: `input`
  // were refused at the edge (malformed items, rate limit, full queue), `refused` by the
  // tick thread (unknown ids, ownership, state). GetStats "errors" is their sum.
  // Each is also logged at debug level ("client error": client, kind, seq, agent, error).
  enum class ErrorKind : uint8_t { kInput, kRefused };
  void countErrors(ClientId client, ErrorKind kind, uint64_t seq,
                   const std::vector<std::string>& errors);
  uint64_t errorCount(ErrorKind kind) const;

  // Tick thread, after every Simulation::tick(): converts the tick's actions and events into
  // one ServerMessage per interested client and queues it. A client whose outbox is full is
  // finished with RESOURCE_EXHAUSTED and counted in droppedCount().
  // Actions in `cluster.fenced` places are not sent: a cluster node's lease on them ran out
  // while the tick ran (server/cluster/cluster_node.h). In a cluster every action carries the
  // epoch of its place's lease, so a client can drop one from a node that lost the place;
  // and a client whose stream updates are newly stored in Redis is told how far
  // (ServerMessage.stored_seq), and of those that were not kept (error events), even in a
  // tick with nothing else for it.
  void publish(const Simulation& sim, const ClusterNews& cluster = {});

  // Shutdown: refuses new streams and finishes every open one with UNAVAILABLE.
  void drain();

  // Any thread: finishes a client that cannot keep up with RESOURCE_EXHAUSTED ("client 3 too
  // slow: outbox exceeded 256 messages"), counts it in droppedCount() and closes it.
  void dropSlowClient(const std::shared_ptr<Session>& session);

  // Any thread: messages queued for the streams, all together and the fullest one's.
  struct OutboxDepth {
    size_t total = 0;
    size_t max = 0;
  };
  OutboxDepth outboxDepth() const;

  size_t clientCount() const;
  uint64_t droppedCount() const;
  const HubLimits& limits() const { return limits_; }
  Simulation& sim() { return sim_; }

 private:
  struct Identity {
    std::string name;
    ClientId id;
    uint32_t streams = 0;  // open streams
    bool seen = false;     // a stream was open before: the next first stream returns
  };
  ClientId allocateLocked();  // null id (kUnowned) when ids ran out
  Identity* findIdentityLocked(const std::string& name);
  // ClientGone / ClientBack, in order even when the queue is full (retried each publish).
  void submitLifecycleLocked(Command command);
  void retryLifecycle();

  Simulation& sim_;
  HubLimits limits_;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<Session>> sessions_;  // guarded by mutex_, ordered by ClientId
  uint32_t next_client_ = 1;                        // guarded by mutex_
  bool draining_ = false;                           // guarded by mutex_
  uint64_t dropped_ = 0;                            // guarded by mutex_
  // guarded by mutex_: ClientGone / ClientBack the queue refused, in order
  std::vector<Command> lifecycle_pending_;
  std::vector<Identity> identities_;  // guarded by mutex_
  std::atomic<uint64_t> errors_input_{0};
  std::atomic<uint64_t> errors_refused_{0};

  // The tick of the last publish(), for the Welcome of new streams.
  std::atomic<uint64_t> last_tick_{0};
  std::atomic<double> last_sim_time_s_{0.0};

  // Tick thread only: reused every publish() so a steady tick allocates little.
  std::vector<std::shared_ptr<Session>> publishing_;
  std::vector<v1::Action> actions_;  // this tick's actions, converted once
  std::vector<v1::Event> events_;    // this tick's events, converted once
  std::vector<PlaceIndex> places_;   // one session's place filter, resolved
};

}  // namespace npc
