// setThreadName: the name a thread is given is the one the kernel reports, cut to 15 chars.
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include "base/thread_name.h"

using namespace npc;

TEST_CASE("setThreadName names the calling thread only") {
  std::string inside;
  const std::string before = threadName();
  std::thread([&] {
    setThreadName("npcd-test");
    inside = threadName();
  }).join();
  CHECK(inside == "npcd-test");
  CHECK(threadName() == before);  // this thread's own name did not change
}

TEST_CASE("setThreadName cuts a long name to the kernel's 15 characters") {
  std::string inside;
  std::thread([&] {
    setThreadName("npcd-a-very-long-thread-name");
    inside = threadName();
  }).join();
  CHECK(inside == "npcd-a-very-lon");
}
