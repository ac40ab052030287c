// HttpServer: a small HTTP/1.1 server (Boost.Beast) on its own thread and io_context, for
// the debug page. It parses GET requests (path, query parameters, Authorization header)
// and hands them to one handler; the handler answers through a responder it may call later
// from any thread (answers that wait on a tick are called from the tick thread), and the
// answer is written on the server's own thread. Keep-alive connections, requests over
// 16 KiB refused (413), idle connections closed after 60 s.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include <boost/asio/io_context.hpp>

namespace npc {

struct HttpRequest {
  std::string method;                        // "GET", "HEAD", ...
  std::string path;                          // "/api/agent", decoded
  std::map<std::string, std::string> query;  // ?id=1101&trace=1, decoded
  std::string authorization;                 // the Authorization header, as sent
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

using HttpResponder = std::function<void(HttpResponse)>;
// Must call the responder exactly once (a responder dropped uncalled closes the connection).
using HttpHandler = std::function<void(const HttpRequest&, HttpResponder)>;

// "a=1&b=%2Fx" -> {a: 1, b: /x}; '+' is a space. Malformed escapes are kept as written.
std::map<std::string, std::string> parseQuery(std::string_view query);
std::string percentDecode(std::string_view text);

class HttpServer {
 public:
  explicit HttpServer(HttpHandler handler);
  ~HttpServer();  // stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds `listen` ("host:port"; port 0 picks a free one) and starts serving. Returns false
  // with a message naming the address when it cannot.
  bool start(const std::string& listen, std::string& error);
  int port() const { return port_; }
  // Closes the listener and every connection, joins the thread. Idempotent.
  void stop();

 private:
  class Session;
  void accept();

  HttpHandler handler_;
  boost::asio::io_context io_;
  struct Listener;
  struct Gate;
  std::unique_ptr<Listener> listener_;
  std::shared_ptr<Gate> gate_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace npc
