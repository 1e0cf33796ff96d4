#pragma once
// A lanebench-sim child process serving one lane on a free loopback port, stopped (SIGTERM, then
// waited for) when the object goes.
#include <string>
#include <vector>

namespace lb::bench {

class SimProcess {
 public:
  // Starts PROGRAM with ARGS plus "--port N" and waits (up to 15 s) until the port takes
  // connections; false with *error when it cannot. With normal_priority the child runs under the
  // default time-sharing policy even when this process has real-time priority: the simulator
  // stands in for a server on another machine and must not take the client's core from it.
  bool start(const std::string& program, std::vector<std::string> args, std::string* error,
             bool normal_priority = true);
  ~SimProcess();
  int port() const { return port_; }

 private:
  int pid_ = 0;
  int port_ = 0;
};

}  // namespace lb::bench
