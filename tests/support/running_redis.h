// A private redis-server for one test: started in the constructor, and the test fails at
// once (naming why) when it cannot start; killed with the object.
#pragma once

#include <catch2/catch.hpp>

#include "support/redis_process.h"

namespace npc::test {

struct RunningRedis {
  RedisProcess process;
  RunningRedis() {
    const Status started = process.start();
    if (!started.isOk()) FAIL(started.message());
  }
};

}  // namespace npc::test
