// Runtime defences: each check turns one way of faking an output into a reason with a stable id.
#include "runtime/defences.h"

#include <algorithm>
#include <limits>
#include <sstream>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <c10/util/Exception.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/view_as_real.h>

#include "runtime/compare.h"

namespace kgate::runtime {
namespace {

// The poison: the 16-bit word 0x7FF1 repeated. Read as fp16, bf16, fp32 or fp64 it is a quiet NaN whose
// payload no arithmetic produces (CPUs and GPUs make 0x7E00 / 0x7FC0 / 0x7FC00000 / 0x7FF8...), so an
// output element holding it was copied from memory the candidate never wrote.
constexpr std::int64_t kPoisonWord16 = 0x7FF1;
constexpr std::int64_t kPoisonWord32 = 0x7FF17FF1;
constexpr std::int64_t kPoisonWord64 = 0x7FF17FF17FF17FF1;

// The smallest block poison_free_memory allocates.
constexpr std::size_t kMinPoisonBlock = 4096;

std::optional<at::ScalarType> same_size_integer(at::ScalarType dtype) {
  switch (c10::elementSize(dtype)) {
    case 1:
      return at::kByte;
    case 2:
      return at::kShort;
    case 4:
      return at::kInt;
    case 8:
      return at::kLong;
    default:
      return std::nullopt;
  }
}

// The tensor's bits as integers of the same width, contiguous; equality on these is bitwise equality.
at::Tensor bits_of(const at::Tensor& t) {
  auto dense = t.detach().contiguous();
  if (dense.scalar_type() == at::kBool) return dense.view(at::kByte);
  if (dense.is_complex()) dense = at::view_as_real(dense).contiguous();
  if (auto integer = same_size_integer(dense.scalar_type()); integer && dense.scalar_type() != *integer) {
    return dense.view(*integer);
  }
  return dense;
}

// How many elements of a and b differ bitwise, with a and b already of the same shape and dtype.
std::int64_t bitwise_differences(const at::Tensor& a, const at::Tensor& b) {
  auto bits_a = bits_of(a);
  auto bits_b = bits_of(b).to(bits_a.device());
  return bits_a.ne(bits_b).sum().item<std::int64_t>();
}

// Allocates `bytes` through the device's allocator, fills it with the poison and frees it. On CUDA the
// caching allocator keeps the block, so later allocations carved from it start poisoned. A failed
// allocation (not enough memory) is not an error: poisoning is best effort, the pattern check is exact.
std::optional<at::Tensor> poisoned_block(c10::Device device, std::size_t bytes) {
  try {
    auto block = at::empty({static_cast<std::int64_t>(bytes / 8)}, at::TensorOptions().dtype(at::kLong).device(device));
    block.fill_(kPoisonWord64);
    return block;
  } catch (const c10::Error&) {
    return std::nullopt;
  }
}

}  // namespace

StorageRange storage_range_of(const at::Tensor& t) {
  const auto begin = reinterpret_cast<std::uintptr_t>(t.data_ptr());
  if (t.numel() == 0) return {begin, begin};
  std::int64_t last = 0;
  for (std::int64_t d = 0; d < t.dim(); ++d) last += (t.size(d) - 1) * t.stride(d);
  return {begin, begin + static_cast<std::uintptr_t>((last + 1) * static_cast<std::int64_t>(t.element_size()))};
}

std::optional<Reason> check_output_plain(const OutputFacts& facts, bool reference_contiguous) {
  if (!facts.exact_tensor_type) {
    return Reason{"output-not-plain", "the output is a subclass of torch.Tensor, not a plain tensor"};
  }
  if (facts.has_torch_function_override) {
    return Reason{"output-not-plain", "the output overrides __torch_function__ or __torch_dispatch__"};
  }
  if (!facts.overridden_methods.empty()) {
    std::string names;
    for (const auto& name : facts.overridden_methods) names += (names.empty() ? "" : ", ") + name;
    return Reason{"output-not-plain", "the output overrides tensor methods: " + names};
  }
  if (!facts.is_contiguous && (reference_contiguous || !facts.is_dense))
    return Reason{"not-contiguous", reference_contiguous
                                        ? "the output is not contiguous, and the reference's output is"
                                        : "the output is not a dense tensor (its elements overlap or leave gaps)"};
  if (!facts.owns_storage_exactly) {
    return Reason{"output-not-plain", "the output is a view into a larger storage, not a tensor with its own storage"};
  }
  return std::nullopt;
}

std::optional<Reason> check_aliasing(const StorageRange& output, const std::vector<StorageRange>& inputs) {
  if (output.begin >= output.end) return std::nullopt;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto& in = inputs[i];
    if (in.begin >= in.end) continue;
    if (output.begin < in.end && in.begin < output.end) {
      return Reason{"output-aliases-input", "the output's memory overlaps input " + std::to_string(i) +
                                                " (the output must be a new tensor, not the input or a view of it)"};
    }
  }
  return std::nullopt;
}

std::optional<Reason> check_inputs_unchanged(const std::vector<at::Tensor>& before,
                                             const std::vector<at::Tensor>& after) {
  if (before.size() != after.size()) {
    return Reason{"input-mutated", "the number of inputs changed from " + std::to_string(before.size()) + " to " +
                                       std::to_string(after.size())};
  }
  for (std::size_t i = 0; i < before.size(); ++i) {
    const auto& b = before[i];
    const auto& a = after[i];
    const auto which = "input " + std::to_string(i);
    if (b.defined() != a.defined()) return Reason{"input-mutated", which + " was replaced"};
    if (!b.defined()) continue;
    if (b.sizes() != a.sizes()) {
      return Reason{"input-mutated",
                    which + " was resized from " + shape_string(b.sizes()) + " to " + shape_string(a.sizes())};
    }
    if (b.scalar_type() != a.scalar_type()) return Reason{"input-mutated", which + " changed dtype"};
    // Bitwise, so a NaN that stays the same NaN is unchanged and +0 -> -0 is a change.
    if (const auto n = bitwise_differences(b, a); n > 0) {
      return Reason{"input-mutated", which + " was modified in place (" + std::to_string(n) + " of " +
                                         std::to_string(b.numel()) + " elements changed)"};
    }
  }
  return std::nullopt;
}

std::optional<Reason> check_deterministic(const at::Tensor& first, const at::Tensor& second) {
  if (first.defined() != second.defined() ||
      (first.defined() && (first.sizes() != second.sizes() || first.scalar_type() != second.scalar_type()))) {
    return Reason{"nondeterministic", "a second run with the same inputs returned a different shape or dtype"};
  }
  if (!first.defined()) return std::nullopt;
  if (const auto n = bitwise_differences(first, second); n > 0) {
    return Reason{"nondeterministic", "a second run with the same inputs differs in " + std::to_string(n) + " of " +
                                          std::to_string(first.numel()) + " elements"};
  }
  return std::nullopt;
}

std::optional<Reason> check_deterministic(const at::Tensor& first, const at::Tensor& second, const Tolerance& tol) {
  auto result = compare_outputs(first, second, tol, Contract::elementwise, QuantizationContract{});
  if (result.ok) return std::nullopt;
  return Reason{"nondeterministic",
                "a second run with the same inputs differs beyond the tolerance: " + result.message};
}

void poison_free_memory(c10::Device device, std::size_t bytes) {
  if (bytes < kMinPoisonBlock) bytes = kMinPoisonBlock;
#if defined(__GLIBC__)
  // glibc serves large blocks with mmap and unmaps them on free, and trims the heap's free top: either
  // would hand back the poisoned pages. Keep blocks up to glibc's largest mmap threshold (32 MiB) in the
  // heap and stop trimming, in this (worker) process; larger outputs start as fresh zero pages.
  if (device.is_cpu()) {
    constexpr std::size_t kGlibcMaxMmapThreshold = std::size_t{32} << 20;
    mallopt(M_MMAP_THRESHOLD, static_cast<int>(std::min(4 * bytes, kGlibcMaxMmapThreshold)));
    mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  }
#endif
  // A halving ladder of blocks, from twice the request down, so both large and small later requests land
  // on poison: a block of exactly `bytes` is a few bytes short of an aligned request of `bytes`.
  std::vector<at::Tensor> held;
  for (std::size_t size = 2 * bytes; size >= kMinPoisonBlock; size /= 2) {
    if (auto block = poisoned_block(device, size)) held.push_back(std::move(*block));
  }
  while (!held.empty()) held.pop_back();  // free the smallest first, so neighbours coalesce back
}

bool is_poison_dtype(at::ScalarType dtype) {
  return dtype == at::kHalf || dtype == at::kBFloat16 || dtype == at::kFloat || dtype == at::kDouble;
}

std::optional<Reason> check_poison_read(const at::Tensor& output) {
  if (!output.defined() || !is_poison_dtype(output.scalar_type()) || output.numel() == 0) return std::nullopt;
  const auto bits = bits_of(output);
  std::int64_t word = kPoisonWord64;
  if (bits.element_size() == 2) word = kPoisonWord16;
  if (bits.element_size() == 4) word = kPoisonWord32;
  // 16- and 32-bit patterns are negative in the signed view when their top bit is set; 0x7FF1... is not.
  const auto n = bits.eq(word).sum().item<std::int64_t>();
  if (n == 0) return std::nullopt;
  return Reason{"poison-read", std::to_string(n) + " of " + std::to_string(output.numel()) +
                                   " output elements hold the allocator poison (NaN 0x7FF1...): the output "
                                   "includes memory the submission never wrote"};
}

std::optional<Reason> check_added_onto_poison(const at::Tensor& expected, const at::Tensor& actual) {
  if (!expected.defined() || !actual.defined() || expected.sizes() != actual.sizes() ||
      expected.scalar_type() != actual.scalar_type())
    return std::nullopt;
  std::int64_t poison = 0;
  switch (actual.scalar_type()) {
    case at::kShort:
      poison = kPoisonWord16;
      break;
    case at::kInt:
      poison = kPoisonWord32;
      break;
    case at::kLong:
      poison = kPoisonWord64;
      break;
    default:
      return std::nullopt;  // floating outputs keep the poison as a NaN (poison-read); bytes alternate
  }
  const auto a = actual.detach().to(at::kCPU).contiguous();
  const auto e = expected.detach().to(at::kCPU).contiguous();
  const auto differs = a.ne(e);
  const std::int64_t n = differs.sum().item<std::int64_t>();
  if (n == 0) return std::nullopt;
  // Integer subtraction wraps in the element's width, as the candidate's addition did. The start is the
  // allocator's poison, or the type's minimum that the output-argument adapters fill an unset output with.
  const auto offset = a.sub(e).masked_select(differs);
  const std::int64_t minimum = a.element_size() == 2   ? std::numeric_limits<std::int16_t>::min()
                               : a.element_size() == 4 ? std::numeric_limits<std::int32_t>::min()
                                                       : std::numeric_limits<std::int64_t>::min();
  const char* start = nullptr;
  if (offset.eq(poison).all().item<bool>()) start = "the allocator poison (0x7FF1...)";
  if (offset.eq(minimum).all().item<bool>()) start = "the unset fill (the type's minimum)";
  if (start == nullptr) return std::nullopt;
  return Reason{"uncleared-output",
                std::to_string(n) + " of " + std::to_string(a.numel()) +
                    " output elements are the expected value plus " + start +
                    ": the submission adds into an output it never clears (the harness hands outputs over "
                    "uninitialised, as a task's torch.empty does)"};
}

}  // namespace kgate::runtime
