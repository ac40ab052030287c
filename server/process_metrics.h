// ProcessMetrics: the standard Prometheus process figures of the npcd process, read from
// /proc when /metrics is scraped (not on the tick): process_cpu_seconds_total,
// process_resident_memory_bytes, process_virtual_memory_bytes, process_open_fds,
// process_max_fds and process_start_time_seconds, named as every Prometheus client library
// names them so stock dashboards and alerts work unchanged; and npcd's own
// npcd_thread_cpu_seconds_total{thread}, the CPU time of each of the daemon's named threads
// (its pool's together, gRPC's and the rest as "other"), so that a tick thread near one
// core's worth a second says the tick is the ceiling.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <prometheus/collectable.h>

namespace npc {

// One reading of the process's figures (the parts of /proc/self/stat and friends we use).
struct ProcessSample {
  double cpu_seconds = 0.0;       // user + system
  double resident_bytes = 0.0;
  double virtual_bytes = 0.0;
  double start_time_seconds = 0.0;  // since the Unix epoch
  double open_fds = 0.0;
  double max_fds = 0.0;
};

// Parses the text of /proc/<pid>/stat (`stat`) with the system's clock ticks per second,
// page size and boot time (seconds since the epoch). nullopt when the text is not a stat
// line (the command name in parentheses may itself hold spaces and parentheses).
std::optional<ProcessSample> parseProcStat(const std::string& stat, double ticks_per_s,
                                           double page_bytes, double boot_time_s);

// Reads /proc/self: nullopt where /proc is not there (the collector then exposes nothing).
std::optional<ProcessSample> readProcessSample();

// One live thread of this process: its name (base/thread_name.h) and CPU time so far.
struct ThreadCpu {
  std::string name;
  double cpu_seconds = 0.0;  // user + system
};

// Every live thread of this process, from /proc/self/task (empty where /proc is not there).
std::vector<ThreadCpu> readThreadCpu();

// The `thread` label a thread's CPU time is counted under: the daemon's own threads by name
// ("npcd-tick"), its pool's workers together ("npcd-pool"), everything else "other".
std::string threadCpuLabel(const std::string& name);

class ProcessMetrics : public prometheus::Collectable {
 public:
  std::vector<prometheus::MetricFamily> Collect() const override;
};

}  // namespace npc
