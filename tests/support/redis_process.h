// RedisProcess: a private redis-server for one test, on a free loopback port, without
// persistence (a restart comes back empty, as a Redis that lost its data would).
//
// The server runs in the foreground as a child of the test process (its output goes to a
// log file in its own temporary directory) and is killed by stop() or the destructor; if
// the test process dies first the kernel kills it too. Missing redis-server is a failure,
// not a skip: scripts/setup.sh installs it.
#pragma once

#include <string>
#include <sys/types.h>

#include "base/status.h"

namespace npc {

class RedisProcess {
 public:
  RedisProcess();  // picks the port; does not start
  ~RedisProcess();  // kills the server and removes its directory
  RedisProcess(const RedisProcess&) = delete;
  RedisProcess& operator=(const RedisProcess&) = delete;

  // Starts redis-server on port() and waits (at most 5 s) until it answers PING. Calling it
  // again after stop() restarts on the same port. Fails naming what went wrong, with the
  // end of the server's log when it exited.
  Status start();
  // Kills the server (SIGKILL, as a crash would) and waits for it to exit.
  void stop();
  // Freezes and thaws the server (SIGSTOP/SIGCONT): connections stay open, nothing answers.
  void pause();
  void resume();

  int port() const { return port_; }
  bool running() const { return pid_ > 0; }
  // The server's stdout and stderr so far.
  std::string log() const;

 private:
  bool answersPing() const;

  int port_ = 0;
  pid_t pid_ = -1;
  std::string dir_;  // temporary: the log and anything the server writes
};

}  // namespace npc
