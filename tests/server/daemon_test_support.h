// Helpers for tests that run a whole daemon in-process on the demo world.
#pragma once

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch.hpp>

#include "config.h"

namespace npc::test {

// The demo config on ephemeral ports, at 5x speed, quiet, with a short shutdown.
inline DaemonConfig demoDaemonConfig() {
  DaemonConfig c;
  std::vector<std::string> errors;
  REQUIRE(loadConfigFile(NPCD_SOURCE_DIR "/config/npcd.json", c, errors));
  c.listen = "127.0.0.1:0";
  c.metrics_listen = "127.0.0.1:0";
  c.tick_hz = 50;  // the demo at 5x speed keeps the test short
  c.status_interval_s = 0;
  c.log_level = "warn";
  c.shutdown_grace_s = 1;
  return c;
}

template <class Pred>
bool waitFor(Pred pred, std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

// Minimal HTTP/1.0 GET over loopback (extra `headers` end with \r\n); the whole response.
inline std::string httpGet(int port, const std::string& target, const std::string& headers = "") {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
  const std::string request = "GET " + target + " HTTP/1.0\r\nHost: localhost\r\n" + headers + "\r\n";
  boost::asio::write(socket, boost::asio::buffer(request));
  std::string response;
  boost::system::error_code ec;
  char buf[8192];
  for (;;) {
    const size_t n = socket.read_some(boost::asio::buffer(buf), ec);
    response.append(buf, n);
    if (ec) break;
  }
  return response;
}

}  // namespace npc::test
