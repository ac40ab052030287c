#include "latency.h"

#include <catch2/catch.hpp>

namespace npc::bots {
namespace {

TEST_CASE("LatencyBook") {
  SECTION("Should measure against the smallest offset seen, anchors included") {
    LatencyBook book;
    book.add({0.05, 0.010, 0}, 0.0, 100.0);  // the Welcome: anchors only
    book.add({1.00, 0.030, 1}, 0.0, 100.0);
    book.add({2.00, 0.020, 1}, 0.0, 100.0);
    CHECK(book.base() == Approx(0.010));
    const LatencySummary s = book.run();
    CHECK(s.actions == 2);
    CHECK(s.p50_s == Approx(0.010));
    CHECK(s.max_s == Approx(0.020));
  }

  SECTION("Should weight percentiles by the actions each message carried") {
    LatencyBook book;
    book.add({1.0, 0.0, 99}, 0.0, 100.0);
    book.add({2.0, 0.5, 1}, 0.0, 100.0);
    LatencySummary s = book.run();
    CHECK(s.p50_s == Approx(0.0));
    CHECK(s.p99_s == Approx(0.0));
    book.add({3.0, 0.5, 1}, 0.0, 100.0);
    s = book.run();
    CHECK(s.p99_s == Approx(0.5));
  }

  SECTION("Should keep only the measured window for the run and forget the live window") {
    LatencyBook book;
    book.add({0.5, 0.0, 1}, 1.0, 3.0);  // warm-up
    book.add({1.5, 0.1, 1}, 1.0, 3.0);
    book.add({3.5, 0.9, 1}, 1.0, 3.0);  // after the end
    CHECK(book.run().actions == 1);
    CHECK(book.takeWindow().actions == 3);
    CHECK(book.takeWindow().actions == 0);
  }
}

}  // namespace
}  // namespace npc::bots
