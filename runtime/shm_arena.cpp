// memfd arenas and typed slot views for the judge <-> worker data channel.
#include "runtime/shm_arena.h"

#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

#include <ATen/ATen.h>

namespace kgate::runtime {
namespace {

struct NamedType {
  const char* name;
  at::ScalarType type;
};
constexpr std::array<NamedType, 10> kTypes{{{"float32", at::kFloat},
                                            {"float16", at::kHalf},
                                            {"bfloat16", at::kBFloat16},
                                            {"float64", at::kDouble},
                                            {"int64", at::kLong},
                                            {"int32", at::kInt},
                                            {"int16", at::kShort},
                                            {"int8", at::kChar},
                                            {"uint8", at::kByte},
                                            {"bool", at::kBool}}};

}  // namespace

Result<MemfdArena> MemfdArena::create(std::size_t bytes) {
  const int fd = ::memfd_create("kgate-arena", MFD_CLOEXEC);
  if (fd < 0) return Error{std::string("memfd_create: ") + std::strerror(errno)};
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    const int err = errno;
    ::close(fd);
    return Error{std::string("ftruncate arena: ") + std::strerror(err)};
  }
  auto attached = attach(fd, bytes);
  if (!attached) ::close(fd);
  return attached;
}

Result<MemfdArena> MemfdArena::attach(int fd, std::size_t bytes) {
  if (bytes == 0) return MemfdArena(fd, nullptr, 0);
  void* data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) return Error{std::string("mmap arena: ") + std::strerror(errno)};
  return MemfdArena(fd, data, bytes);
}

Status MemfdArena::resize(std::size_t bytes) {
  if (::ftruncate(fd_, static_cast<off_t>(bytes)) != 0)
    return Error{std::string("ftruncate arena: ") + std::strerror(errno)};
  if (data_) ::munmap(data_, size_);
  data_ = nullptr;
  size_ = 0;
  if (bytes == 0) return Status::ok();
  void* data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (data == MAP_FAILED) return Error{std::string("mmap arena: ") + std::strerror(errno)};
  data_ = data;
  size_ = bytes;
  return Status::ok();
}

MemfdArena::MemfdArena(MemfdArena&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

MemfdArena::~MemfdArena() {
  if (data_) ::munmap(data_, size_);
  if (fd_ >= 0) ::close(fd_);
}

at::Tensor MemfdArena::bytes() const {
  return at::from_blob(data_, {static_cast<std::int64_t>(size_)}, at::TensorOptions().dtype(at::kByte));
}

std::string scalar_type_name(at::ScalarType type) {
  for (const auto& t : kTypes)
    if (t.type == type) return t.name;
  return c10::toString(type);
}

std::optional<at::ScalarType> parse_scalar_type(const std::string& name) {
  for (const auto& t : kTypes)
    if (name == t.name) return t.type;
  return std::nullopt;
}

nlohmann::json slot_to_json(const TensorSlot& slot) {
  return {{"offset", slot.offset}, {"dtype", scalar_type_name(slot.dtype)}, {"shape", slot.shape}};
}

Result<TensorSlot> slot_from_json(const nlohmann::json& json) {
  TensorSlot slot;
  try {
    slot.offset = json.at("offset").get<std::size_t>();
    auto type = parse_scalar_type(json.at("dtype").get<std::string>());
    if (!type) return Error{"unsupported dtype " + json.at("dtype").dump()};
    slot.dtype = *type;
    slot.shape = json.at("shape").get<std::vector<std::int64_t>>();
  } catch (const nlohmann::json::exception& e) {
    return Error{std::string("malformed tensor slot: ") + e.what()};
  }
  for (auto d : slot.shape)
    if (d < 0) return Error{"negative dimension in tensor slot"};
  return slot;
}

std::size_t slot_bytes(const TensorSlot& slot) {
  std::size_t n = c10::elementSize(slot.dtype);
  for (auto d : slot.shape) n *= static_cast<std::size_t>(d);
  return n;
}

Result<at::Tensor> slot_view(const at::Tensor& arena_bytes, const TensorSlot& slot) {
  const std::size_t n = slot_bytes(slot);
  const auto size = static_cast<std::size_t>(arena_bytes.numel());
  if (slot.offset > size || n > size - slot.offset) return Error{"tensor slot outside the arena"};
  if (slot.offset % kArenaAlignment != 0) return Error{"misaligned tensor slot"};
  return arena_bytes.narrow(0, static_cast<std::int64_t>(slot.offset), static_cast<std::int64_t>(n))
      .view(slot.dtype)
      .view(slot.shape);
}

std::vector<TensorSlot> layout_slots(const std::vector<at::Tensor>& tensors, std::size_t* end) {
  std::vector<TensorSlot> slots;
  std::size_t offset = 0;
  for (const auto& t : tensors) {
    TensorSlot slot{offset, t.scalar_type(), t.sizes().vec()};
    offset = align_up(offset + slot_bytes(slot));
    slots.push_back(std::move(slot));
  }
  *end = offset;
  return slots;
}

}  // namespace kgate::runtime
