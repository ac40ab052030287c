#include "cluster/place_lease_store.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "cluster/redis_connection.h"
#include "cluster/redis_reply.h"

namespace npc {

namespace {

// KEYS: owner, epoch. ARGV: node, address, ttl_ms, known_epoch.
// Refuses while an owner exists (returning it and its remaining ttl). Otherwise raises the
// stored epoch to known_epoch first, so a Redis that came back empty continues above what
// the caller has seen, then INCR gives the new epoch (64-bit arithmetic in Redis, not Lua).
constexpr const char* kAcquireScript = R"lua(
local current = redis.call('GET', KEYS[1])
if current then
  return {0, current, redis.call('PTTL', KEYS[1])}
end
local stored = tonumber(redis.call('GET', KEYS[2]) or '0')
if stored < tonumber(ARGV[4]) then
  redis.call('SET', KEYS[2], ARGV[4])
end
local epoch = redis.call('INCR', KEYS[2])
local value = ARGV[1] .. '|' .. string.format('%d', epoch) .. '|' .. ARGV[2]
redis.call('SET', KEYS[1], value, 'PX', ARGV[3])
return {1, value, tonumber(ARGV[3])}
)lua";

// KEYS: owner, epoch. ARGV: owner value, ttl_ms, the token's epoch. 1 when renewed.
// With no owner at all (Redis restarted without its data, or the lease expired unclaimed)
// the holder takes its lease back, unless a later epoch was granted meanwhile: nobody else
// can have held the place since, so fencing still holds, and a Redis restart does not
// make every node drop every place.
constexpr const char* kRenewScript = R"lua(
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if owner then
  return 0
end
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
local mine = tonumber(ARGV[3])
if last > mine then
  return 0
end
if last < mine then
  redis.call('SET', KEYS[2], ARGV[3])
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
)lua";

// KEYS: owner. ARGV: owner value. 1 when released.
constexpr const char* kReleaseScript = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
)lua";

// KEYS: owner, target. ARGV: owner value, bytes. 1 when written. The check and the write
// are one script, so no other client's command can fall between them: this is the fence.
constexpr const char* kWriteFencedScript = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[2], ARGV[2])
  return 1
end
return 0
)lua";

// KEYS: owner, stream, last. ARGV: owner value, field, bytes, keep_ms, epoch, tick. 1 when
// appended, or appended before. `last` holds the "<epoch> <tick>" of the last entry: an
// attempt the caller timed out on may still run later (Redis reads what a closed
// connection sent), and its retry must not append the entry twice. Entries older than
// keep_ms by the server's clock (a stream id starts with its ms) are trimmed.
constexpr const char* kAppendInputScript = R"lua(
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local epoch, tick = tonumber(ARGV[5]), tonumber(ARGV[6])
local last = redis.call('GET', KEYS[3])
if last then
  local last_epoch, last_tick = string.match(last, '^(%d+) (%d+)$')
  last_epoch, last_tick = tonumber(last_epoch), tonumber(last_tick)
  if epoch < last_epoch or (epoch == last_epoch and tick <= last_tick) then
    return 1
  end
end
redis.call('SET', KEYS[3], ARGV[5] .. ' ' .. ARGV[6])
local now = redis.call('TIME')
local oldest = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) - tonumber(ARGV[4])
redis.call('XADD', KEYS[2], 'MINID', string.format('%d', math.max(oldest, 0)), '*', ARGV[2], ARGV[3])
return 1
)lua";

// KEYS: owner. The value and its remaining ttl read together (no expiry in between).
constexpr const char* kOwnerScript = R"lua(
local current = redis.call('GET', KEYS[1])
if not current then
  return false
end
return {current, redis.call('PTTL', KEYS[1])}
)lua";

// KEYS: node key, node set. ARGV: node, address, ttl_ms.
constexpr const char* kAnnounceScript = R"lua(
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
return 1
)lua";

// KEYS: node key, node set. ARGV: node id. Removes the announcement at once.
constexpr const char* kWithdrawScript = R"lua(
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
return 1
)lua";

// KEYS: node set. ARGV: node key prefix. Flat {node, address, ...} of the live ones; the
// set members whose key expired are removed.
constexpr const char* kLiveNodesScript = R"lua(
local live = {}
for _, node in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local address = redis.call('GET', ARGV[1] .. node)
  if address then
    table.insert(live, node)
    table.insert(live, address)
  else
    redis.call('SREM', KEYS[1], node)
  end
end
return live
)lua";

constexpr char kFieldSeparator = '|';

Status invalid(std::string message) { return {StatusCode::kInvalidArgument, std::move(message)}; }

Status checkName(std::string_view field, std::string_view value) {
  if (value.empty()) return invalid(std::string(field) + " is empty");
  if (value.size() > PlaceLeaseStore::kMaxNameBytes) {
    return invalid(std::string(field) + " is " + std::to_string(value.size()) +
                   " bytes, more than " + std::to_string(PlaceLeaseStore::kMaxNameBytes));
  }
  return Status::ok();
}

// Node ids and addresses go into the owner value "<node>|<epoch>|<address>".
Status checkOwnerField(std::string_view field, std::string_view value) {
  const Status named = checkName(field, value);
  if (!named.isOk()) return named;
  if (value.find(kFieldSeparator) != std::string_view::npos) {
    return invalid(std::string(field) + " \"" + std::string(value) +
                   "\" contains '|', which separates the fields of a lease's owner value");
  }
  return Status::ok();
}

Status checkTtl(std::chrono::milliseconds ttl) {
  if (ttl.count() <= 0) return invalid("ttl is " + std::to_string(ttl.count()) + " ms, not > 0");
  return Status::ok();
}

// "owner" and "epoch" are the lease itself; without '{' and '}' every (place, suffix)
// pair maps to its own key even when place names contain braces.
Status checkSuffix(std::string_view suffix) {
  if (suffix.empty()) return invalid("key suffix is empty");
  if (suffix == "owner" || suffix == "epoch") {
    return invalid("key suffix \"" + std::string(suffix) + "\" is reserved for the lease");
  }
  if (suffix == kPlaceArrivalsKey || suffix == kPlaceInputKey || suffix == kPlaceInputLastKey) {
    return invalid("key suffix \"" + std::string(suffix) + "\" is reserved for the place's streams");
  }
  if (suffix.find_first_of("{}") != std::string_view::npos) {
    return invalid("key suffix \"" + std::string(suffix) + "\" contains a brace");
  }
  return Status::ok();
}

Status checkToken(const LeaseToken& token) {
  for (const Status& s : {checkName("place", token.place), checkOwnerField("node id", token.node),
                          checkOwnerField("address", token.address)}) {
    if (!s.isOk()) return s;
  }
  return Status::ok();
}

Status unexpectedReply(std::string_view what) {
  return {StatusCode::kFailedPrecondition, "redis: unexpected reply to " + std::string(what)};
}

// Splits "<node>|<epoch>|<address>"; false when the value has another shape.
bool parseOwnerValue(std::string_view value, LeaseHolder& out) {
  const size_t first = value.find(kFieldSeparator);
  if (first == std::string_view::npos) return false;
  const size_t second = value.find(kFieldSeparator, first + 1);
  if (second == std::string_view::npos) return false;
  const std::string_view epoch = value.substr(first + 1, second - first - 1);
  const auto parsed = std::from_chars(epoch.data(), epoch.data() + epoch.size(), out.epoch);
  if (parsed.ec != std::errc() || parsed.ptr != epoch.data() + epoch.size()) return false;
  out.node = std::string(value.substr(0, first));
  out.address = std::string(value.substr(second + 1));
  return true;
}

// Fills `holder` from an {owner value, pttl} pair of replies.
Status readHolder(const RedisReply& value, const RedisReply& pttl, LeaseHolder& holder) {
  if (!value.isString() || !pttl.isInteger() || !parseOwnerValue(value.str, holder)) {
    return {StatusCode::kFailedPrecondition,
            "redis: owner value \"" + value.str + "\" is not <node>|<epoch>|<address>"};
  }
  holder.remaining = std::chrono::milliseconds(pttl.integer);
  return Status::ok();
}

// A batch call's commands, one per entry whose arguments passed (the others are answered
// without asking Redis).
struct Batch {
  std::vector<std::vector<std::string>> commands;
  std::vector<size_t> entry_of;  // the caller's entry each command is for
};

// Sends the whole batch before reading any reply (one round trip), then hands each
// command's answer, in order, to `take(entry, status, reply)`.
template <class Take>
void runBatch(RedisConnection& redis, const Batch& batch, Take take) {
  std::vector<RedisReply> replies;
  const std::vector<Status> statuses = redis.pipeline(batch.commands, replies);
  for (size_t k = 0; k < batch.commands.size(); ++k) take(batch.entry_of[k], statuses[k], replies[k]);
}

AppendResult appendedEntry(const Status& status, RedisReply& reply) {
  AppendResult result;
  result.status = status;
  if (!result.status.isOk()) return result;
  if (!reply.isString()) {
    result.status = unexpectedReply("XADD");
    return result;
  }
  result.id = std::move(reply.str);
  return result;
}

// An XREAD of one stream: [[key, [[id, [field, value, ...]], ...]]], or nil when nothing is new.
StreamResult streamEntries(const Status& status, RedisReply& reply) {
  StreamResult result;
  result.status = status;
  if (!result.status.isOk() || reply.isNil()) return result;
  if (!reply.isArray() || reply.elements.size() != 1 || !reply.elements[0].isArray() ||
      reply.elements[0].elements.size() != 2 || !reply.elements[0].elements[1].isArray()) {
    result.status = unexpectedReply("XREAD");
    return result;
  }
  for (RedisReply& entry : reply.elements[0].elements[1].elements) {
    if (!entry.isArray() || entry.elements.size() != 2 || !entry.elements[0].isString() ||
        !entry.elements[1].isArray() || entry.elements[1].elements.size() < 2) {
      result.status = unexpectedReply("XREAD");
      result.entries.clear();
      return result;
    }
    result.entries.push_back({std::move(entry.elements[0].str),
                              std::move(entry.elements[1].elements[0].str),
                              std::move(entry.elements[1].elements[1].str)});
  }
  return result;
}

}  // namespace

std::string LeaseToken::ownerValue() const {
  return node + kFieldSeparator + std::to_string(epoch) + kFieldSeparator + address;
}

PlaceLeaseStore::PlaceLeaseStore(RedisConnection& redis, std::string key_prefix)
    : redis_(redis),
      prefix_(std::move(key_prefix)),
      acquire_{kAcquireScript, {}},
      renew_{kRenewScript, {}},
      release_{kReleaseScript, {}},
      write_fenced_{kWriteFencedScript, {}},
      append_input_{kAppendInputScript, {}},
      owner_{kOwnerScript, {}},
      announce_{kAnnounceScript, {}},
      live_nodes_{kLiveNodesScript, {}},
      withdraw_{kWithdrawScript, {}} {}

std::string PlaceLeaseStore::placeKey(std::string_view place, std::string_view suffix) const {
  // The hash tag keeps all keys of a place in one Redis Cluster slot, which multi-key
  // scripts need.
  std::string key = prefix_;
  key += ":{place:";
  key += place;
  key += "}:";
  key += suffix;
  return key;
}

std::string PlaceLeaseStore::nodeSetKey() const { return prefix_ + ":{nodes}"; }

std::string PlaceLeaseStore::nodeKey(std::string_view node) const {
  return nodeSetKey() + ":" + std::string(node);
}

Status PlaceLeaseStore::load(Script& script) {
  if (!script.sha.empty()) return Status::ok();
  RedisReply out;
  const Status loaded = redis_.command({"SCRIPT", "LOAD", script.body}, out);
  if (!loaded.isOk()) return loaded;
  if (!out.isString()) return unexpectedReply("SCRIPT LOAD");
  script.sha = out.str;
  return Status::ok();
}

std::vector<std::string> PlaceLeaseStore::evalSha(const Script& script,
                                                  const std::vector<std::string>& keys,
                                                  const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"EVALSHA", script.sha, std::to_string(keys.size())};
  argv.insert(argv.end(), keys.begin(), keys.end());
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

bool PlaceLeaseStore::forgotScript(const Status& status, const RedisReply& reply) {
  return status.code() == StatusCode::kFailedPrecondition && reply.str.rfind("NOSCRIPT", 0) == 0;
}

Status PlaceLeaseStore::run(Script& script, const std::vector<std::string>& keys,
                            const std::vector<std::string>& args, RedisReply& out) {
  const Status loaded = load(script);
  if (!loaded.isOk()) return loaded;
  std::vector<std::string> argv = evalSha(script, keys, args);
  Status status = redis_.command(argv, out);
  if (forgotScript(status, out)) {
    // Redis restarted or its script cache was flushed: EVAL runs the body and caches it
    // under the same sha for the next call.
    argv[0] = "EVAL";
    argv[1] = script.body;
    status = redis_.command(argv, out);
  }
  return status;
}

AcquireResult PlaceLeaseStore::acquire(std::string_view place, std::string_view node,
                                       std::string_view address, std::chrono::milliseconds ttl,
                                       uint64_t known_epoch) {
  AcquireResult result;
  for (const Status& s : {checkName("place", place), checkOwnerField("node id", node),
                          checkOwnerField("address", address), checkTtl(ttl)}) {
    if (!s.isOk()) {
      result.status = s;
      return result;
    }
  }
  RedisReply reply;
  result.status = run(acquire_, {placeKey(place, "owner"), placeKey(place, "epoch")},
                      {std::string(node), std::string(address), std::to_string(ttl.count()),
                       std::to_string(known_epoch)},
                      reply);
  if (!result.status.isOk()) return result;
  if (!reply.isArray() || reply.elements.size() != 3 || !reply.elements[0].isInteger()) {
    result.status = unexpectedReply("acquire");
    return result;
  }
  LeaseHolder holder;
  result.status = readHolder(reply.elements[1], reply.elements[2], holder);
  if (!result.status.isOk()) return result;
  result.acquired = reply.elements[0].integer == 1;
  if (result.acquired) {
    result.token = {std::string(place), std::move(holder.node), holder.epoch,
                    std::move(holder.address)};
  } else {
    result.holder = std::move(holder);
  }
  return result;
}

void PlaceLeaseStore::fence(const LeaseToken& token, std::vector<std::string>& keys,
                            std::vector<std::string>& args) const {
  keys.insert(keys.begin(), placeKey(token.place, "owner"));
  args.insert(args.begin(), token.ownerValue());
}

LeaseCheck PlaceLeaseStore::fencedResult(const Status& status, const RedisReply& reply) {
  LeaseCheck check;
  check.status = status;
  if (!check.status.isOk()) return check;
  if (!reply.isInteger()) {
    check.status = unexpectedReply("a fenced command");
    return check;
  }
  check.held = reply.integer == 1;
  return check;
}

LeaseCheck PlaceLeaseStore::checkedAction(Script& script, const LeaseToken& token,
                                          std::vector<std::string> keys,
                                          std::vector<std::string> args) {
  const Status valid = checkToken(token);
  if (!valid.isOk()) return {valid, false};
  fence(token, keys, args);
  RedisReply reply;
  const Status status = run(script, keys, args, reply);
  return fencedResult(status, reply);
}

LeaseCheck PlaceLeaseStore::renew(const LeaseToken& token, std::chrono::milliseconds ttl) {
  const Status valid = checkTtl(ttl);
  if (!valid.isOk()) return {valid, false};
  return checkedAction(renew_, token, {placeKey(token.place, "epoch")},
                       {std::to_string(ttl.count()), std::to_string(token.epoch)});
}

LeaseCheck PlaceLeaseStore::release(const LeaseToken& token) {
  return checkedAction(release_, token, {}, {});
}

LeaseCheck PlaceLeaseStore::writeFenced(const LeaseToken& token, std::string_view suffix,
                                        std::string_view bytes) {
  const Status valid = checkSuffix(suffix);
  if (!valid.isOk()) return {valid, false};
  return checkedAction(write_fenced_, token, {placeKey(token.place, suffix)},
                       {std::string(bytes)});
}

AppendResult PlaceLeaseStore::appendArrival(std::string_view place, std::string_view field,
                                            std::string_view bytes) {
  const ArrivalEntry entry{place, field, bytes};
  return std::move(appendArrivals({&entry, 1}).front());
}

std::vector<AppendResult> PlaceLeaseStore::appendArrivals(std::span<const ArrivalEntry> entries) {
  std::vector<AppendResult> results(entries.size());
  Batch batch;
  for (size_t i = 0; i < entries.size(); ++i) {
    const ArrivalEntry& e = entries[i];
    results[i].status = checkName("place", e.place);
    if (!results[i].status.isOk()) continue;
    // Not fenced: anyone may hand npcs into a place, held or not (its holder reads them).
    batch.commands.push_back({"XADD", placeKey(e.place, kPlaceArrivalsKey), "MAXLEN", "~",
                              std::to_string(kArrivalsCap), "*", std::string(e.field),
                              std::string(e.bytes)});
    batch.entry_of.push_back(i);
  }
  runBatch(redis_, batch, [&](size_t i, const Status& status, RedisReply& reply) {
    results[i] = appendedEntry(status, reply);
  });
  return results;
}

LeaseCheck PlaceLeaseStore::appendInput(const LeaseToken& token, uint64_t tick,
                                        std::string_view bytes, std::chrono::milliseconds keep) {
  std::vector<std::string> keys, args;
  appendInputCall(token, tick, bytes, keep, keys, args);
  return checkedAction(append_input_, token, std::move(keys), std::move(args));
}

void PlaceLeaseStore::appendInputCall(const LeaseToken& token, uint64_t tick,
                                      std::string_view bytes, std::chrono::milliseconds keep,
                                      std::vector<std::string>& keys,
                                      std::vector<std::string>& args) const {
  keys = {placeKey(token.place, kPlaceInputKey), placeKey(token.place, kPlaceInputLastKey)};
  args = {std::string(kInputTick), std::string(bytes), std::to_string(keep.count()),
          std::to_string(token.epoch), std::to_string(tick)};
}

std::vector<LeaseCheck> PlaceLeaseStore::appendInputs(std::span<const PlaceInputEntry> entries,
                                                      std::chrono::milliseconds keep) {
  std::vector<LeaseCheck> results(entries.size());
  const Status loaded = load(append_input_);
  if (!loaded.isOk()) {
    for (LeaseCheck& r : results) r.status = loaded;
    return results;
  }
  Batch batch;
  std::vector<std::string> keys, args;
  for (size_t i = 0; i < entries.size(); ++i) {
    const PlaceInputEntry& e = entries[i];
    results[i].status = checkToken(e.token);
    if (!results[i].status.isOk()) continue;
    appendInputCall(e.token, e.tick, e.bytes, keep, keys, args);
    fence(e.token, keys, args);
    batch.commands.push_back(evalSha(append_input_, keys, args));
    batch.entry_of.push_back(i);
  }
  runBatch(redis_, batch, [&](size_t i, const Status& status, const RedisReply& reply) {
    const PlaceInputEntry& e = entries[i];
    // Redis forgot the script mid-batch (a restart): appendInput loads it again. Entries
    // are idempotent, so one that did run is not appended twice.
    results[i] = forgotScript(status, reply) ? appendInput(e.token, e.tick, e.bytes, keep)
                                             : fencedResult(status, reply);
  });
  return results;
}

StreamResult PlaceLeaseStore::readArrivals(std::string_view place, std::string_view after,
                                           size_t count) {
  return readStream(place, kPlaceArrivalsKey, after, count);
}

StreamResult PlaceLeaseStore::readInputs(std::string_view place, std::string_view after,
                                         size_t count) {
  return readStream(place, kPlaceInputKey, after, count);
}

std::vector<StreamResult> PlaceLeaseStore::readArrivals(std::span<const StreamCursor> cursors,
                                                        size_t count) {
  return readStreams(kPlaceArrivalsKey, cursors, count);
}

StreamResult PlaceLeaseStore::readStream(std::string_view place, std::string_view suffix,
                                         std::string_view after, size_t count) {
  const StreamCursor cursor{place, after};
  return std::move(readStreams(suffix, {&cursor, 1}, count).front());
}

std::vector<StreamResult> PlaceLeaseStore::readStreams(std::string_view suffix,
                                                       std::span<const StreamCursor> cursors,
                                                       size_t count) {
  std::vector<StreamResult> results(cursors.size());
  Batch batch;
  for (size_t i = 0; i < cursors.size(); ++i) {
    const StreamCursor& c = cursors[i];
    results[i].status = checkName("place", c.place);
    if (!results[i].status.isOk()) continue;
    // One XREAD per stream, not one XREAD of them all: a place's keys share a Redis
    // Cluster slot, different places' keys do not.
    batch.commands.push_back({"XREAD", "COUNT", std::to_string(count), "STREAMS",
                              placeKey(c.place, suffix),
                              c.after.empty() ? std::string("0") : std::string(c.after)});
    batch.entry_of.push_back(i);
  }
  runBatch(redis_, batch, [&](size_t i, const Status& status, RedisReply& reply) {
    results[i] = streamEntries(status, reply);
  });
  return results;
}

ReadResult PlaceLeaseStore::read(std::string_view place, std::string_view suffix) {
  ReadResult result;
  for (const Status& s : {checkName("place", place), checkSuffix(suffix)}) {
    if (!s.isOk()) {
      result.status = s;
      return result;
    }
  }
  RedisReply reply;
  result.status = redis_.command({"GET", placeKey(place, suffix)}, reply);
  if (!result.status.isOk()) return result;
  if (reply.isString()) {
    result.bytes = std::move(reply.str);
  } else if (!reply.isNil()) {
    result.status = unexpectedReply("GET");
  }
  return result;
}

OwnerResult PlaceLeaseStore::owner(std::string_view place) {
  OwnerResult result;
  result.status = checkName("place", place);
  if (!result.status.isOk()) return result;
  RedisReply reply;
  result.status = run(owner_, {placeKey(place, "owner")}, {}, reply);
  if (!result.status.isOk() || reply.isNil()) return result;
  if (!reply.isArray() || reply.elements.size() != 2) {
    result.status = unexpectedReply("owner");
    return result;
  }
  LeaseHolder holder;
  result.status = readHolder(reply.elements[0], reply.elements[1], holder);
  if (result.status.isOk()) result.holder = std::move(holder);
  return result;
}

Status PlaceLeaseStore::announceNode(std::string_view node, std::string_view address,
                                     std::chrono::milliseconds ttl) {
  for (const Status& s : {checkOwnerField("node id", node), checkOwnerField("address", address),
                          checkTtl(ttl)}) {
    if (!s.isOk()) return s;
  }
  RedisReply reply;
  return run(announce_, {nodeKey(node), nodeSetKey()},
             {std::string(node), std::string(address), std::to_string(ttl.count())}, reply);
}

Status PlaceLeaseStore::withdrawNode(std::string_view node) {
  if (Status s = checkOwnerField("node id", node); !s.isOk()) return s;
  RedisReply reply;
  return run(withdraw_, {nodeKey(node), nodeSetKey()}, {std::string(node)}, reply);
}

LiveNodesResult PlaceLeaseStore::liveNodes() {
  LiveNodesResult result;
  RedisReply reply;
  result.status = run(live_nodes_, {nodeSetKey()}, {nodeSetKey() + ":"}, reply);
  if (!result.status.isOk()) return result;
  if (!reply.isArray() || reply.elements.size() % 2 != 0) {
    result.status = unexpectedReply("liveNodes");
    return result;
  }
  for (size_t i = 0; i < reply.elements.size(); i += 2) {
    result.nodes.push_back({reply.elements[i].str, reply.elements[i + 1].str});
  }
  std::sort(result.nodes.begin(), result.nodes.end(),
            [](const LiveNode& a, const LiveNode& b) { return a.node.compare(b.node) < 0; });
  return result;
}

}  // namespace npc
