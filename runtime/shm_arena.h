// The data half of the judge <-> worker channel: one byte arena mapped by both processes (a memfd on
// CPU; a CUDA buffer shared through CUDA IPC on GPU), and typed views of tensor slots inside it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"

namespace kgate::runtime {

constexpr std::size_t kArenaAlignment = 256;
constexpr std::size_t align_up(std::size_t n) { return (n + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment; }

// A shared memfd mapping; the judge creates it, the worker attaches to the inherited descriptor. The
// judge may create it empty (no mapping), start the worker, and size it once it knows the task's needs.
class MemfdArena {
 public:
  static Result<MemfdArena> create(std::size_t bytes);
  static Result<MemfdArena> attach(int fd, std::size_t bytes);
  Status resize(std::size_t bytes);  // the mapping moves; views of the old one are invalid
  MemfdArena(MemfdArena&& other) noexcept;
  MemfdArena& operator=(MemfdArena&&) = delete;
  MemfdArena(const MemfdArena&) = delete;
  ~MemfdArena();

  int fd() const { return fd_; }
  std::size_t size() const { return size_; }
  at::Tensor bytes() const;  // a uint8 CPU tensor over the whole mapping (no copy)

 private:
  MemfdArena(int fd, void* data, std::size_t size) : fd_(fd), data_(data), size_(size) {}
  int fd_ = -1;
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

// One tensor inside the arena: a contiguous block at offset.
struct TensorSlot {
  std::size_t offset = 0;
  at::ScalarType dtype = at::kFloat;
  std::vector<std::int64_t> shape;
};

std::string scalar_type_name(at::ScalarType);  // "float32", "float16", "bfloat16", "int64", ...
std::optional<at::ScalarType> parse_scalar_type(const std::string&);

nlohmann::json slot_to_json(const TensorSlot&);
Result<TensorSlot> slot_from_json(const nlohmann::json&);

std::size_t slot_bytes(const TensorSlot&);
// The slot as a typed tensor over the arena's bytes; an error when it does not fit.
Result<at::Tensor> slot_view(const at::Tensor& arena_bytes, const TensorSlot&);

// Lays tensors out one after another from offset 0; returns the slots and the first free byte.
std::vector<TensorSlot> layout_slots(const std::vector<at::Tensor>& tensors, std::size_t* end);

}  // namespace kgate::runtime
