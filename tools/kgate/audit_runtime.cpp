// `kgate audit --runtime`: sends each approved file to a runtime server (`kgate serve`, or `python -m
// kgate.ray serve` under --ray) and keeps its verdict, speedup and roofline in the audit record (the
// HTML report plots them).
#include "tools/kgate/audit_runtime.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <vector>

#include "analyzers/tasks/task_manifest.h"
#include "tools/kgate/serve_client.h"

namespace fs = std::filesystem;

namespace kgate::cli {
namespace {

// The audit's one runtime server, started on first use and again whenever it ended (a long audit
// outlives a judge that died); after kFailedStarts starts that failed, every later record gets the
// reason instead of another try.
class SharedServer {
 public:
  explicit SharedServer(const RuntimeStageOptions& options) : options_(options) {}

  // A server that ends while it holds the request (killed, or its cluster lost) is started again and
  // asked once more: the file's record is its own verdict, not the harness's fault.
  Result<nlohmann::json> ask(const nlohmann::json& request) {
    auto answer = ask_once(request);
    if (!answer && !answer.error().starts_with(kNotStarted)) answer = ask_once(request);
    return answer;
  }

 private:
  static constexpr const char* kNotStarted = "the runtime server could not be started";

  Result<nlohmann::json> ask_once(const nlohmann::json& request) {
    std::shared_ptr<ServeClient> client;
    {
      std::lock_guard<std::mutex> guard(mutex_);
      if (!client_ || !client_->alive()) {
        if (failed_starts_ >= kFailedStarts) return Error{std::string(kNotStarted) + ": " + start_error_};
        client_.reset();
        auto started = ServeClient::start(options_.server, options_.server_env);
        if (!started) {
          ++failed_starts_;
          start_error_ = started.error();
          return Error{std::string(kNotStarted) + ": " + start_error_};
        }
        client_ = std::move(*started);
      }
      client = client_;
    }
    return client->ask(request);  // many threads wait here at once; the server answers each by id
  }

  static constexpr int kFailedStarts = 3;
  RuntimeStageOptions options_;
  std::mutex mutex_;
  std::shared_ptr<ServeClient> client_;  // shared: threads still waiting on a replaced one keep it alive
  int failed_starts_ = 0;
  std::string start_error_;
};

std::string tail(const std::string& text, std::size_t n) {
  return text.size() > n ? text.substr(text.size() - n) : text;
}

}  // namespace

std::string runtime_task_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  static const std::regex line_re(R"(^#\s*runtime-task:\s*(\S+)\s*$)");
  std::string line;
  for (int i = 0; i < 40 && std::getline(in, line); ++i) {
    if (line.size() > 400) continue;
    std::smatch m;
    if (std::regex_match(line, m, line_re)) return m[1].str();
  }
  return "";
}

audit::RecordStage make_runtime_stage(const RuntimeStageOptions& options) {
  auto server = std::make_shared<SharedServer>(options);
  return [options, server](const BatchItem& item, const FileResult&, nlohmann::json& record) {
    if (record.value("verdict", "") != "pass") {
      record["runtime"] = {{"skipped", "rejected by the static gate"}};
      return;
    }
    std::string spec = options.task.empty() ? runtime_task_line(item.path) : options.task;
    if (spec.empty()) {
      record["runtime"] = {{"skipped", "no task: give --task or a '# runtime-task: Category/name' line"}};
      return;
    }
    // Annotations written relative to a checkout ("tasks/Activation/gelu") resolve by name too.
    if (spec.rfind("tasks/", 0) == 0 && !std::filesystem::exists(spec)) spec = spec.substr(6);
    auto where = runtime::find_task(options.tasks_dir, spec);
    if (!where) {
      record["runtime"] = {{"skipped", "task " + spec + ": " + where.error()}};
      return;
    }
    nlohmann::json request{{"submission", fs::absolute(item.path).string()},
                           {"task", fs::absolute(*where).string()},
                           {"device", options.device},
                           {"profile", options.profile},
                           {"timeout_s", options.timeout_s}};
    if (options.seeds > 0) request["seeds"] = options.seeds;
    auto answer = server->ask(request);
    const nlohmann::json report =
        answer && answer->contains("report") ? (*answer)["report"] : nlohmann::json(nlohmann::json::value_t::discarded);
    if (report.is_discarded() || !report.is_object() || !report.contains("verdict")) {
      const std::string why =
          !answer ? answer.error() : answer->value("error", std::string("an answer without a report"));
      record["runtime"] = {{"task", spec}, {"error", "the runtime stage gave no report: " + tail(why, 600)}};
      return;
    }
    nlohmann::json runtime{{"task", spec},
                           {"verdict", report["verdict"]},
                           {"reasons", report.value("reasons", nlohmann::json::array())},
                           {"seconds", report.value("seconds", 0.0)},
                           {"profile", report.value("profile", std::string())}};
    if (report.contains("timing") && report["timing"].is_object()) {
      const auto& t = report["timing"];
      if (t.contains("speedup")) runtime["speedup"] = t["speedup"];
      if (t.contains("roofline")) runtime["roofline"] = t["roofline"];
      if (t.contains("own_kernel_share")) runtime["own_kernel_share"] = t["own_kernel_share"];
    }
    record["runtime"] = std::move(runtime);
  };
}

}  // namespace kgate::cli
