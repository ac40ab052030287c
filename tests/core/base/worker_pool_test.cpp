// WorkerPool: every worker index runs once per job, the job's writes are visible after
// run(), and one thread runs inline. forEachSlice: worker w gets the w-th contiguous slice.
#include <catch2/catch.hpp>

#include <thread>
#include <utility>
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

TEST_CASE("forEachSlice: worker w takes the w-th contiguous slice", "[base][worker_pool]") {
  SECTION("Should cover every row once, in slices ordered by worker, on a pool") {
    WorkerPool pool(3);
    std::vector<std::pair<size_t, size_t>> slices(3, {99, 99});
    std::vector<int> seen(10, 0);
    forEachSlice(&pool, 10, [&](size_t begin, size_t end, unsigned w) {
      slices[w] = {begin, end};
      for (size_t row = begin; row < end; ++row) ++seen[row];  // slices are disjoint
    });
    REQUIRE(slices == std::vector<std::pair<size_t, size_t>>{{0, 3}, {3, 6}, {6, 10}});
    REQUIRE(seen == std::vector<int>(10, 1));
  }
  SECTION("Should give empty slices to the extra workers when rows are fewer") {
    WorkerPool pool(4);
    std::vector<size_t> sizes(4, 99);
    forEachSlice(&pool, 2, [&](size_t begin, size_t end, unsigned w) { sizes[w] = end - begin; });
    REQUIRE(sizes == std::vector<size_t>{0, 1, 0, 1});
  }
  SECTION("Should run one slice of every row inline without a pool") {
    REQUIRE(workerCount(nullptr) == 1);
    int calls = 0;
    forEachSlice(nullptr, 7, [&](size_t begin, size_t end, unsigned w) {
      ++calls;
      REQUIRE(begin == 0);
      REQUIRE(end == 7);
      REQUIRE(w == 0);
    });
    REQUIRE(calls == 1);
  }
}
