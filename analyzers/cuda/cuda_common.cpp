// Shared tables of the CUDA engines (cuda_common.h), built with either engine.
#include "analyzers/cuda/cuda_common.h"

#include <cxxabi.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <set>
#include <utility>

namespace kgate::cuda {

std::optional<LaunchApi> launch_api(std::string_view r) {
  if (r == "cudaLaunchKernel" || r == "cudaLaunchCooperativeKernel" || r == "cudaLaunchKernel_ptsz" ||
      r == "cudaLaunchCooperativeKernel_ptsz")
    return LaunchApi{0, 1, 1};
  if (r == "cudaLaunchKernelEx" || r == "cudaLaunchKernelExC") return LaunchApi{1, -1, 0};
  if (r == "cuLaunchKernel" || r == "cuLaunchCooperativeKernel") return LaunchApi{0, 1, 3};
  if (r == "cuLaunchKernelEx") return LaunchApi{1, -1, 0};
  // HIP (load_inline on ROCm): hipLaunchKernelGGL(kernel, grid, block, shmem, stream, args...).
  if (r == "hipLaunchKernelGGL" || r == "hipLaunchKernel" || r == "hipLaunchCooperativeKernel")
    return LaunchApi{0, 1, 1};
  if (r == "hipModuleLaunchKernel") return LaunchApi{0, 1, 3};
  return std::nullopt;
}

std::optional<std::string> conversion_function_dtype(std::string_view r) {
  static const std::array<std::pair<std::string_view, std::string_view>, 28> table = {{
      {"__float2half", "torch.float16"},
      {"__float2half_rn", "torch.float16"},
      {"__float2half_rz", "torch.float16"},
      {"__float2half_rd", "torch.float16"},
      {"__float2half_ru", "torch.float16"},
      {"__float2half2_rn", "torch.float16"},
      {"__floats2half2_rn", "torch.float16"},
      {"__float22half2_rn", "torch.float16"},
      {"__double2half", "torch.float16"},
      {"__int2half_rn", "torch.float16"},
      {"__half2half2", "torch.float16"},
      {"__float2bfloat16", "torch.bfloat16"},
      {"__float2bfloat16_rn", "torch.bfloat16"},
      {"__float2bfloat16_rz", "torch.bfloat16"},
      {"__floats2bfloat162_rn", "torch.bfloat16"},
      {"__float22bfloat162_rn", "torch.bfloat16"},
      {"__double2bfloat16", "torch.bfloat16"},
      {"__float2bfloat162_rn", "torch.bfloat16"},
      {"__nv_cvt_float_to_fp8", "torch.float8_e4m3fn"},
      {"__nv_cvt_float2_to_fp8x2", "torch.float8_e4m3fn"},
      {"__nv_cvt_halfraw_to_fp8", "torch.float8_e4m3fn"},
      {"__nv_cvt_bfloat16raw_to_fp8", "torch.float8_e4m3fn"},
      {"wmma::__float_to_tf32", "tf32"},
      {"nvcuda::wmma::__float_to_tf32", "tf32"},
      {"__float_to_tf32", "tf32"},
      {"cvt_rna_tf32", "tf32"},
      {"__float2tf32", "tf32"},
      {"__fp32_to_tf32", "tf32"},
  }};
  for (const auto& [name, dtype] : table)
    if (r == name) return std::string(dtype);
  return std::nullopt;
}

std::optional<std::string> low_precision_dtype(std::string_view n) {
  auto strip = [](std::string_view s, std::string_view prefix) {
    if (s.substr(0, prefix.size()) == prefix) s.remove_prefix(prefix.size());
    return s;
  };
  for (std::string_view p :
       {"::", "at::", "c10::", "torch::", "ScalarType::", "nvcuda::wmma::", "wmma::", "precision::", "cutlass::"})
    n = strip(n, p);
  n = strip(n, "ScalarType::");
  if (n == "__half" || n == "half" || n == "__half2" || n == "half2" || n == "__half_raw" || n == "kHalf" ||
      n == "kFloat16" || n == "Half")
    return "torch.float16";
  if (n == "__nv_bfloat16" || n == "__nv_bfloat162" || n == "nv_bfloat16" || n == "nv_bfloat162" || n == "kBFloat16" ||
      n == "BFloat16" || n == "bfloat16_t")
    return "torch.bfloat16";
  if (n == "half_t") return "torch.float16";
  if (n == "__nv_fp8_e4m3" || n == "kFloat8_e4m3fn" || n == "Float8_e4m3fn" || n == "float_e4m3_t")
    return "torch.float8_e4m3fn";
  if (n == "__nv_fp8_e5m2" || n == "kFloat8_e5m2" || n == "Float8_e5m2" || n == "float_e5m2_t")
    return "torch.float8_e5m2";
  if (n == "tf32" || n == "tfloat32_t") return "tf32";
  return std::nullopt;
}

std::optional<TensorCorePrecision> wmma_fragment_precision(std::string_view use, std::string_view element) {
  use = last_component(use);
  if (use != "accumulator" && use != "matrix_a" && use != "matrix_b") return std::nullopt;
  auto dt = low_precision_dtype(element);
  if (!dt) return std::nullopt;
  return TensorCorePrecision{*dt, use == "accumulator" ? "wmma-accumulator" : "wmma-operand"};
}

std::vector<TensorCorePrecision> mma_atom_precision(std::string_view name) {
  // SM<arch>_<M>x<N>x<K>_<types>[_<layout>]: the types are D, A, B (and C) run together.
  size_t i = 0;
  auto digits = [&] {
    const size_t start = i;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
    return i > start;
  };
  auto punct = [&](char c) {
    if (i >= name.size() || name[i] != c) return false;
    ++i;
    return true;
  };
  if (name.substr(0, 2) != "SM") return {};
  i = 2;
  if (!digits() || !punct('_') || !digits() || !punct('x') || !digits() || !punct('x') || !digits() || !punct('_'))
    return {};
  const size_t end = std::min(name.find('_', i), name.size());
  // clang-format off
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {"TF32", "tf32"}, {"BF16", "torch.bfloat16"}, {"E4M3", "torch.float8_e4m3fn"}, {"E5M2", "torch.float8_e5m2"},
      {"F64", ""}, {"F32", ""}, {"F16", "torch.float16"},
      {"S32", ""}, {"S8", ""}, {"U8", ""}, {"S4", ""}, {"U4", ""}, {"B1", ""}};
  // clang-format on
  std::vector<std::string_view> types;
  while (i < end) {
    const auto* match = std::find_if(std::begin(kTypes), std::end(kTypes),
                                     [&](const auto& t) { return name.substr(i, t.first.size()) == t.first; });
    if (match == std::end(kTypes) || i + match->first.size() > end) return {};
    types.push_back(match->second);
    i += match->first.size();
  }
  if (types.size() < 3) return {};
  std::vector<TensorCorePrecision> out;
  if (!types[0].empty()) out.push_back({std::string(types[0]), "mma-atom-accumulator"});
  for (size_t k = 1; k <= 2; ++k)
    if (!types[k].empty() && (k == 1 || types[k] != types[1]))
      out.push_back({std::string(types[k]), "mma-atom-operand"});
  return out;
}

std::optional<std::string> conversion_method_dtype(std::string_view m) {
  if (m == "half") return "torch.float16";
  if (m == "bfloat16") return "torch.bfloat16";
  return std::nullopt;
}

std::string_view last_component(std::string_view q) {
  auto pos = q.rfind("::");
  if (pos != std::string_view::npos) q.remove_prefix(pos + 2);
  auto dot = q.rfind('.');
  if (dot != std::string_view::npos) q.remove_prefix(dot + 1);
  return q;
}

bool is_recorded_construction(std::string_view c) {
  return c == "std::thread" || c == "std::jthread" || c == "std::async" || c == "at::cuda::CUDAGraph" ||
         c == "at::cuda::CUDAStream" || c == "c10::cuda::CUDAStream" || c == "at::cuda::CUDAEvent" ||
         c == "c10::cuda::CUDAStreamGuard" || c == "at::cuda::CUDAStreamGuard" ||
         c == "c10::cuda::OptionalCUDAStreamGuard" || c == "std::packaged_task";
}

bool is_tensor_type_name(std::string_view t) { return t.find("Tensor") != std::string_view::npos; }

bool tensor_arithmetic(std::string_view name) {
  static const std::set<std::string_view> kOps = {"at::operator+",
                                                  "at::operator-",
                                                  "at::operator*",
                                                  "at::operator/",
                                                  "at::add",
                                                  "at::sub",
                                                  "at::mul",
                                                  "at::div",
                                                  "at::Tensor::add",
                                                  "at::Tensor::sub",
                                                  "at::Tensor::mul",
                                                  "at::Tensor::div",
                                                  "at::Tensor::add_",
                                                  "at::Tensor::sub_",
                                                  "at::Tensor::mul_",
                                                  "at::Tensor::div_",
                                                  "at::Tensor::operator+=",
                                                  "at::Tensor::operator-=",
                                                  "at::Tensor::operator*=",
                                                  "at::Tensor::operator/=",
                                                  "at::Tensor::operator-"};
  static const std::set<std::string_view> kMath = {
      "sqrt",      "rsqrt",  "exp",   "log",  "abs",         "neg",  "reciprocal", "pow",  "clamp", "clamp_min",
      "clamp_max", "square", "sqrt_", "div_", "reciprocal_", "pow_", "clamp_",     "neg_", "abs_"};
  if (kOps.count(name)) return true;
  for (std::string_view prefix : {"at::Tensor::", "at::"})
    if (name.rfind(prefix, 0) == 0 && kMath.count(name.substr(prefix.size()))) return true;
  return false;
}

bool is_tensor_variable_type(std::string_view type_text) {
  std::string t;
  for (char c : type_text)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '&' && c != '*') t += c;
  if (t.rfind("const", 0) == 0) t.erase(0, 5);
  if (t.size() >= 5 && t.compare(t.size() - 5, 5, "const") == 0) t.erase(t.size() - 5);
  return t == "Tensor" || t == "at::Tensor" || t == "torch::Tensor" || t == "torch::autograd::Variable";
}

bool tensor_metadata_only_method(std::string_view m) {
  static const std::set<std::string_view> kMetadata = {"size",
                                                       "sizes",
                                                       "sym_size",
                                                       "sym_sizes",
                                                       "dim",
                                                       "ndimension",
                                                       "numel",
                                                       "sym_numel",
                                                       "stride",
                                                       "strides",
                                                       "options",
                                                       "dtype",
                                                       "scalar_type",
                                                       "device",
                                                       "get_device",
                                                       "is_cuda",
                                                       "is_cpu",
                                                       "is_contiguous",
                                                       "defined",
                                                       "element_size",
                                                       "itemsize",
                                                       "nbytes",
                                                       "layout",
                                                       "is_floating_point",
                                                       "is_complex",
                                                       "suggest_memory_format",
                                                       "storage_offset",
                                                       "requires_grad",
                                                       "is_sparse",
                                                       "has_names"};
  return kMetadata.count(m) > 0;
}

bool like_maker(std::string_view r) {
  const std::string_view last = last_component(r);
  if (last != "empty_like" && last != "zeros_like" && last != "ones_like" && last != "full_like") return false;
  return r == last || r.rfind("at::", 0) == 0 || r.rfind("torch::", 0) == 0;
}

std::string param_handed_decorator(size_t param, size_t position, std::string_view callee) {
  return "param-handed:" + std::to_string(param) + ":" + std::to_string(position) + ":" + std::string(callee);
}

bool parse_param_handed(std::string_view d, size_t& param, size_t& position, std::string& callee) {
  constexpr std::string_view kPrefix = "param-handed:";
  if (d.rfind(kPrefix, 0) != 0) return false;
  d.remove_prefix(kPrefix.size());
  const auto number = [&d](size_t& out) {
    const size_t colon = d.find(':');
    if (colon == 0 || colon == std::string_view::npos) return false;
    out = 0;
    for (char c : d.substr(0, colon)) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
      out = out * 10 + static_cast<size_t>(c - '0');
    }
    d.remove_prefix(colon + 1);
    return true;
  };
  if (!number(param) || !number(position) || d.empty()) return false;
  callee = std::string(d);
  return true;
}

std::optional<std::string> aten_non_tensor_result(std::string_view r) {
  static const std::set<std::string_view> kScalar = {"size",
                                                     "numel",
                                                     "dim",
                                                     "ndimension",
                                                     "nbytes",
                                                     "element_size",
                                                     "itemsize",
                                                     "storage_offset",
                                                     "defined",
                                                     "requires_grad",
                                                     "dtype",
                                                     "scalar_type",
                                                     "device",
                                                     "get_device",
                                                     "data_ptr",
                                                     "const_data_ptr",
                                                     "mutable_data_ptr",
                                                     "data",
                                                     "item",
                                                     "accessor",
                                                     "packed_accessor32",
                                                     "packed_accessor64",
                                                     "type",
                                                     "stride",
                                                     "is_contiguous",
                                                     "is_cuda",
                                                     "layout",
                                                     "use_count"};
  if (r.rfind("at::Tensor::", 0) == 0) {
    std::string_view m = r.substr(12);
    if (m == "sizes" || m == "strides") return "c10::IntArrayRef";
    if (m == "options") return "c10::TensorOptions";
    if (kScalar.count(m) || m.rfind("is_", 0) == 0) return "";
    return std::nullopt;
  }
  if (r == "at::dtype" || r == "at::device" || r == "at::layout" || r == "at::requires_grad" ||
      r.rfind("at::TensorOptions", 0) == 0)
    return "c10::TensorOptions";
  if (r.rfind("at::cuda::", 0) == 0 || r == "at::globalContext") return "";
  return std::nullopt;
}

std::string dispatcher_operator(std::string_view resolved, const std::vector<std::string>& strings) {
  const std::string_view last = last_component(resolved);
  const std::string_view owner = resolved.substr(0, resolved.size() - last.size());
  if ((last != "findSchemaOrThrow" && last != "findSchema" && last != "findOp") ||
      (owner != "c10::Dispatcher::" && owner != "?::"))
    return {};
  if (strings.empty()) return {};
  const std::string& schema = strings.front();
  const auto sep = schema.find("::");
  if (sep == std::string::npos || sep == 0) return {};
  std::string ns = schema.substr(0, sep);
  if (ns == "aten") ns = "at";
  std::string op = schema.substr(sep + 2);
  if (auto dot = op.find('.'); dot != std::string::npos) op = op.substr(0, dot);  // "add.Tensor"
  return op.empty() ? std::string{} : ns + "::" + op;
}

std::string asm_label_function(const std::string& symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                                   std::free);
  if (status != 0 || !demangled) return symbol;
  // "at::matmul(at::Tensor const&, at::Tensor const&)" -> "at::matmul"; template arguments go too.
  const std::string name = demangled.get();
  int depth = 0;
  std::string out;
  for (char ch : name) {
    if (ch == '<') ++depth;
    if (depth == 0 && ch == '(') break;
    if (depth == 0) out += ch;
    if (ch == '>' && depth > 0) --depth;
  }
  if (auto space = out.rfind(' '); space != std::string::npos) out = out.substr(space + 1);  // a return type
  return out.empty() ? symbol : out;
}

bool writes_first_argument(std::string_view r) {
  for (std::string_view prefix : {"cudaMemset", "cudaMemcpy", "hipMemset", "hipMemcpy", "cuMemsetD", "cuMemcpyHtoD",
                                  "cuMemcpyDtoD", "cuMemcpy2D", "cuMemcpy3D"})
    if (r.rfind(prefix, 0) == 0)
      // Copies out of the device (cudaMemcpyFromSymbol's first argument is a host destination too)
      // write host memory, not a tensor's storage.
      return r.find("FromSymbol") == std::string_view::npos && r.find("DtoH") == std::string_view::npos &&
             r.find("ToArray") == std::string_view::npos && r.find("Peer") == std::string_view::npos;
  return false;
}

bool is_storage_accessor(std::string_view method) {
  return method == "data_ptr" || method == "mutable_data_ptr" || method == "data";
}

std::vector<std::string> command_line_defines(const FactSet& facts, const Module& module) {
  if (module.extension < 0 || module.extension >= static_cast<int>(facts.extensions.size())) return {};
  const Extension& ext = facts.extensions[module.extension];
  return module.language == Language::Cuda ? ext.cuda_defines : ext.cpp_defines;
}

std::string define_line(const std::string& define) {
  const auto eq = define.find('=');
  if (eq == std::string::npos) return "#define " + define + " 1\n";
  return "#define " + define.substr(0, eq) + " " + define.substr(eq + 1) + "\n";
}

}  // namespace kgate::cuda
