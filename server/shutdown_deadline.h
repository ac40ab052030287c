// ShutdownDeadline: the bound on a graceful stop. Armed when SIGTERM/SIGINT arrives; if the
// stop has not finished when it expires (a tick stuck in a loop, a call that never ends),
// it runs `on_expire` (log where the tick is) and ends the process with _exit(kExitCode):
// no destructors, no joins, nothing that could wait on the stuck thread.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace npc {

class ShutdownDeadline {
 public:
  static constexpr int kExitCode = 3;  // distinct from 0 (clean stop) and 2 (bad start-up)

  // Arms the deadline `limit_s` from now [Limit: >= 0].
  ShutdownDeadline(double limit_s, std::function<void()> on_expire);
  // Disarms it (the stop finished in time).
  ~ShutdownDeadline();
  ShutdownDeadline(const ShutdownDeadline&) = delete;
  ShutdownDeadline& operator=(const ShutdownDeadline&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;  // guarded by mutex_
  std::thread thread_;
};

}  // namespace npc
