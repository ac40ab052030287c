#include "shutdown_deadline.h"

#include <unistd.h>

#include <chrono>

#include "base/thread_name.h"

namespace npc {

ShutdownDeadline::ShutdownDeadline(double limit_s, std::function<void()> on_expire) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(limit_s));
  thread_ = std::thread([this, deadline, on_expire = std::move(on_expire)] {
    setThreadName("npcd-shutdown");
    std::unique_lock lock(mutex_);
    if (done_cv_.wait_until(lock, deadline, [this] { return done_; })) return;
    lock.unlock();
    if (on_expire) on_expire();
    _exit(kExitCode);
  });
}

ShutdownDeadline::~ShutdownDeadline() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  done_cv_.notify_all();
  thread_.join();
}

}  // namespace npc
