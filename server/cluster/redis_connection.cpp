#include "cluster/redis_connection.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <cassert>
#include <cerrno>
#include <cstring>
#include <utility>

namespace npc {

namespace {

timeval toTimeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
  return tv;
}

RedisReply copyReply(const redisReply& from) {
  RedisReply to;
  switch (from.type) {
    case REDIS_REPLY_INTEGER:
      to.kind = RedisReply::Kind::kInteger;
      to.integer = from.integer;
      break;
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_ERROR:
      to.kind = from.type == REDIS_REPLY_STRING   ? RedisReply::Kind::kString
                : from.type == REDIS_REPLY_STATUS ? RedisReply::Kind::kStatus
                                                  : RedisReply::Kind::kError;
      to.str.assign(from.str, from.len);
      break;
    case REDIS_REPLY_ARRAY:
      to.kind = RedisReply::Kind::kArray;
      to.elements.reserve(from.elements);
      for (size_t i = 0; i < from.elements; ++i) to.elements.push_back(copyReply(*from.element[i]));
      break;
    default:  // REDIS_REPLY_NIL
      to.kind = RedisReply::Kind::kNil;
      break;
  }
  return to;
}

}  // namespace

RedisConnection::RedisConnection(std::string host, int port, std::chrono::milliseconds timeout)
    : host_(std::move(host)), port_(port), timeout_(timeout) {}

RedisConnection::~RedisConnection() { disconnect(); }

std::string RedisConnection::endpoint() const { return host_ + ":" + std::to_string(port_); }

Status RedisConnection::unavailable(std::string_view what) const {
  return {StatusCode::kUnavailable, "redis " + endpoint() + ": " + std::string(what)};
}

void RedisConnection::disconnect() {
  if (context_ != nullptr) redisFree(context_);
  context_ = nullptr;
}

Status RedisConnection::connect() {
  const timeval tv = toTimeval(timeout_);
  redisContext* context = redisConnectWithTimeout(host_.c_str(), port_, tv);
  if (context == nullptr) return unavailable("connect: out of memory");
  if (context->err != 0) {
    const std::string why = context->errstr;
    redisFree(context);
    return unavailable("connect: " + why);
  }
  // The connect timeout does not carry over to reads and writes; without this a stopped
  // server would block a command forever.
  if (redisSetTimeout(context, tv) != REDIS_OK) {
    const std::string why = context->errstr;
    redisFree(context);
    return unavailable("setting the command timeout: " + why);
  }
  context_ = context;
  return Status::ok();
}

std::string RedisConnection::describeIoError() const {
  // A socket timeout surfaces as EAGAIN's text; say what it means.
  if (context_->err == REDIS_ERR_IO && std::strcmp(context_->errstr, std::strerror(EAGAIN)) == 0) {
    return "no reply within " + std::to_string(timeout_.count()) + " ms";
  }
  return context_->errstr[0] != '\0' ? context_->errstr : "connection lost";
}

Status RedisConnection::command(const std::vector<std::string>& argv, RedisReply& out) {
  std::vector<RedisReply> replies;
  std::vector<Status> statuses = pipeline({&argv, 1}, replies);
  out = std::move(replies.front());
  return statuses.front();
}

std::vector<Status> RedisConnection::pipeline(std::span<const std::vector<std::string>> commands,
                                              std::vector<RedisReply>& out) {
  out.assign(commands.size(), RedisReply{});
  std::vector<Status> statuses(commands.size(), Status::ok());
  if (commands.empty()) return statuses;
  if (context_ == nullptr) {
    const Status connected = connect();
    if (!connected.isOk()) {
      statuses.assign(commands.size(), connected);
      return statuses;
    }
  }
  // Appending only fills the client's output buffer; the first read below writes it all.
  std::vector<const char*> args;
  std::vector<size_t> lengths;
  for (const std::vector<std::string>& argv : commands) {
    assert(!argv.empty());
    args.clear();
    lengths.clear();
    for (const std::string& a : argv) {
      args.push_back(a.data());
      lengths.push_back(a.size());
    }
    if (redisAppendCommandArgv(context_, static_cast<int>(argv.size()), args.data(),
                               lengths.data()) != REDIS_OK) {
      const Status lost = unavailable(describeIoError());
      disconnect();
      statuses.assign(commands.size(), lost);
      return statuses;
    }
  }
  for (size_t i = 0; i < commands.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(context_, &raw) != REDIS_OK || raw == nullptr) {
      // The context is unusable after an I/O or protocol error; a fresh one comes next call.
      const Status lost = unavailable(describeIoError());
      disconnect();
      for (size_t j = i; j < commands.size(); ++j) statuses[j] = lost;
      return statuses;
    }
    auto* reply = static_cast<redisReply*>(raw);
    out[i] = copyReply(*reply);
    freeReplyObject(reply);
    if (out[i].kind == RedisReply::Kind::kError) {
      statuses[i] = {StatusCode::kFailedPrecondition, "redis " + endpoint() + ": " + out[i].str};
    }
  }
  return statuses;
}

}  // namespace npc
