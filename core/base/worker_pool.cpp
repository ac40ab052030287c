#include "base/worker_pool.h"

#include <string>

#include "base/thread_name.h"

namespace npc {

struct WorkerPool::Worker {
  std::binary_semaphore go{0};
  std::jthread thread;
};

WorkerPool::WorkerPool(unsigned threads) : size_(threads == 0 ? 1 : threads) {
  for (unsigned i = 1; i < size_; ++i) {
    auto worker = std::make_unique<Worker>();
    Worker& w = *worker;
    workers_.push_back(std::move(worker));
    w.thread = std::jthread([this, &w, i](std::stop_token stop) { serve(w, i, stop); });
  }
}

WorkerPool::~WorkerPool() {
  for (auto& w : workers_) {
    w->thread.request_stop();
    w->go.release();  // wakes it to see the stop
  }
  // jthread joins on destruction.
}

void WorkerPool::runErased(void* job, Trampoline call) {
  job_ = job;
  call_ = call;
  // release() orders the writes above before the worker's acquire in serve().
  for (auto& w : workers_) w->go.release();
  call(job, 0);
  // Each worker's release() orders its writes before this acquire.
  for (size_t i = 0; i < workers_.size(); ++i) done_.acquire();
}

void WorkerPool::serve(Worker& worker, unsigned index, std::stop_token stop) {
  setThreadName("npcd-pool-" + std::to_string(index));
  for (;;) {
    worker.go.acquire();
    if (stop.stop_requested()) return;
    call_(job_, index);
    done_.release();
  }
}

unsigned WorkerPool::hardwareThreads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

}  // namespace npc
