// WorkerPool: a fixed set of threads that run one job at a time over worker indices, for the
// tick's per-agent phases (ARCHITECTURE.md "Threads").
//
//   WorkerPool pool(4);                            // the caller + 3 threads of its own
//   pool.run([&](unsigned worker) { ... });        // worker 0..3, returns when all are done
//
// run() calls the job once per worker index, index 0 on the calling thread and the others on
// the pool's threads, and returns after every call returned; what the calls wrote is then
// visible to the caller. Which work a worker does is the job's business (the phases give
// worker w a fixed range of agents, so results never depend on thread timing).
// Idle threads block on a semaphore: nothing spins between jobs. run() allocates nothing.
// A pool of one thread has no threads of its own and runs the job inline.
// Thread: run() from one thread at a time (the tick thread); the job must not call run().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <semaphore>
#include <thread>
#include <vector>

namespace npc {

class WorkerPool {
 public:
  // [Limit: threads >= 1; 0 is taken as 1]
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  unsigned size() const { return size_; }

  template <class Job>
  void run(Job&& job) {
    if (size_ == 1) {
      job(0u);
      return;
    }
    runErased(&job, [](void* j, unsigned worker) { (*static_cast<Job*>(j))(worker); });
  }

  // The number of threads the machine runs at once (1 when unknown).
  static unsigned hardwareThreads();

 private:
  using Trampoline = void (*)(void*, unsigned);
  struct Worker;
  void runErased(void* job, Trampoline call);
  void serve(Worker& worker, unsigned index, std::stop_token stop);

  unsigned size_;
  void* job_ = nullptr;            // written before the workers are released
  Trampoline call_ = nullptr;
  std::counting_semaphore<> done_{0};  // one release per worker per job
  std::vector<std::unique_ptr<Worker>> workers_;  // indices 1..size-1
};

// The workers a phase has: the pool's threads, or 1 without a pool.
inline unsigned workerCount(const WorkerPool* pool) { return pool ? pool->size() : 1u; }

// Splits rows [0, n) into workerCount(pool) contiguous slices and calls job(begin, end, w)
// for the w-th slice on worker w: inline without a pool (or with a pool of one thread), on
// the pool otherwise. Slice w depends on n and the worker count alone, so a phase that
// merges its workers' outputs in worker order gets them in row order, whatever the timing.
template <class Job>
void forEachSlice(WorkerPool* pool, size_t n, Job&& job) {
  const unsigned workers = workerCount(pool);
  if (workers == 1) {
    job(size_t{0}, n, 0u);
    return;
  }
  pool->run([&](unsigned w) { job(n * w / workers, n * (w + 1) / workers, w); });
}

}  // namespace npc
