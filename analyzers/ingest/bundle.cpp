// Splitting a bundle of solution.py and its sidecars at their banner lines.
#include "analyzers/ingest/bundle.h"

namespace kgate::ingest {

namespace {

constexpr std::string_view kBanner = "# ===== sidecar: ";

// A line of only '#' and '=' (with at least a few '='): the frame around a banner.
bool frame_line(std::string_view line) {
  size_t equals = 0;
  for (char c : line) {
    if (c == '=')
      ++equals;
    else if (c != '#' && c != ' ' && c != '\r')
      return false;
  }
  return equals >= 5 && !line.empty() && line[0] == '#';
}

}  // namespace

Bundle split_bundle(std::string_view text) {
  Bundle bundle;
  // Lines with their start offsets.
  std::vector<std::pair<size_t, std::string_view>> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(start, text.substr(start, end - start));
    start = end + 1;
  }
  std::vector<size_t> banners;
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].second.rfind(kBanner, 0) == 0) banners.push_back(i);
  if (banners.empty()) return bundle;
  // A banner's block begins at the frame line just above it, if any.
  auto block_start = [&](size_t banner) {
    return banner > 0 && frame_line(lines[banner - 1].second) ? banner - 1 : banner;
  };
  bundle.host = std::string(text.substr(0, lines[block_start(banners.front())].first));
  for (size_t b = 0; b < banners.size(); ++b) {
    std::string_view banner = lines[banners[b]].second.substr(kBanner.size());
    const size_t name_end = banner.find_first_of(" (=");
    std::string name(banner.substr(0, name_end));
    size_t first = banners[b] + 1;
    if (first < lines.size() && frame_line(lines[first].second)) ++first;
    const size_t stop_line = b + 1 < banners.size() ? block_start(banners[b + 1]) : lines.size();
    const size_t from = first < lines.size() ? lines[first].first : text.size();
    const size_t to = stop_line < lines.size() ? lines[stop_line].first : text.size();
    bundle.sidecars.emplace_back(std::move(name), std::string(text.substr(from, to > from ? to - from : 0)));
  }
  return bundle;
}

}  // namespace kgate::ingest
