#include "snapshot_writer.h"

#include <chrono>
#include <future>

#include <spdlog/spdlog.h>

#include "base/thread_name.h"
#include "logging.h"
#include "sim/simulation.h"
#include "sim_state_codec.h"
#include "sim_state_copy.h"

namespace npc {

struct SnapshotWriter::Job {
  SimStateCopy copy;  // filled on the tick thread, read on the writer's
  SnapshotInfo info;
  std::vector<Done> done;
};

SnapshotWriter::SnapshotWriter(const SnapshotConfig& config, std::string definitions_hash,
                               uint64_t world_seed)
    : store_(config.dir, config.keep),
      interval_s_(config.interval_s),
      definitions_hash_(std::move(definitions_hash)),
      world_seed_(world_seed),
      thread_([this] {
        setThreadName("npcd-snapshot");
        run();
      }) {}

SnapshotWriter::~SnapshotWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void SnapshotWriter::setDefinitionsHash(std::string hash) { definitions_hash_ = std::move(hash); }

void SnapshotWriter::request(Done done) {
  std::lock_guard lock(mutex_);
  requests_.push_back(std::move(done));
}

void SnapshotWriter::afterTick(Simulation& sim) {
  const double now = sim.timeS();
  if (!scheduled_) {  // the first one an interval after start (or restore)
    next_due_s_ = now + interval_s_;
    scheduled_ = true;
  }
  std::vector<Done> done;
  {
    std::lock_guard lock(mutex_);
    done.swap(requests_);
  }
  const bool due = interval_s_ > 0.0 && now >= next_due_s_;
  if (!due && done.empty()) return;
  if (due) next_due_s_ = now + interval_s_;
  capture(sim, std::move(done));
}

void SnapshotWriter::capture(Simulation& sim, std::vector<Done> done) {
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Job> job;
  {
    std::lock_guard lock(mutex_);
    if (!spare_.empty()) {
      job = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  if (!job) job = std::make_unique<Job>();
  copySimState(sim, job->copy);
  job->info.definitions_hash = definitions_hash_;
  job->info.world_seed = world_seed_;
  job->info.sim_time_s = sim.timeS();
  job->done = std::move(done);
  if (on_capture_) on_capture_(job->copy.tick);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  {
    std::lock_guard lock(mutex_);
    last_capture_ms_ = ms;
    jobs_.push_back(std::move(job));
  }
  wake_.notify_all();
}

SnapshotResult SnapshotWriter::takeNow(Simulation& sim) {
  auto promise = std::make_shared<std::promise<SnapshotResult>>();
  std::future<SnapshotResult> result = promise->get_future();
  capture(sim, {[promise](const SnapshotResult& r) { promise->set_value(r); }});
  return result.get();
}

void SnapshotWriter::run() {
  for (;;) {
    std::unique_ptr<Job> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, everything written
      job = std::move(jobs_.front());
      jobs_.erase(jobs_.begin());
    }
    SnapshotResult r;
    r.tick = job->copy.tick;
    std::string bytes;
    {
      pb::SimState state;
      buildSimState(job->copy, state);
      bytes = encodeSnapshot(state, job->info);
    }
    r.bytes = bytes.size();
    r.status = store_.write(r.tick, bytes, r.path);
    if (r.status.isOk()) {
      spdlog::info(logEvent("snapshot written",
                            "snapshot of tick " + std::to_string(r.tick) + " written to " +
                                r.path + " (" + std::to_string(r.bytes) + " bytes)",
                            {{"tick", r.tick}, {"path", r.path}, {"bytes", r.bytes}}));
      std::lock_guard lock(mutex_);
      ++written_;
    } else {
      spdlog::error(logEvent("snapshot not written",
                             "snapshot of tick " + std::to_string(r.tick) + " not written: " +
                                 r.status.message(),
                             {{"tick", r.tick}, {"error", r.status.message()}}));
    }
    for (const Done& done : job->done) done(r);
    job->done.clear();
    std::lock_guard lock(mutex_);
    if (spare_.empty()) spare_.push_back(std::move(job));  // one kept: captures are rare
  }
}

double SnapshotWriter::lastCaptureMs() const {
  std::lock_guard lock(mutex_);
  return last_capture_ms_;
}

uint64_t SnapshotWriter::written() const {
  std::lock_guard lock(mutex_);
  return written_;
}

}  // namespace npc
