// PlaceLeaseStore: which daemon owns which place, as fenced leases in Redis
// (server/cluster/README.md has the keys, the scripts and why known_epoch exists).
//
// A place has at most one owner at a time. The owner holds a lease that expires after its
// ttl unless renewed; each grant of a place gets an epoch one above any granted before, and
// the owner's token (place, node, epoch, address) is what every later renew, release and
// fenced write is checked against, inside Redis, in the same atomic script that acts. A
// daemon that was paused past its ttl therefore cannot renew, release or overwrite the
// snapshot of the daemon that took the place over.
//
// Every call is one round trip on the connection (the batch calls too: all their commands
// pipelined) and may block up to its timeout.
// Not thread-safe: the store uses the caller's connection, which belongs to one thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace npc {

class RedisConnection;
struct RedisReply;

// The suffix under which a place's holder writes the place's snapshot (a PlaceHandoff,
// server/cluster/place_snapshot_writer.h) for the next holder.
inline constexpr std::string_view kPlaceSnapshotKey = "snap";
// The suffix of a place's arrivals stream: npcs other nodes handed into the place (entry
// field kArrivalNpcs) and sounds made elsewhere that reach it (kArrivalCommand).
inline constexpr std::string_view kPlaceArrivalsKey = "arrivals";
inline constexpr std::string_view kArrivalNpcs = "h";     // an encoded PlaceHandoff
inline constexpr std::string_view kArrivalCommand = "c";  // an encoded JournalCommand
// The suffix of a place's input stream: what its holders applied, one entry per tick that
// applied something for the place (field kInputTick, an encoded PlaceInput), appended under
// the lease; a node taking the place over after a crash applies the entries after the
// place's snapshot again.
inline constexpr std::string_view kPlaceInputKey = "input";
inline constexpr std::string_view kInputTick = "i";
// The "<epoch> <tick>" of the last entry appended to the input stream.
inline constexpr std::string_view kPlaceInputLastKey = "input_last";

// Proof of ownership, handed out by acquire().
struct LeaseToken {
  std::string place;
  std::string node;
  uint64_t epoch = 0;
  std::string address;  // where the owner takes the place's input (host:port)

  // The owner key's value while this token holds the place: "<node>|<epoch>|<address>".
  std::string ownerValue() const;
};

// Who holds a place now.
struct LeaseHolder {
  std::string node;
  uint64_t epoch = 0;
  std::string address;
  std::chrono::milliseconds remaining{0};  // until the lease expires unless renewed
};

struct AcquireResult {
  Status status;          // not ok: bad argument or Redis unreachable; nothing below is set
  bool acquired = false;  // status ok: true with `token`, false with `holder`
  LeaseToken token;
  LeaseHolder holder;
};

// Result of an operation checked against a token. `status` not ok means no answer (or a bad
// argument): whether the token still holds is then unknown and must be treated as lost.
struct LeaseCheck {
  Status status;
  bool held = false;  // status ok: the token still owned the place, so the action happened
};

// One tick's inputs for a place held here (an encoded PlaceInput), appended to the place's
// input stream only while `token` holds it.
struct PlaceInputEntry {
  LeaseToken token;
  uint64_t tick = 0;  // the holder's tick that applied them
  std::string bytes;
};

struct OwnerResult {
  Status status;
  std::optional<LeaseHolder> holder;  // status ok: empty when nobody owns the place
};

struct ReadResult {
  Status status;
  std::optional<std::string> bytes;  // status ok: empty when the key does not exist
};

// One entry of a place's arrivals or input stream.
struct StreamEntry {
  std::string id;     // the stream entry id ("1700000000000-0"), ascending
  std::string field;  // kArrivalNpcs, kArrivalCommand or kInputTick
  std::string bytes;
};

// An entry for a place's arrivals stream (appendArrivals); views valid for the call.
struct ArrivalEntry {
  std::string_view place;
  std::string_view field;  // kArrivalNpcs or kArrivalCommand
  std::string_view bytes;
};

// Where a read of a place's stream starts: after the entry id `after` ("" = from the start).
struct StreamCursor {
  std::string_view place;
  std::string_view after;
};

struct AppendResult {
  Status status;
  std::string id;  // status ok: the new entry's id
};

struct StreamResult {
  Status status;
  std::vector<StreamEntry> entries;  // status ok: oldest first
};

struct LiveNode {
  std::string node;
  std::string address;
};

struct LiveNodesResult {
  Status status;
  std::vector<LiveNode> nodes;  // sorted by node id
};

class PlaceLeaseStore {
 public:
  // Place names and node ids: any non-empty string of at most kMaxNameBytes; node ids and
  // addresses must not contain '|', which separates the owner value's fields.
  static constexpr size_t kMaxNameBytes = 256;

  // Keys start with `key_prefix` (config; several clusters can share one Redis). The
  // connection must outlive the store.
  explicit PlaceLeaseStore(RedisConnection& redis, std::string key_prefix = "npcd");

  // Grants `place` to `node` for `ttl` unless someone holds it; then `holder` says who.
  // The new epoch is one above both the stored epoch and `known_epoch`, the highest epoch
  // of this place the caller has seen, so a Redis that lost its data (restarted empty)
  // never grants an epoch at or below one already handed out.
  AcquireResult acquire(std::string_view place, std::string_view node, std::string_view address,
                        std::chrono::milliseconds ttl, uint64_t known_epoch = 0);
  // Extends the lease to `ttl` from now if `token` still holds it, or takes it back when
  // nobody holds the place and no later epoch was granted (a Redis that restarted empty).
  // Renew well within the
  // ttl (e.g. every ttl/3); a caller that gets held == false or a bad status must stop
  // acting as the owner before the lease it last renewed runs out.
  LeaseCheck renew(const LeaseToken& token, std::chrono::milliseconds ttl);
  // Gives the place up at once if `token` still holds it (held says whether it did).
  LeaseCheck release(const LeaseToken& token);

  // Writes `bytes` (binary-safe) under `<prefix>:{place:<name>}:<suffix>` only if `token`
  // still holds the place. `suffix`: non-empty, no '{' or '}', not "owner", "epoch",
  // "arrivals", "input" or "input_last".
  LeaseCheck writeFenced(const LeaseToken& token, std::string_view suffix,
                         std::string_view bytes);
  // What was last written under `suffix` for `place`.
  ReadResult read(std::string_view place, std::string_view suffix);
  // The current holder of `place`, if any.
  OwnerResult owner(std::string_view place);

  // A place's arrivals: a stream anyone appends to (the node an npc walks away from) and
  // its holder reads, keeping about kArrivalsCap entries (older ones are trimmed).
  static constexpr size_t kArrivalsCap = 10000;
  AppendResult appendArrival(std::string_view place, std::string_view field, std::string_view bytes);
  // appendArrival for each entry, all in one round trip (RedisConnection::pipeline): one
  // result per entry, in order, and Redis adds them in that order. An entry Redis refused
  // (an error reply) does not stop the later ones; after an I/O error that entry and every
  // later one are kUnavailable: they may or may not be in their streams.
  std::vector<AppendResult> appendArrivals(std::span<const ArrivalEntry> entries);
  // Up to `count` entries after the entry id `after` ("" = from the start).
  StreamResult readArrivals(std::string_view place, std::string_view after, size_t count);
  // readArrivals for each cursor, all in one round trip: one result per cursor, in order.
  std::vector<StreamResult> readArrivals(std::span<const StreamCursor> cursors, size_t count);

  // A place's input stream: appends `bytes` (field kInputTick), what the holder's `tick`
  // applied, only if `token` still holds the place, and drops the entries older than `keep`
  // by Redis's clock in the same script. Idempotent: an entry of a tick at or before the
  // last appended one (same epoch), or of an earlier epoch, is not appended again (held
  // true), so a call that timed out can be retried.
  LeaseCheck appendInput(const LeaseToken& token, uint64_t tick, std::string_view bytes,
                         std::chrono::milliseconds keep);
  // appendInput for each entry, all in one round trip (RedisConnection::pipeline): one
  // result per entry, in order. A node with many busy places appends a tick's inputs at
  // the cost of one append, not one per place.
  std::vector<LeaseCheck> appendInputs(std::span<const PlaceInputEntry> entries,
                                       std::chrono::milliseconds keep);
  // Up to `count` entries after the entry id `after` ("" = from the start).
  StreamResult readInputs(std::string_view place, std::string_view after, size_t count);

  // Says that `node` is alive at `address` for `ttl`; announce again well within it.
  Status announceNode(std::string_view node, std::string_view address,
                      std::chrono::milliseconds ttl);
  // Takes the node's announcement back at once (a drain), so the others' fair shares
  // count it out now rather than when the announcement would expire.
  Status withdrawNode(std::string_view node);
  // Nodes whose announcement has not expired; expired ones are dropped from the registry.
  LiveNodesResult liveNodes();

  // The key of `place`'s `suffix` ("owner", "epoch", "snap", ...).
  std::string placeKey(std::string_view place, std::string_view suffix) const;

 private:
  // A Lua script run by EVALSHA, loaded on first use and again after Redis forgot it.
  struct Script {
    const char* body;
    std::string sha;
  };

  Status load(Script& script);
  static std::vector<std::string> evalSha(const Script& script, const std::vector<std::string>& keys,
                                          const std::vector<std::string>& args);
  // The error Redis gives an EVALSHA of a script it no longer has (NOSCRIPT).
  static bool forgotScript(const Status& status, const RedisReply& reply);
  Status run(Script& script, const std::vector<std::string>& keys,
             const std::vector<std::string>& args, RedisReply& out);
  // A fenced script's first key and argument: the place's owner key and the token's value.
  void fence(const LeaseToken& token, std::vector<std::string>& keys,
             std::vector<std::string>& args) const;
  static LeaseCheck fencedResult(const Status& status, const RedisReply& reply);
  LeaseCheck checkedAction(Script& script, const LeaseToken& token,
                           std::vector<std::string> keys, std::vector<std::string> args);
  void appendInputCall(const LeaseToken& token, uint64_t tick, std::string_view bytes,
                       std::chrono::milliseconds keep, std::vector<std::string>& keys,
                       std::vector<std::string>& args) const;
  StreamResult readStream(std::string_view place, std::string_view suffix, std::string_view after,
                          size_t count);
  std::vector<StreamResult> readStreams(std::string_view suffix,
                                        std::span<const StreamCursor> cursors, size_t count);
  std::string nodeKey(std::string_view node) const;
  std::string nodeSetKey() const;

  RedisConnection& redis_;
  std::string prefix_;
  Script acquire_;
  Script renew_;
  Script release_;
  Script write_fenced_;
  Script append_input_;
  Script owner_;
  Script announce_;
  Script live_nodes_;
  Script withdraw_;
};

}  // namespace npc
