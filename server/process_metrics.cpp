#include "process_metrics.h"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include <prometheus/metric_family.h>

namespace npc {

namespace {

std::string readFile(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The "btime" line of /proc/stat: when the machine booted, seconds since the epoch.
double bootTimeSeconds() {
  std::istringstream in(readFile("/proc/stat"));
  std::string key;
  double value = 0.0;
  while (in >> key) {
    if (key == "btime" && in >> value) return value;
    in.ignore(1 << 20, '\n');
  }
  return 0.0;
}

double openFds() {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return 0.0;
  double n = 0.0;
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') n += 1.0;
  }
  closedir(dir);
  return n - 1.0;  // the descriptor opendir itself holds
}

prometheus::MetricFamily family(const char* name, const char* help, prometheus::MetricType type,
                                double value) {
  prometheus::MetricFamily f;
  f.name = name;
  f.help = help;
  f.type = type;
  prometheus::ClientMetric m;
  if (type == prometheus::MetricType::Counter) {
    m.counter.value = value;
  } else {
    m.gauge.value = value;
  }
  f.metric.push_back(m);
  return f;
}

}  // namespace

std::optional<ProcessSample> parseProcStat(const std::string& stat, double ticks_per_s,
                                           double page_bytes, double boot_time_s) {
  // "pid (comm) state ppid ...": comm may hold ") ", so the fields start after the last ')'.
  const size_t close = stat.rfind(')');
  if (close == std::string::npos || ticks_per_s <= 0.0) return std::nullopt;
  std::istringstream in(stat.substr(close + 1));
  std::vector<std::string> fields;  // fields[0] is field 3 (state)
  for (std::string f; in >> f;) fields.push_back(f);
  // utime 14, stime 15, starttime 22, vsize 23, rss 24 (proc(5), counted from 1).
  if (fields.size() < 22) return std::nullopt;
  auto field = [&](int number) { return std::strtod(fields[number - 3].c_str(), nullptr); };
  ProcessSample s;
  s.cpu_seconds = (field(14) + field(15)) / ticks_per_s;
  s.start_time_seconds = boot_time_s + field(22) / ticks_per_s;
  s.virtual_bytes = field(23);
  s.resident_bytes = field(24) * page_bytes;
  return s;
}

std::optional<ProcessSample> readProcessSample() {
  const std::string stat = readFile("/proc/self/stat");
  auto s = parseProcStat(stat, static_cast<double>(sysconf(_SC_CLK_TCK)),
                         static_cast<double>(sysconf(_SC_PAGESIZE)), bootTimeSeconds());
  if (!s) return std::nullopt;
  s->open_fds = openFds();
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) s->max_fds = static_cast<double>(limit.rlim_cur);
  return s;
}

std::vector<ThreadCpu> readThreadCpu() {
  std::vector<ThreadCpu> threads;
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return threads;
  const auto ticks_per_s = static_cast<double>(sysconf(_SC_CLK_TCK));
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    const std::string task = std::string("/proc/self/task/") + entry->d_name;
    // A thread's stat line has the process's layout; memory and start time are not used.
    const auto s = parseProcStat(readFile((task + "/stat").c_str()), ticks_per_s, 0.0, 0.0);
    if (!s) continue;  // it ended meanwhile
    ThreadCpu t;
    std::getline(std::ifstream(task + "/comm"), t.name);
    t.cpu_seconds = s->cpu_seconds;
    threads.push_back(std::move(t));
  }
  closedir(dir);
  return threads;
}

std::string threadCpuLabel(const std::string& name) {
  if (name.rfind("npcd-pool", 0) == 0) return "npcd-pool";
  if (name.rfind("npcd-", 0) == 0) return name;
  return "other";
}

std::vector<prometheus::MetricFamily> ProcessMetrics::Collect() const {
  const auto s = readProcessSample();
  if (!s) return {};
  using prometheus::MetricType;
  // A thread that ended took its CPU time with it: "other" (gRPC's threads come and go)
  // can then fall, which Prometheus' rate() reads as a counter reset.
  std::map<std::string, double> by_thread;
  for (const ThreadCpu& t : readThreadCpu()) by_thread[threadCpuLabel(t.name)] += t.cpu_seconds;
  prometheus::MetricFamily threads;
  threads.name = "npcd_thread_cpu_seconds_total";
  threads.help = "CPU time (user and system) of the daemon's threads, by thread";
  threads.type = MetricType::Counter;
  for (const auto& [label, seconds] : by_thread) {
    prometheus::ClientMetric m;
    m.label.push_back({"thread", label});
    m.counter.value = seconds;
    threads.metric.push_back(m);
  }
  return {
      threads,
      family("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.",
             MetricType::Counter, s->cpu_seconds),
      family("process_resident_memory_bytes", "Resident memory size in bytes.",
             MetricType::Gauge, s->resident_bytes),
      family("process_virtual_memory_bytes", "Virtual memory size in bytes.", MetricType::Gauge,
             s->virtual_bytes),
      family("process_start_time_seconds",
             "Start time of the process since unix epoch in seconds.", MetricType::Gauge,
             s->start_time_seconds),
      family("process_open_fds", "Number of open file descriptors.", MetricType::Gauge,
             s->open_fds),
      family("process_max_fds", "Maximum number of open file descriptors.", MetricType::Gauge,
             s->max_fds),
  };
}

}  // namespace npc
