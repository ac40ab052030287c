#include "debug/http_server.h"

#include <chrono>
#include <mutex>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "base/thread_name.h"

namespace npc {

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr size_t kMaxRequestBytes = 16 * 1024;
constexpr auto kIdleTimeout = std::chrono::seconds(60);

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string percentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%' && i + 2 < text.size() && hexValue(text[i + 1]) >= 0 &&
               hexValue(text[i + 2]) >= 0) {
      out += static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::map<std::string, std::string> parseQuery(std::string_view query) {
  std::map<std::string, std::string> out;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    if (!pair.empty()) {
      const size_t eq = pair.find('=');
      out[percentDecode(pair.substr(0, eq))] =
          eq == std::string_view::npos ? std::string() : percentDecode(pair.substr(eq + 1));
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

struct HttpServer::Listener {
  explicit Listener(asio::io_context& io) : acceptor(io) {}
  tcp::acceptor acceptor;
};

// Answers can arrive from the tick thread after stop(): they are posted only while the
// server is open, so nothing is posted to an io_context being destroyed.
struct HttpServer::Gate {
  std::mutex mutex;
  bool open = true;  // guarded by mutex
};

// One connection: read a request, let the handler answer (possibly later, from another
// thread: the answer is posted back to this connection's executor), write, repeat.
class HttpServer::Session : public std::enable_shared_from_this<HttpServer::Session> {
 public:
  Session(tcp::socket socket, const HttpHandler& handler, std::shared_ptr<Gate> gate)
      : stream_(std::move(socket)), handler_(handler), gate_(std::move(gate)) {}

  void read() {
    parser_.emplace();
    parser_->body_limit(kMaxRequestBytes);
    parser_->header_limit(kMaxRequestBytes);
    stream_.expires_after(kIdleTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->onRead(ec); });
  }

 private:
  void onRead(beast::error_code ec) {
    if (ec == http::error::body_limit || ec == http::error::header_limit) {
      reply(false, 11, {413, "text/plain", "request too large\n"});
      return;
    }
    if (ec) return close();
    const auto& message = parser_->get();
    HttpRequest request;
    request.method = std::string(message.method_string());
    const std::string_view target(message.target().data(), message.target().size());
    const size_t question = target.find('?');
    request.path = percentDecode(target.substr(0, question));
    if (question != std::string_view::npos) request.query = parseQuery(target.substr(question + 1));
    if (auto it = message.find(http::field::authorization); it != message.end()) {
      request.authorization = std::string(it->value());
    }
    const bool keep_alive = message.keep_alive();
    const unsigned version = message.version();
    const bool head = message.method() == http::verb::head;
    auto self = shared_from_this();
    handler_(request, [self, keep_alive, version, head](HttpResponse response) {
      std::lock_guard lock(self->gate_->mutex);
      if (!self->gate_->open) return;
      asio::post(self->stream_.get_executor(), [self, keep_alive, version, head, r = std::move(response)]() mutable {
        if (head) r.body.clear();
        self->reply(keep_alive, version, std::move(r));
      });
    });
  }

  void reply(bool keep_alive, unsigned version, HttpResponse r) {
    auto res = std::make_shared<http::response<http::string_body>>(
        static_cast<http::status>(r.status), version);
    res->set(http::field::server, "npcd");
    res->set(http::field::content_type, r.content_type);
    res->set(http::field::cache_control, "no-store");
    res->set("X-Content-Type-Options", "nosniff");
    res->keep_alive(keep_alive);
    res->body() = std::move(r.body);
    res->prepare_payload();
    stream_.expires_after(kIdleTimeout);
    http::async_write(stream_, *res,
                      [self = shared_from_this(), res, keep_alive](beast::error_code ec, size_t) {
                        if (ec || !keep_alive) return self->close();
                        self->read();
                      });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  beast::tcp_stream stream_;
  const HttpHandler& handler_;
  std::shared_ptr<Gate> gate_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

HttpServer::HttpServer(HttpHandler handler)
    : handler_(std::move(handler)),
      listener_(std::make_unique<Listener>(io_)),
      gate_(std::make_shared<Gate>()) {}

HttpServer::~HttpServer() { stop(); }

bool HttpServer::start(const std::string& listen, std::string& error) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos) {
    error = "debug_listen \"" + listen + "\": expected host:port";
    return false;
  }
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string service = listen.substr(colon + 1);
  beast::error_code ec;
  tcp::resolver resolver(io_);
  const auto endpoints = resolver.resolve(host, service, tcp::resolver::passive, ec);
  if (ec || endpoints.empty()) {
    error = "debug_listen \"" + listen + "\": cannot resolve (" + ec.message() + ")";
    return false;
  }
  const tcp::endpoint endpoint = endpoints.begin()->endpoint();
  tcp::acceptor& acceptor = listener_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    error = "cannot listen on " + listen + " for the debug page (" + ec.message() + ")";
    return false;
  }
  port_ = acceptor.local_endpoint().port();
  accept();
  thread_ = std::thread([this] {
    setThreadName("npcd-debug-http");
    io_.run();
  });
  return true;
}

void HttpServer::accept() {
  listener_->acceptor.async_accept(asio::make_strand(io_), [this](beast::error_code ec, tcp::socket socket) {
    if (ec) return;  // closed by stop()
    std::make_shared<Session>(std::move(socket), handler_, gate_)->read();
    accept();
  });
}

void HttpServer::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(gate_->mutex);
    gate_->open = false;
  }
  asio::post(io_, [this] {
    beast::error_code ignored;
    listener_->acceptor.close(ignored);
  });
  io_.stop();
  thread_.join();
}

}  // namespace npc
