// Floating-point precision of dtypes, ranked by mantissa bits: the order of the dtype contract
// (docs/dtype-contract.md). A conversion lowers the precision when its target keeps fewer mantissa
// bits than the contract's dtype: bf16 (7) is below fp16 (10), fp16 is not below bf16, TF32 (10) is
// below fp32 (23).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kgate {

// The contract's short name of a floating dtype written any way the extractors record it:
// "torch.bfloat16", "triton.language.float8e4nv", "numpy.float16", "tf32", "autocast" (fp16, the CUDA
// default), or a short name ("bf16", "fp8_e4m3"). nullopt: not a floating dtype (int8, bool), or unknown.
std::optional<std::string> contract_dtype(std::string_view dtype);

// Mantissa bits of a short name (fp64 52, fp32 23, tf32 10, fp16 10, bf16 7, fp8_e4m3 3, fp8_e5m2 2,
// fp4 1); nullopt for anything else.
std::optional<int> mantissa_bits(std::string_view short_name);

// How a conversion to `dtype` stands to a contract whose dtype is `contract` (a short name, empty when
// unknown): "below", "within", "unknown" (no contract) or "none" (not a floating dtype).
std::string_view contract_relation(std::string_view dtype, std::string_view contract);

// The short names, for messages and validation ("fp64, fp32, tf32, fp16, bf16, fp8_e4m3, fp8_e5m2, fp4").
std::string contract_dtype_names();

}  // namespace kgate
