// RedisConnection: one synchronous connection to one Redis server (server/cluster/README.md).
//
// Connects on the first command, not in the constructor, so a daemon can start while Redis
// is down. Every connect and every command is bounded by the same timeout. After an I/O
// error (refused, reset, timed out) the connection is dropped and the next command connects
// afresh, which is how a restarted Redis is picked up. The failed command itself is not
// retried: it may or may not have run on the server, and only the caller knows whether
// running it twice is harmless.
//
// Not thread-safe: a connection belongs to one thread; use one per thread.
#pragma once

#include <chrono>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "cluster/redis_reply.h"

struct redisContext;  // the client library's connection; opaque here

namespace npc {

class RedisConnection {
 public:
  // `timeout` bounds the connect and each command's round trip [Limit: > 0].
  RedisConnection(std::string host, int port, std::chrono::milliseconds timeout);
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Sends `argv` (command name first; every argument binary-safe) and copies the reply
  // into `out`. Returns
  //   ok                     the server answered with anything but an error reply;
  //   kFailedPrecondition    the server answered with an error reply (its text in the
  //                          message and in out.str, out.kind == kError);
  //   kUnavailable           no answer: "redis <host>:<port>: <what went wrong>"; `out` is
  //                          nil and the connection is dropped.
  Status command(const std::vector<std::string>& argv, RedisReply& out);
  // Sends every command before reading any reply (one round trip for them all, where
  // command() pays one each), then reads the replies in order into `out` (one per command)
  // and returns each command's status as command() would. After an I/O error the
  // connection is dropped, and that command and every later one get kUnavailable: they
  // may or may not have run.
  std::vector<Status> pipeline(std::span<const std::vector<std::string>> commands,
                               std::vector<RedisReply>& out);

  // True while a connection is open (it may still turn out to be dead on the next command).
  bool connected() const { return context_ != nullptr; }
  // "host:port", as error messages name the server.
  std::string endpoint() const;
  std::chrono::milliseconds timeout() const { return timeout_; }

 private:
  Status connect();
  void disconnect();
  Status unavailable(std::string_view what) const;
  // What went wrong on the open connection, in words, after a failed command.
  std::string describeIoError() const;

  std::string host_;
  int port_;
  std::chrono::milliseconds timeout_;
  redisContext* context_ = nullptr;  // owned; null while disconnected
};

}  // namespace npc
