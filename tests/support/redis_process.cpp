#include "support/redis_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace npc {

namespace {

constexpr auto kStartTimeout = std::chrono::seconds(5);

sockaddr_in loopback(int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return addr;
}

// A port the kernel just handed out for loopback; free unless someone takes it in between.
int freeLoopbackPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr = loopback(0);
  socklen_t len = sizeof(addr);
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  ::close(fd);
  return port;
}

// redis-server from PATH, or Debian's location; empty when not installed.
std::string findRedisServer() {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream in(path);
    for (std::string dir; std::getline(in, dir, ':');) dirs.push_back(dir);
  }
  dirs.push_back("/usr/bin");
  dirs.push_back("/usr/sbin");
  for (const std::string& dir : dirs) {
    const std::string candidate = dir + "/redis-server";
    if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

std::string makeTempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "npcd-redis-XXXXXX").string();
  return ::mkdtemp(pattern.data()) != nullptr ? pattern : std::string();
}

}  // namespace

RedisProcess::RedisProcess() : port_(freeLoopbackPort()), dir_(makeTempDir()) {}

RedisProcess::~RedisProcess() {
  stop();
  if (!dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
}

std::string RedisProcess::log() const {
  std::ifstream in(dir_ + "/redis.log");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool RedisProcess::answersPing() const {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  const timeval tv{0, 200'000};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  const sockaddr_in addr = loopback(port_);
  bool pong = false;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0 &&
      ::write(fd, "PING\r\n", 6) == 6) {
    char reply[16] = {};
    pong = ::read(fd, reply, sizeof(reply) - 1) >= 7 && std::string(reply, 7) == "+PONG\r\n";
  }
  ::close(fd);
  return pong;
}

Status RedisProcess::start() {
  if (running()) return Status::ok();
  const std::string server = findRedisServer();
  if (server.empty()) {
    return {StatusCode::kUnavailable,
            "redis-server is not installed (Debian package redis-server; scripts/setup.sh "
            "installs it)"};
  }
  if (port_ == 0 || dir_.empty()) {
    return {StatusCode::kUnavailable, "no free loopback port or temporary directory"};
  }
  const std::string port = std::to_string(port_);
  std::vector<std::string> args = {server, "--port", port, "--bind", "127.0.0.1",
                                   "--save", "", "--appendonly", "no", "--dir", dir_};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string log_path = dir_ + "/redis.log";
  const int log_fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) return {StatusCode::kUnavailable, "cannot open " + log_path};

  // Everything the child needs is prepared above: after fork it only makes system calls.
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(log_fd);
  if (pid < 0) return {StatusCode::kUnavailable, "fork failed for " + server};
  pid_ = pid;

  const auto deadline = std::chrono::steady_clock::now() + kStartTimeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (answersPing()) return Status::ok();
    int wstatus = 0;
    if (::waitpid(pid_, &wstatus, WNOHANG) == pid_) {
      pid_ = -1;
      return {StatusCode::kUnavailable,
              "redis-server on port " + port + " exited at start; its log:\n" + log()};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  stop();
  return {StatusCode::kUnavailable, "redis-server on port " + port +
                                        " did not answer PING within 5 s; its log:\n" + log()};
}

void RedisProcess::stop() {
  if (!running()) return;
  ::kill(pid_, SIGKILL);  // also ends a paused server
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void RedisProcess::pause() {
  if (running()) ::kill(pid_, SIGSTOP);
}

void RedisProcess::resume() {
  if (running()) ::kill(pid_, SIGCONT);
}

}  // namespace npc
