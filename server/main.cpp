// npcd: the NPC simulation daemon. See README.md for configuration and the API.
#include <chrono>
#include <csignal>
#include <functional>
#include <cstdio>
#include <iostream>
#include <string_view>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <spdlog/spdlog.h>

#include "build_info.h"
#include "check_command.h"
#include "command_line.h"
#include "config.h"
#include "daemon.h"
#include "goap/plan_command.h"
#include "logging.h"
#include "replay_command.h"
#include "shutdown_deadline.h"

namespace {
struct SteadyPlanClock : npc::goap::PlanClock {
  uint64_t nowNs() const override {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch()).count());
  }
};
}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "plan") {  // npcd plan DOMAIN.json ...
    const std::vector<std::string> args(argv + 2, argv + argc);
    const SteadyPlanClock clock;
    const npc::goap::PlanCommandResult r = npc::goap::planCommandMain(args, &clock);
    std::cout << r.out;
    std::cerr << r.err;
    return r.exit_code;
  }
  if (argc >= 2 && std::string_view(argv[1]) == "check") {  // npcd check [CONFIG|DIR]
    const npc::CheckCommandResult r = npc::checkCommandMain({argv + 2, argv + argc});
    std::cerr << r.err;
    std::cout << r.out;
    return r.exit_code;
  }
  if (argc >= 2 && std::string_view(argv[1]) == "replay") {  // npcd replay SNAPSHOT JOURNAL
    const npc::ReplayCommandResult r = npc::replayCommandMain({argv + 2, argv + argc});
    std::cout << r.out;
    std::cerr << r.err;
    return r.exit_code;
  }
  npc::CommandLine cli;
  std::string error;
  if (!npc::parseCommandLine(argc, argv, cli, error)) {
    std::cerr << "npcd: " << error << "\n";
    return 2;
  }
  if (cli.help) {
    std::cout << npc::usage();
    return 0;
  }
  if (cli.version) {
    std::cout << npc::versionLine() << "\n";
    return 0;
  }
  npc::DaemonConfig config;
  std::vector<std::string> errors;
  if (!npc::resolveConfig(cli, config, errors)) {
    for (const auto& e : errors) std::cerr << "npcd: " << e << "\n";
    return 2;
  }
  if (cli.check) {  // npcd --config FILE --check: the config the daemon would run
    const npc::CheckCommandResult r = npc::checkConfig(config);
    std::cerr << r.err;
    std::cout << r.out;
    return r.exit_code;
  }
  npc::setupLogging(config.log_level, config.log_format);

  npc::Daemon daemon(config);
  if (!daemon.start(errors)) {
    for (const auto& e : errors) spdlog::error(npc::logText(e));
    return 2;
  }
  // SIGHUP reloads the config file (and keeps waiting); SIGINT and SIGTERM stop.
  boost::asio::io_context signals_io;
  boost::asio::signal_set signals(signals_io, SIGINT, SIGTERM, SIGHUP);
  std::function<void(const boost::system::error_code&, int)> on_signal =
      [&](const boost::system::error_code&, int signal) {
        if (signal == SIGHUP) {
          spdlog::info(npc::logText("received SIGHUP: reloading " + config.source));
          daemon.requestConfigReload();
          signals.async_wait(on_signal);
          return;
        }
        spdlog::info(npc::logText(std::string("received ") +
                                  (signal == SIGINT ? "SIGINT" : "SIGTERM")));
      };
  signals.async_wait(on_signal);
  signals_io.run();
  // The stop is bounded: in-flight calls get shutdown_grace_s, the rest shutdown_limit_s.
  const double limit_s = config.shutdown_grace_s + config.watchdog.shutdown_limit_s;
  npc::ShutdownDeadline deadline(limit_s, [&daemon, limit_s] {
    spdlog::critical(npc::logText(fmt::format(
        "npcd did not stop within {:g} s ({}); exiting with code {}", limit_s,
        daemon.whereIsTheTick(), npc::ShutdownDeadline::kExitCode)));
    spdlog::default_logger()->flush();
  });
  daemon.shutdown();
  return 0;
}
