#include "base/thread_name.h"

#include <pthread.h>

namespace npc {

namespace {
constexpr size_t kMaxNameChars = 15;  // the kernel's TASK_COMM_LEN, less the terminator
}  // namespace

void setThreadName(std::string_view name) {
  const std::string cut(name.substr(0, kMaxNameChars));
  pthread_setname_np(pthread_self(), cut.c_str());
}

std::string threadName() {
  char name[kMaxNameChars + 1] = {};
  if (pthread_getname_np(pthread_self(), name, sizeof name) != 0) return {};
  return name;
}

}  // namespace npc
