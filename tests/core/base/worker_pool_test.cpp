// WorkerPool: every worker index runs once per job, the job's writes are visible after
// run(), and one thread runs inline.
#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include "base/worker_pool.h"

using namespace npc;

TEST_CASE("WorkerPool: runs a job once per worker", "[base][worker_pool]") {
  SECTION("Should call each worker index exactly once, index 0 on the calling thread") {
    WorkerPool pool(4);
    REQUIRE(pool.size() == 4);
    std::vector<int> calls(4, 0);
    std::vector<std::thread::id> threads(4);
    pool.run([&](unsigned w) {
      ++calls[w];
      threads[w] = std::this_thread::get_id();
    });
    REQUIRE(calls == std::vector<int>{1, 1, 1, 1});
    REQUIRE(threads[0] == std::this_thread::get_id());
    for (unsigned w = 1; w < 4; ++w) REQUIRE(threads[w] != std::this_thread::get_id());
  }
  SECTION("Should make every worker's writes visible after run, job after job") {
    WorkerPool pool(3);
    std::vector<uint64_t> sums(3, 0);
    for (uint64_t job = 1; job <= 200; ++job) {
      pool.run([&](unsigned w) {
        for (uint64_t i = w; i < 3000; i += 3) sums[w] += i * job;
      });
    }
    uint64_t total = 0;
    for (uint64_t s : sums) total += s;
    // sum over jobs of job * sum(0..2999)
    REQUIRE(total == (200ull * 201 / 2) * (2999ull * 3000 / 2));
  }
  SECTION("Should run inline with one thread, and take 0 threads as 1") {
    WorkerPool pool(0);
    REQUIRE(pool.size() == 1);
    std::thread::id ran;
    pool.run([&](unsigned w) {
      REQUIRE(w == 0);
      ran = std::this_thread::get_id();
    });
    REQUIRE(ran == std::this_thread::get_id());
  }
}
