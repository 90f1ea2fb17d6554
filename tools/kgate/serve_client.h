// A client of `kgate-runtime serve`'s protocol (tools/kgate/cmd_serve.cpp): JSON requests in, one
// JSON answer per request out, matched by "id". The server is `kgate serve` (one judge, answers in
// order) or `python -m kgate.ray serve` (Verifier actors on a Ray cluster, answers as they finish).
// Many threads may ask at once; each waits for its own answer.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"

namespace kgate::cli {

class ServeClient {
 public:
  // Starts argv (environment: this process's plus `extra_env`, "NAME=value") and waits for its
  // {"ready": true} line; an error names what the server printed on stderr.
  static Result<std::unique_ptr<ServeClient>> start(const std::vector<std::string>& argv,
                                                    const std::vector<std::string>& extra_env = {});
  ~ServeClient();  // closes the server's input and waits for it to end
  ServeClient(const ServeClient&) = delete;
  ServeClient& operator=(const ServeClient&) = delete;

  // Sends `request` (its "id" is set here) and waits for the answer; an error when the server ended
  // first (then alive() is false and a new client must be started).
  Result<nlohmann::json> ask(nlohmann::json request);
  bool alive() const;
  const nlohmann::json& ready() const { return ready_; }

 private:
  ServeClient() = default;
  void read_answers();
  std::string stderr_tail() const;

  pid_t pid_ = -1;
  int to_server_ = -1;
  int from_server_ = -1;
  int stderr_fd_ = -1;
  nlohmann::json ready_;
  std::string buffer_;  // what was read from the server past the last whole line
  std::thread reader_;
  mutable std::mutex mutex_;
  std::condition_variable answered_;
  std::map<std::int64_t, nlohmann::json> answers_;
  std::int64_t next_id_ = 1;
  bool ended_ = false;
};

}  // namespace kgate::cli
