// File discovery and a small work queue of std::jthreads.
#include "analyzers/pipeline/batch.h"

#include <algorithm>
#include <exception>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <thread>

#include "analyzers/ingest/ingest.h"
#include "analyzers/pipeline/pipeline_finding.h"

namespace kgate {

namespace {

bool hidden(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  return name.size() > 1 && name[0] == '.' && name != "..";
}

void walk(const std::filesystem::path& dir, const std::function<bool(const std::string&)>& excluded,
          std::vector<std::string>& out) {
  std::error_code ec;
  std::vector<std::filesystem::path> entries;
  for (auto it = std::filesystem::directory_iterator(dir, ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec))
    entries.push_back(it->path());
  std::sort(entries.begin(), entries.end());
  for (const auto& entry : entries) {
    if (hidden(entry) || (excluded && excluded(entry.string()))) continue;
    // Symlinked directories are not followed: a link cycle must not hang the walk.
    if (std::filesystem::is_directory(std::filesystem::symlink_status(entry, ec)))
      walk(entry, excluded, out);
    else if (std::filesystem::is_regular_file(entry, ec) && is_analysable_extension(entry.string()))
      out.push_back(entry.string());
  }
}

FileResult internal_failure(const std::string& path, const std::string& what) {
  FileResult result;
  result.path = path;
  result.rejected = true;
  result.findings.push_back(pipeline_finding("input-parse-error", "analysis failed: " + what, path));
  return result;
}

}  // namespace

bool is_analysable_extension(const std::string& path) {
  return ingest::kind_from_path(path) != ingest::FileKind::Unknown;
}

std::vector<std::string> discover_files(const std::vector<std::string>& paths,
                                        const std::function<bool(const std::string&)>& excluded) {
  std::vector<std::string> out;
  for (const auto& path : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      walk(path, excluded, out);
    else
      out.push_back(path);
  }
  return out;
}

void analyze_batch_each(const std::vector<BatchItem>& items, unsigned threads, const AnalyzeItem& analyze,
                        const ItemDone& on_done) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min<unsigned>(threads, static_cast<unsigned>(std::max<size_t>(items.size(), 1)));
  std::atomic<size_t> next{0};
  std::mutex done_mutex;
  auto work = [&] {
    // Each worker claims the next unclaimed item.
    for (size_t i = next++; i < items.size(); i = next++) {
      FileResult result;
      try {
        result = analyze ? analyze(i, items[i]) : analyze_file(items[i].path, *items[i].context);
      } catch (const std::exception& e) {
        // Out of memory or an analyzer bug: this file is rejected, the batch goes on.
        result = internal_failure(items[i].path, e.what());
      }
      const std::lock_guard lock(done_mutex);
      on_done(i, std::move(result));
    }
  };
  if (threads <= 1) {
    work();
    return;
  }
  std::vector<std::jthread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);
}  // jthreads join here

std::vector<FileResult> analyze_batch(const std::vector<BatchItem>& items, unsigned threads) {
  std::vector<FileResult> results(items.size());
  // Each callback writes only its own result slot.
  analyze_batch_each(items, threads, nullptr, [&](size_t i, FileResult&& result) { results[i] = std::move(result); });
  return results;
}

}  // namespace kgate
