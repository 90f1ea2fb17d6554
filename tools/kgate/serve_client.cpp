// The serve protocol's client: a child process, a socket to its stdin (written with MSG_NOSIGNAL, so a
// server that died is an error, not a SIGPIPE), a pipe from its stdout read by one thread, and its
// stderr in an unlinked temporary file for the error messages.
#include "tools/kgate/serve_client.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string_view>

extern char** environ;

namespace kgate::cli {
namespace {

using nlohmann::json;

// Reads one line from `fd` (without its newline); false at end of file.
bool read_line(int fd, std::string& buffer, std::string& line) {
  for (;;) {
    if (const auto end = buffer.find('\n'); end != std::string::npos) {
      line = buffer.substr(0, end);
      buffer.erase(0, end + 1);
      return true;
    }
    std::array<char, 65536> chunk{};
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffer.append(chunk.data(), static_cast<std::size_t>(n));
  }
}

bool send_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::vector<std::string> environment_with(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view entry(*e);
    const auto name = entry.substr(0, entry.find('=') + 1);
    bool replaced = false;
    for (const auto& x : extra) replaced = replaced || std::string_view(x).substr(0, x.find('=') + 1) == name;
    if (!replaced) env.emplace_back(entry);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

}  // namespace

Result<std::unique_ptr<ServeClient>> ServeClient::start(const std::vector<std::string>& argv,
                                                        const std::vector<std::string>& extra_env) {
  std::unique_ptr<ServeClient> client(new ServeClient());
  int input[2];
  int output[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, input) != 0 || ::pipe2(output, O_CLOEXEC) != 0)
    return Error{std::string("cannot make the server's pipes: ") + std::strerror(errno)};
  char err_path[] = "/tmp/kgate-serve-XXXXXX";
  client->stderr_fd_ = ::mkstemp(err_path);
  if (client->stderr_fd_ >= 0) ::unlink(err_path);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, input[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
  if (client->stderr_fd_ >= 0) posix_spawn_file_actions_adddup2(&actions, client->stderr_fd_, STDERR_FILENO);
  std::vector<std::string> env = environment_with(extra_env);
  std::vector<char*> args;
  std::vector<char*> envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  args.push_back(nullptr);
  envp.push_back(nullptr);
  const int spawned = ::posix_spawn(&client->pid_, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(input[1]);
  ::close(output[1]);
  client->to_server_ = input[0];
  client->from_server_ = output[0];
  if (spawned != 0) {
    client->pid_ = -1;
    return Error{"cannot start " + argv[0] + ": " + std::strerror(spawned)};
  }
  std::string line;
  if (!read_line(client->from_server_, client->buffer_, line))
    return Error{argv[0] + " ended before it was ready: " + client->stderr_tail()};
  client->ready_ = json::parse(line, nullptr, false);
  if (client->ready_.is_discarded() || !client->ready_.is_object() || !client->ready_.value("ready", false) ||
      client->ready_.contains("error"))
    return Error{argv[0] + " did not start: " + line + " " + client->stderr_tail()};
  client->reader_ = std::thread([raw = client.get()] { raw->read_answers(); });
  return client;
}

ServeClient::~ServeClient() {
  if (to_server_ >= 0) ::close(to_server_);
  if (reader_.joinable()) reader_.join();
  if (pid_ > 0) {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (from_server_ >= 0) ::close(from_server_);
  if (stderr_fd_ >= 0) ::close(stderr_fd_);
}

void ServeClient::read_answers() {
  std::string line;
  while (read_line(from_server_, buffer_, line)) {
    json answer = json::parse(line, nullptr, false);
    if (answer.is_discarded() || !answer.is_object() || !answer.contains("id") || !answer["id"].is_number_integer())
      continue;  // an answer to no request of ours (a line the server could not parse)
    const auto id = answer["id"].get<std::int64_t>();
    std::lock_guard<std::mutex> lock(mutex_);
    answers_[id] = std::move(answer);
    answered_.notify_all();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ended_ = true;
  answered_.notify_all();
}

Result<json> ServeClient::ask(json request) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (ended_) return Error{"the runtime server had ended: " + stderr_tail()};
  const std::int64_t id = next_id_++;
  request["id"] = id;
  if (!send_all(to_server_, request.dump(-1, ' ', false, json::error_handler_t::replace) + "\n")) {
    // A server that closed its input is of no more use, though its output may stay open a while (a
    // process dying slowly): mark it ended now, so that a caller's retry starts another one instead of
    // writing to this one again.
    ended_ = true;
    answered_.notify_all();
    return Error{"the runtime server does not read its input: " + stderr_tail()};
  }
  answered_.wait(lock, [&] { return ended_ || answers_.count(id) > 0; });
  const auto found = answers_.find(id);
  if (found == answers_.end()) return Error{"the runtime server ended before it answered: " + stderr_tail()};
  json answer = std::move(found->second);
  answers_.erase(found);
  return answer;
}

bool ServeClient::alive() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !ended_;
}

std::string ServeClient::stderr_tail() const {
  if (stderr_fd_ < 0) return "";
  const off_t size = ::lseek(stderr_fd_, 0, SEEK_END);
  const off_t from = size > 600 ? size - 600 : 0;
  std::string text(static_cast<std::size_t>(size - from), '\0');
  const ssize_t n = ::pread(stderr_fd_, text.data(), text.size(), from);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return text;
}

}  // namespace kgate::cli
