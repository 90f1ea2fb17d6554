// The report's per-file details, packed: zlib's compress2 and OpenSSL's base64 encoder.
#include "analyzers/audit/report_details.h"

#include <openssl/evp.h>
#include <zlib.h>

#include <stdexcept>

namespace kgate::audit {

namespace {

// Fields copied only when they have the type the page expects: a hand-edited log reads as empty.
void copy_if(const nlohmann::json& from, const char* key, nlohmann::json& to, bool (nlohmann::json::*is)() const) {
  if (!from.is_object()) return;
  const auto at = from.find(key);
  if (at != from.end() && ((*at).*is)()) to[key] = *at;
}

}  // namespace

nlohmann::json details_of(const std::vector<const nlohmann::json*>& records) {
  nlohmann::json out = nlohmann::json::array();
  for (const nlohmann::json* r : records) {
    nlohmann::json entry = nlohmann::json::object();
    nlohmann::json findings = nlohmann::json::array();
    if (const auto at = r->find("findings"); at != r->end() && at->is_array())
      for (const auto& f : *at) {
        nlohmann::json one = nlohmann::json::object();
        for (const char* key : {"rule", "severity", "message"}) copy_if(f, key, one, &nlohmann::json::is_string);
        for (const char* key : {"line", "end_line", "col"}) copy_if(f, key, one, &nlohmann::json::is_number);
        if (f.is_object())
          if (const auto ex = f.find("excerpt"); ex != f.end() && ex->is_object()) {
            copy_if(*ex, "first_line", one, &nlohmann::json::is_number);
            if (const auto lines = ex->find("lines"); lines != ex->end() && lines->is_array()) {
              nlohmann::json kept = nlohmann::json::array();
              for (const auto& line : *lines) kept.push_back(line.is_string() ? line : nlohmann::json(""));
              one["lines"] = std::move(kept);
            }
          }
        findings.push_back(std::move(one));
      }
    entry["findings"] = std::move(findings);
    if (const auto rt = r->find("runtime"); rt != r->end() && rt->is_object()) {
      nlohmann::json runtime = nlohmann::json::object();
      copy_if(*rt, "verdict", runtime, &nlohmann::json::is_string);
      if (const auto reasons = rt->find("reasons"); reasons != rt->end() && reasons->is_array()) {
        nlohmann::json kept = nlohmann::json::array();
        for (const auto& reason : *reasons) {
          nlohmann::json one = nlohmann::json::object();
          copy_if(reason, "id", one, &nlohmann::json::is_string);
          copy_if(reason, "message", one, &nlohmann::json::is_string);
          kept.push_back(std::move(one));
        }
        runtime["reasons"] = std::move(kept);
      }
      for (const char* key : {"error", "skipped"})
        if (rt->contains(key)) runtime[key] = (*rt)[key].is_string() ? (*rt)[key] : nlohmann::json((*rt)[key].dump());
      entry["runtime"] = std::move(runtime);
    }
    out.push_back(std::move(entry));
  }
  return out;
}

std::string deflate_base64(const std::string& data) {
  uLongf packed_size = compressBound(static_cast<uLong>(data.size()));
  std::string packed(packed_size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_size, reinterpret_cast<const Bytef*>(data.data()),
                static_cast<uLong>(data.size()), Z_BEST_COMPRESSION) != Z_OK)
    throw std::runtime_error("zlib could not compress the report's details");
  packed.resize(packed_size);
  std::string encoded(4 * ((packed.size() + 2) / 3) + 1, '\0');
  const int written =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(encoded.data()),
                      reinterpret_cast<const unsigned char*>(packed.data()), static_cast<int>(packed.size()));
  encoded.resize(written < 0 ? 0 : static_cast<size_t>(written));
  return encoded;
}

}  // namespace kgate::audit
