#include "analyzers/core/dtype_rank.h"

#include <array>
#include <utility>

namespace kgate {

namespace {

constexpr std::array<std::pair<std::string_view, int>, 8> kShortNames = {{
    {"fp64", 52},
    {"fp32", 23},
    {"tf32", 10},
    {"fp16", 10},
    {"bf16", 7},
    {"fp8_e4m3", 3},
    {"fp8_e5m2", 2},
    {"fp4", 1},
}};

// The last component of a dotted dtype path, and its short name.
constexpr std::array<std::pair<std::string_view, std::string_view>, 36> kSpellings = {{
    {"float64", "fp64"},
    {"double", "fp64"},
    {"complex128", "fp64"},
    {"float32", "fp32"},
    {"float", "fp32"},
    {"complex64", "fp32"},
    {"cfloat", "fp32"},
    {"tf32", "tf32"},
    {"float16", "fp16"},
    {"half", "fp16"},
    {"complex32", "fp16"},
    {"autocast", "fp16"},
    {"bfloat16", "bf16"},
    {"float8_e4m3fn", "fp8_e4m3"},
    {"float8_e4m3fnuz", "fp8_e4m3"},
    {"float8e4nv", "fp8_e4m3"},
    {"float8e4b15", "fp8_e4m3"},
    {"float8e4b8", "fp8_e4m3"},
    {"fp8e4nv", "fp8_e4m3"},
    {"fp8e4b15", "fp8_e4m3"},
    {"fp8e4b8", "fp8_e4m3"},
    {"float8_e5m2", "fp8_e5m2"},
    {"float8_e5m2fnuz", "fp8_e5m2"},
    {"float8e5", "fp8_e5m2"},
    {"float8e5b16", "fp8_e5m2"},
    {"fp8e5", "fp8_e5m2"},
    {"fp8e5b16", "fp8_e5m2"},
    {"float8_e8m0fnu", "fp8_e5m2"},
    {"float4_e2m1fn_x2", "fp4"},
    {"fp16", "fp16"},
    {"bf16", "bf16"},
    {"fp32", "fp32"},
    {"fp64", "fp64"},
    {"fp8_e4m3", "fp8_e4m3"},
    {"fp8_e5m2", "fp8_e5m2"},
    {"fp4", "fp4"},
}};

}  // namespace

std::optional<std::string> contract_dtype(std::string_view dtype) {
  const size_t dot = dtype.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? dtype : dtype.substr(dot + 1);
  for (const auto& [spelling, name] : kSpellings)
    if (last == spelling) return std::string(name);
  return std::nullopt;
}

std::optional<int> mantissa_bits(std::string_view short_name) {
  for (const auto& [name, bits] : kShortNames)
    if (short_name == name) return bits;
  return std::nullopt;
}

std::string_view contract_relation(std::string_view dtype, std::string_view contract) {
  const auto name = contract_dtype(dtype);
  if (!name) return "none";
  const auto bits = mantissa_bits(*name);
  const auto floor = mantissa_bits(contract);
  if (!bits) return "none";
  // With no contract, a conversion to fp32 or wider is below nothing a task could ask for.
  if (!floor) return *bits >= *mantissa_bits("fp32") ? "within" : "unknown";
  return *bits < *floor ? "below" : "within";
}

std::string contract_dtype_names() {
  std::string out;
  for (const auto& [name, bits] : kShortNames) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

}  // namespace kgate
