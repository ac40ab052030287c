// npcd: the NPC simulation daemon. See README.md for configuration and the API.
#include <csignal>
#include <cstdio>
#include <iostream>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <spdlog/spdlog.h>

#include "build_info.h"
#include "config.h"
#include "daemon.h"
#include "logging.h"

int main(int argc, char** argv) {
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
  npc::setupLogging(config.log_level, config.log_format);

  npc::Daemon daemon(config);
  if (!daemon.start(errors)) {
    for (const auto& e : errors) spdlog::error(npc::logText(e));
    return 2;
  }
  boost::asio::io_context signals_io;
  boost::asio::signal_set signals(signals_io, SIGINT, SIGTERM);
  signals.async_wait([](const boost::system::error_code&, int signal) {
    spdlog::info(npc::logText(std::string("received ") + (signal == SIGINT ? "SIGINT" : "SIGTERM")));
  });
  signals_io.run();
  daemon.shutdown();
  return 0;
}
