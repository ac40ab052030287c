// ProcessMetrics: the /proc/self/stat parser, a live reading of this test process and of its
// threads.
#include <atomic>
#include <thread>

#include <catch2/catch.hpp>

#include "base/thread_name.h"
#include "process_metrics.h"

using namespace npc;

TEST_CASE("parseProcStat reads CPU, memory and start time from a stat line", "[process_metrics]") {
  // proc(5): pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
  // utime stime cutime cstime priority nice threads itrealvalue starttime vsize rss ...
  // The command name may hold spaces and parentheses; the fields follow the last ')'.
  const std::string stat =
      "4711 (npcd (a) b) S 1 4711 4711 0 -1 4194560 900 0 0 0 250 50 0 0 20 0 4 0 1000 "
      "123456789 2048 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
  const auto s = parseProcStat(stat, 100.0, 4096.0, 1.7e9);
  REQUIRE(s);
  CHECK(s->cpu_seconds == Approx(3.0));            // (250 + 50) / 100
  CHECK(s->start_time_seconds == Approx(1.7e9 + 10.0));  // boot + 1000 / 100
  CHECK(s->virtual_bytes == Approx(123456789.0));
  CHECK(s->resident_bytes == Approx(2048.0 * 4096.0));
}

TEST_CASE("parseProcStat refuses what is not a stat line", "[process_metrics]") {
  CHECK_FALSE(parseProcStat("", 100.0, 4096.0, 0.0));
  CHECK_FALSE(parseProcStat("4711 npcd S 1 2 3", 100.0, 4096.0, 0.0));
  CHECK_FALSE(parseProcStat("4711 (npcd) S 1 2 3", 100.0, 4096.0, 0.0));
}

TEST_CASE("readProcessSample reads this process", "[process_metrics]") {
  const auto s = readProcessSample();
  REQUIRE(s);
  CHECK(s->resident_bytes > 1e5);
  CHECK(s->virtual_bytes >= s->resident_bytes);
  CHECK(s->open_fds >= 3.0);  // stdin, stdout, stderr at least
  CHECK(s->max_fds >= s->open_fds);
  CHECK(s->start_time_seconds > 1.0e9);
  CHECK(s->cpu_seconds >= 0.0);
}

TEST_CASE("readThreadCpu lists this process's threads by name", "[process_metrics]") {
  std::atomic<bool> named{false}, stop{false};
  std::thread worker([&] {
    setThreadName("npcd-cpu-test");
    named = true;
    while (!stop) std::this_thread::yield();
  });
  while (!named) std::this_thread::yield();
  const std::vector<ThreadCpu> threads = readThreadCpu();
  stop = true;
  worker.join();
  CHECK(threads.size() >= 2);
  size_t found = 0;
  for (const ThreadCpu& t : threads) {
    CHECK(t.cpu_seconds >= 0.0);
    if (t.name == "npcd-cpu-test") ++found;
  }
  CHECK(found == 1);
}

TEST_CASE("threadCpuLabel keeps the daemon's thread names and folds the rest", "[process_metrics]") {
  CHECK(threadCpuLabel("npcd-tick") == "npcd-tick");
  CHECK(threadCpuLabel("npcd-watchdog") == "npcd-watchdog");
  CHECK(threadCpuLabel("npcd-pool-1") == "npcd-pool");
  CHECK(threadCpuLabel("npcd-pool-12") == "npcd-pool");
  CHECK(threadCpuLabel("grpcpp_sync_ser") == "other");
  CHECK(threadCpuLabel("") == "other");
}
