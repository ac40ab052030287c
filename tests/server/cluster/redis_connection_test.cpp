// RedisConnection: replies copied out whole, errors named by server, commands bounded by the
// timeout, and a fresh connection after Redis went away and came back.
#include <chrono>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cluster/redis_connection.h"
#include "support/redis_process.h"

using namespace npc;
using namespace std::chrono_literals;

namespace {

void startOrFail(RedisProcess& redis) {
  const Status started = redis.start();
  if (!started.isOk()) FAIL(started.message());
}

std::string endpointOf(const RedisProcess& redis) {
  return "redis 127.0.0.1:" + std::to_string(redis.port()) + ": ";
}

}  // namespace

TEST_CASE("a connection copies each kind of reply out of Redis", "[redis]") {
  RedisProcess redis;
  startOrFail(redis);
  RedisConnection connection("127.0.0.1", redis.port(), 1000ms);
  CHECK_FALSE(connection.connected());  // lazily, on the first command
  RedisReply reply;

  SECTION("Should give a status reply") {
    REQUIRE(connection.command({"PING"}, reply).isOk());
    CHECK(connection.connected());
    CHECK(reply.kind == RedisReply::Kind::kStatus);
    CHECK(reply.str == "PONG");
  }
  SECTION("Should keep NUL bytes of a bulk string and give nil for a missing key") {
    const std::string bytes("a\0b\r\n\xff", 6);
    REQUIRE(connection.command({"SET", "k", bytes}, reply).isOk());
    REQUIRE(connection.command({"GET", "k"}, reply).isOk());
    CHECK(reply.kind == RedisReply::Kind::kString);
    CHECK(reply.str == bytes);
    REQUIRE(connection.command({"GET", "missing"}, reply).isOk());
    CHECK(reply.isNil());
  }
  SECTION("Should give integers and nested arrays") {
    REQUIRE(connection.command({"RPUSH", "list", "x", "y"}, reply).isOk());
    CHECK(reply.isInteger());
    CHECK(reply.integer == 2);
    REQUIRE(connection.command({"EVAL", "return {1, 'two', {3}}", "0"}, reply).isOk());
    REQUIRE(reply.isArray());
    REQUIRE(reply.elements.size() == 3);
    CHECK(reply.elements[0].integer == 1);
    CHECK(reply.elements[1].str == "two");
    REQUIRE(reply.elements[2].isArray());
    CHECK(reply.elements[2].elements[0].integer == 3);
  }
  SECTION("Should return an error reply as a failed precondition with its text") {
    REQUIRE(connection.command({"RPUSH", "list", "x"}, reply).isOk());
    const Status status = connection.command({"INCR", "list"}, reply);
    CHECK(status.code() == StatusCode::kFailedPrecondition);
    CHECK(status.message().rfind(endpointOf(redis) + "WRONGTYPE", 0) == 0);
    CHECK(reply.kind == RedisReply::Kind::kError);
    CHECK(connection.connected());  // an error reply is an answer: the connection stays
  }
}

TEST_CASE("a pipeline answers each command in order, as command() would", "[redis]") {
  RedisProcess redis;
  startOrFail(redis);
  RedisConnection connection("127.0.0.1", redis.port(), 1000ms);
  std::vector<RedisReply> replies;

  SECTION("Should give every reply in the order sent, an error reply only to its command") {
    const std::vector<std::vector<std::string>> commands = {
        {"SET", "k", "v"}, {"RPUSH", "list", "x"}, {"INCR", "list"}, {"GET", "k"}, {"INCR", "n"}};
    const std::vector<Status> statuses = connection.pipeline(commands, replies);
    REQUIRE(statuses.size() == 5);
    REQUIRE(replies.size() == 5);
    CHECK(statuses[0].isOk());
    CHECK(replies[0].str == "OK");
    CHECK(replies[1].integer == 1);
    CHECK(statuses[2].code() == StatusCode::kFailedPrecondition);
    CHECK(statuses[2].message().rfind(endpointOf(redis) + "WRONGTYPE", 0) == 0);
    CHECK(statuses[3].isOk());
    CHECK(replies[3].str == "v");
    CHECK(statuses[4].isOk());
    CHECK(replies[4].integer == 1);
    CHECK(connection.connected());
  }
  SECTION("Should run a hundred commands in one call and keep the connection for the next") {
    std::vector<std::vector<std::string>> commands;
    for (int i = 0; i < 100; ++i) commands.push_back({"RPUSH", "seq", std::to_string(i)});
    for (const Status& s : connection.pipeline(commands, replies)) REQUIRE(s.isOk());
    CHECK(replies.back().integer == 100);
    RedisReply reply;
    REQUIRE(connection.command({"LINDEX", "seq", "42"}, reply).isOk());
    CHECK(reply.str == "42");
  }
  SECTION("Should give an empty pipeline nothing to do") {
    CHECK(connection.pipeline({}, replies).empty());
    CHECK(replies.empty());
  }
  SECTION("Should make every command unavailable when Redis is gone") {
    redis.stop();
    const std::vector<std::vector<std::string>> commands = {{"PING"}, {"PING"}};
    const std::vector<Status> statuses = connection.pipeline(commands, replies);
    REQUIRE(statuses.size() == 2);
    CHECK(statuses[0].code() == StatusCode::kUnavailable);
    CHECK(statuses[1].code() == StatusCode::kUnavailable);
    CHECK(replies[1].isNil());
    CHECK_FALSE(connection.connected());
  }
}

TEST_CASE("an unreachable Redis is unavailable, named, and does not hang", "[redis]") {
  RedisProcess redis;  // its port is free: nothing listens there

  SECTION("Should report a refused connect at once") {
    RedisConnection connection("127.0.0.1", redis.port(), 300ms);
    RedisReply reply;
    const auto start = std::chrono::steady_clock::now();
    const Status status = connection.command({"PING"}, reply);
    CHECK(std::chrono::steady_clock::now() - start < 300ms);
    CHECK(status.code() == StatusCode::kUnavailable);
    CHECK(status.message().rfind(endpointOf(redis) + "connect: ", 0) == 0);
    CHECK(reply.isNil());
    CHECK_FALSE(connection.connected());
  }
  SECTION("Should give up on a server that stopped answering after the timeout") {
    startOrFail(redis);
    RedisConnection connection("127.0.0.1", redis.port(), 200ms);
    RedisReply reply;
    REQUIRE(connection.command({"PING"}, reply).isOk());
    redis.pause();
    const auto start = std::chrono::steady_clock::now();
    const Status status = connection.command({"PING"}, reply);
    const auto waited = std::chrono::steady_clock::now() - start;
    redis.resume();
    CHECK(status.code() == StatusCode::kUnavailable);
    CHECK(status.message() == endpointOf(redis) + "no reply within 200 ms");
    CHECK(waited >= 150ms);
    CHECK(waited < 700ms);
    CHECK_FALSE(connection.connected());
    // The late PONG went to the dropped connection; a new one answers this command.
    REQUIRE(connection.command({"ECHO", "again"}, reply).isOk());
    CHECK(reply.str == "again");
  }
}

TEST_CASE("the same connection picks up a restarted Redis", "[redis]") {
  RedisProcess redis;
  startOrFail(redis);
  RedisConnection connection("127.0.0.1", redis.port(), 1000ms);
  RedisReply reply;
  REQUIRE(connection.command({"SET", "k", "before"}, reply).isOk());

  SECTION("Should fail while Redis is down and work once it is back") {
    redis.stop();
    CHECK(connection.command({"PING"}, reply).code() == StatusCode::kUnavailable);
    CHECK(connection.command({"PING"}, reply).code() == StatusCode::kUnavailable);
    startOrFail(redis);
    REQUIRE(connection.command({"PING"}, reply).isOk());
    REQUIRE(connection.command({"GET", "k"}, reply).isOk());
    CHECK(reply.isNil());  // no persistence: the restarted server is empty
  }
  SECTION("Should fail once on the dead socket and then reconnect") {
    redis.stop();
    startOrFail(redis);
    const Status first = connection.command({"PING"}, reply);
    CHECK(first.code() == StatusCode::kUnavailable);
    CHECK(first.message().rfind(endpointOf(redis), 0) == 0);
    REQUIRE(connection.command({"PING"}, reply).isOk());
    CHECK(reply.str == "PONG");
  }
}
