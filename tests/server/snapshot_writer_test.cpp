// SnapshotWriter: snapshots every interval of simulated time, on request and on demand,
// written off the tick thread into the snapshot directory with only the newest kept.
#include <filesystem>
#include <future>

#include <catch2/catch.hpp>

#include "sim/simulation.h"
#include "snapshot_file.h"
#include "snapshot_writer.h"

using namespace npc;

namespace {

struct WriterFixture {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("npcd-writer-test-" + std::to_string(::getpid()));
  Simulation sim{SimConfig{}, ArchetypeSet{}};
  WriterFixture() { std::filesystem::remove_all(dir); }
  ~WriterFixture() { std::filesystem::remove_all(dir); }
  SnapshotConfig config(double interval_s, uint32_t keep) const {
    SnapshotConfig c;
    c.dir = dir.string();
    c.interval_s = interval_s;
    c.keep = keep;
    return c;
  }
};

}  // namespace

TEST_CASE("snapshots are taken every interval and only the newest are kept", "[snapshot]") {
  WriterFixture f;
  {
    SnapshotWriter writer(f.config(0.55, 2), "0123456789abcdef", 1);
    for (int t = 0; t < 22; ++t) {  // 2.2 s of 0.1 s ticks: due at ticks 7, 13 and 19
      f.sim.tick();
      writer.afterTick(f.sim);
    }
  }  // the destructor writes what was captured
  const SnapshotStore store(f.dir.string(), 2);
  const std::vector<std::string> files = store.list();
  REQUIRE(files.size() == 2);
  CHECK(files[0] == store.pathFor(19));
  CHECK(files[1] == store.pathFor(13));
  pb::SnapshotHeader header;
  pb::SimState state;
  const Status read = readSnapshotFile(files[0], "0123456789abcdef", header, state);
  INFO(read.message());
  REQUIRE(read.isOk());
  CHECK(state.tick() == 19);
  CHECK(header.world_seed() == 1);
}

TEST_CASE("a requested snapshot is taken after the next tick and reported", "[snapshot]") {
  WriterFixture f;
  SnapshotWriter writer(f.config(0.0, 3), "0123456789abcdef", 1);
  std::promise<SnapshotResult> written;
  writer.request([&](const SnapshotResult& r) { written.set_value(r); });
  f.sim.tick();
  f.sim.tick();
  writer.afterTick(f.sim);
  const SnapshotResult r = written.get_future().get();
  REQUIRE(r.status.isOk());
  CHECK(r.tick == 2);
  CHECK(r.path == SnapshotStore(f.dir.string(), 3).pathFor(2));
  CHECK(r.bytes == std::filesystem::file_size(r.path));
  f.sim.tick();
  writer.afterTick(f.sim);  // no interval, no request: nothing more
  CHECK(writer.written() == 1);
  const SnapshotResult now = writer.takeNow(f.sim);
  CHECK(now.tick == 3);
  CHECK(writer.written() == 2);
}

TEST_CASE("a snapshot that cannot be written reports why", "[snapshot]") {
  WriterFixture f;
  SnapshotConfig config = f.config(0.0, 1);
  config.dir = "/proc/npcd-cannot-write-here";
  SnapshotWriter writer(config, "0123456789abcdef", 1);
  f.sim.tick();
  const SnapshotResult r = writer.takeNow(f.sim);
  CHECK_FALSE(r.status.isOk());
  CHECK_THAT(r.status.message(), Catch::StartsWith("/proc/npcd-cannot-write-here: cannot create: "));
  CHECK(writer.written() == 0);
}
