// KernelGate shim: ATen and c10 (at::Tensor, factories, ops, dtypes, dispatch macros, checks).
// Ops are declared as variadic templates so any call resolves to its qualified name; the shim is
// for name resolution only, not for type checking.
#pragma once
#include <cstdint>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <tuple>
#include <vector>
#include <utility>
#include "../cuda_runtime.h"
#include "../cuda_bf16.h"

namespace c10 {
enum class ScalarType : int8_t { Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf, ComplexFloat,
                                 ComplexDouble, Bool, QInt8, QUInt8, QInt32, BFloat16, Float8_e5m2 = 23, Float8_e4m3fn = 24, Undefined };
constexpr ScalarType kByte = ScalarType::Byte, kChar = ScalarType::Char, kShort = ScalarType::Short, kInt = ScalarType::Int,
                     kLong = ScalarType::Long, kHalf = ScalarType::Half, kFloat = ScalarType::Float, kDouble = ScalarType::Double,
                     kBool = ScalarType::Bool, kBFloat16 = ScalarType::BFloat16, kFloat16 = ScalarType::Half,
                     kFloat32 = ScalarType::Float, kFloat64 = ScalarType::Double, kInt32 = ScalarType::Int, kInt64 = ScalarType::Long,
                     kFloat8_e4m3fn = ScalarType::Float8_e4m3fn, kFloat8_e5m2 = ScalarType::Float8_e5m2, kUInt8 = ScalarType::Byte,
                     kInt8 = ScalarType::Char, kInt16 = ScalarType::Short;
enum class DeviceType : int8_t { CPU = 0, CUDA = 1, Meta = 9 };
constexpr DeviceType kCPU = DeviceType::CPU, kCUDA = DeviceType::CUDA, kMeta = DeviceType::Meta;
enum class Layout : int8_t { Strided, Sparse };
constexpr Layout kStrided = Layout::Strided;
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };
struct Half { uint16_t x; Half() = default; __host__ __device__ Half(float); __host__ __device__ operator float() const; };
struct BFloat16 { uint16_t x; BFloat16() = default; __host__ __device__ BFloat16(float); __host__ __device__ operator float() const; };
struct Float8_e4m3fn { uint8_t x; };
struct Float8_e5m2 { uint8_t x; };
template <class T> struct complex { T re, im; };
struct Device {
  Device(DeviceType t, int8_t index = -1);
  Device(const std::string& s);
  DeviceType type() const;
  int8_t index() const;
  bool is_cuda() const;
};
struct Scalar {
  Scalar() = default;
  template <class T> Scalar(T v);
  template <class T> T to() const;
  double toDouble() const;
  float toFloat() const;
  int64_t toLong() const;
};
template <class T> class ArrayRef {
 public:
  ArrayRef() = default;
  ArrayRef(const T& one);
  ArrayRef(const T* data, size_t n);
  ArrayRef(std::initializer_list<T> list);
  ArrayRef(const std::vector<T>& v);
  template <size_t N> ArrayRef(const T (&a)[N]);
  const T* begin() const;
  const T* end() const;
  const T* data() const;
  size_t size() const;
  bool empty() const;
  const T& operator[](size_t i) const;
  const T& front() const;
  const T& back() const;
  std::vector<T> vec() const;
};
template <class T> bool operator==(ArrayRef<T> a, ArrayRef<T> b);
template <class T> bool operator!=(ArrayRef<T> a, ArrayRef<T> b);
template <class T> bool operator==(const std::vector<T>& a, ArrayRef<T> b);
template <class T> bool operator!=(const std::vector<T>& a, ArrayRef<T> b);
template <class T> bool operator==(ArrayRef<T> a, const std::vector<T>& b);
template <class T> bool operator!=(ArrayRef<T> a, const std::vector<T>& b);
using IntArrayRef = ArrayRef<int64_t>;
using SymIntArrayRef = ArrayRef<int64_t>;
template <class T> using optional = std::optional<T>;
constexpr std::nullopt_t nullopt = std::nullopt;
struct TypeMeta;
struct TensorOptions {
  TensorOptions() = default;
  TensorOptions(const TypeMeta& t);
  TensorOptions(ScalarType t);
  TensorOptions(DeviceType t);
  TensorOptions(Device d);
  TensorOptions dtype(ScalarType t) const;
  TensorOptions dtype(const TypeMeta& t) const;
  template <class T> TensorOptions dtype() const;
  TensorOptions device(Device d) const;
  TensorOptions device(DeviceType t, int index = -1) const;
  TensorOptions layout(Layout l) const;
  TensorOptions requires_grad(bool r = true) const;
  TensorOptions pinned_memory(bool p = true) const;
  TensorOptions memory_format(MemoryFormat m) const;
  ScalarType dtype() const;
  Device device() const;
};
inline TensorOptions dtype(ScalarType t) { return TensorOptions(t); }
template <class T> TensorOptions dtype();
inline TensorOptions device(Device d) { return TensorOptions(d); }
inline TensorOptions device(DeviceType t) { return TensorOptions(t); }
struct TypeMeta { ScalarType toScalarType() const; size_t itemsize() const; bool operator==(ScalarType) const; bool operator!=(ScalarType) const; };
// Tensor::type() (deprecated, still in TensorBody.h): what old extensions read the dtype and device from.
struct DeprecatedTypeProperties { ScalarType scalarType() const; bool is_cuda() const; bool is_sparse() const; const char* toString() const; TensorOptions options() const; };
inline TensorOptions dtype(const TypeMeta& t) { return TensorOptions(t); }
inline size_t elementSize(ScalarType t);
const char* toString(ScalarType t);
bool isFloatingType(ScalarType t);
template <class T> struct RestrictPtrTraits { typedef T* __restrict__ PtrType; };
template <class T> struct DefaultPtrTraits { typedef T* PtrType; };
namespace detail { [[noreturn]] void torchCheckFail(const char* func, const char* file, uint32_t line, const std::string& msg); }
template <class... A> std::string str(const A&... args);
}  // namespace c10

namespace at {
using namespace c10;
using c10::ScalarType;

template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits, class index_t = int64_t>
class GenericPackedTensorAccessor {
 public:
  __host__ __device__ GenericPackedTensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const;
  __host__ __device__ T* data() const;
  __host__ __device__ index_t size(index_t i) const;
  __host__ __device__ index_t stride(index_t i) const;
};
template <class T, template <class U> class PtrTraits, class index_t>
class GenericPackedTensorAccessor<T, 1, PtrTraits, index_t> {
 public:
  __host__ __device__ T& operator[](index_t i) const;
  __host__ __device__ T* data() const;
  __host__ __device__ index_t size(index_t i) const;
  __host__ __device__ index_t stride(index_t i) const;
};
template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;
template <class T, size_t N> class TensorAccessor {
 public:
  auto operator[](int64_t i) const;
  int64_t size(int64_t i) const;
};

class Tensor;
using TensorList = ArrayRef<Tensor>;

// Tensor methods and at:: functions that take anything; a braced list may come first or second. The
// name is parenthesised so that a function-like macro of the C library (math.h's isfinite, isnan,
// isinf) does not expand there: a prelude that does not compile has no precompiled header.
#define KGATE_TENSOR_METHOD(name)                                  \
  template <class... A> auto(name)(A && ... args) const -> Tensor; \
  template <class... A> auto(name)(IntArrayRef, A && ... args) const -> Tensor;
#define KGATE_AT_FUNCTION(name)                                    \
  template <class... A> auto(name)(A && ... args) -> Tensor;              \
  template <class... A> auto(name)(IntArrayRef, A && ... args) -> Tensor; \
  template <class... A> auto(name)(const Tensor&, IntArrayRef, A && ... args) -> Tensor;

class Tensor {
 public:
  // Declared, not defaulted (as in ATen, where they handle the intrusive pointer): a defaulted special
  // member that a submission odr-uses (`return out;`) makes Clang define it, and defining it walks every
  // member of this class, deserialising all of them from the precompiled header in every translation
  // unit (about 40% of the Clang pass's instructions on the corpus's load_inline files).
  Tensor();
  Tensor(const Tensor&);
  Tensor(Tensor&&) noexcept;
  ~Tensor();
  Tensor& operator=(const Tensor&) &;
  Tensor& operator=(Tensor&&) &;
  Tensor& operator=(const Tensor&) &&;
  Tensor& operator=(Scalar) &&;
  int64_t size(int64_t dim) const;
  IntArrayRef sizes() const;
  int64_t stride(int64_t dim) const;
  IntArrayRef strides() const;
  int64_t numel() const;
  int64_t dim() const;
  int64_t ndimension() const;
  size_t nbytes() const;
  size_t element_size() const;
  size_t itemsize() const;
  int64_t storage_offset() const;
  bool defined() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool is_contiguous(MemoryFormat m = MemoryFormat::Contiguous) const;
  bool is_floating_point() const;
  bool requires_grad() const;
  bool is_same(const Tensor& other) const;
  bool is_alias_of(const Tensor& other) const;
  TypeMeta dtype() const;
  ScalarType scalar_type() const;
  TensorOptions options() const;
  Device device() const;
  int64_t get_device() const;
  void* data_ptr() const;
  template <class T> T* data_ptr() const;
  void* mutable_data_ptr() const;
  template <class T> T* mutable_data_ptr() const;
  const void* const_data_ptr() const;
  template <class T> const T* const_data_ptr() const;
  // Deprecated spellings that TensorBody.h still declares: data<T>() is data_ptr<T>(), type() the dtype.
  template <class T> T* data() const;
  Tensor data() const;
  DeprecatedTypeProperties type() const;
  template <class T> T item() const;
  Scalar item() const;
  template <class T, size_t N> TensorAccessor<T, N> accessor() const&;
  template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits, class index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> generic_packed_accessor() const&;
  template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() const&;
  template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() const&;
  Tensor& zero_() const;
  template <class... A> Tensor& fill_(A&&... args) const;
  template <class... A> Tensor& copy_(A&&... args) const;
  template <class... A> Tensor& add_(A&&... args) const;
  template <class... A> Tensor& sub_(A&&... args) const;
  template <class... A> Tensor& mul_(A&&... args) const;
  template <class... A> Tensor& div_(A&&... args) const;
  template <class... A> Tensor& clamp_(A&&... args) const;
  template <class... A> Tensor& relu_(A&&... args) const;
  template <class... A> Tensor& normal_(A&&... args) const;
  template <class... A> Tensor& uniform_(A&&... args) const;
  template <class... A> Tensor& index_put_(A&&... args) const;
  template <class... A> Tensor& masked_fill_(A&&... args) const;
  template <class... A> Tensor& resize_(A&&... args) const;
  template <class... A> Tensor& set_(A&&... args) const;
  template <class... A> Tensor& addmm_(A&&... args) const;
  Tensor& resize_(IntArrayRef size) const;
  Tensor& t_() const;
  KGATE_TENSOR_METHOD(to)
  KGATE_TENSOR_METHOD(view)
  KGATE_TENSOR_METHOD(reshape)
  KGATE_TENSOR_METHOD(expand)
  KGATE_TENSOR_METHOD(permute)
  KGATE_TENSOR_METHOD(repeat)
  KGATE_TENSOR_METHOD(flatten)
  KGATE_TENSOR_METHOD(unsqueeze)
  KGATE_TENSOR_METHOD(squeeze)
  KGATE_TENSOR_METHOD(transpose)
  KGATE_TENSOR_METHOD(narrow)
  KGATE_TENSOR_METHOD(select)
  KGATE_TENSOR_METHOD(slice)
  KGATE_TENSOR_METHOD(index)
  KGATE_TENSOR_METHOD(index_select)
  KGATE_TENSOR_METHOD(contiguous)
  KGATE_TENSOR_METHOD(clone)
  KGATE_TENSOR_METHOD(detach)
  KGATE_TENSOR_METHOD(t)
  KGATE_TENSOR_METHOD(cuda)
  KGATE_TENSOR_METHOD(cpu)
  KGATE_TENSOR_METHOD(half)
  KGATE_TENSOR_METHOD(bfloat16)
  KGATE_TENSOR_METHOD(toType)
  KGATE_TENSOR_METHOD(type_as)
  KGATE_TENSOR_METHOD(matmul)
  KGATE_TENSOR_METHOD(mm)
  KGATE_TENSOR_METHOD(bmm)
  KGATE_TENSOR_METHOD(mv)
  KGATE_TENSOR_METHOD(addmm)
  KGATE_TENSOR_METHOD(sum)
  KGATE_TENSOR_METHOD(mean)
  KGATE_TENSOR_METHOD(max)
  KGATE_TENSOR_METHOD(min)
  KGATE_TENSOR_METHOD(amax)
  KGATE_TENSOR_METHOD(argmax)
  KGATE_TENSOR_METHOD(softmax)
  KGATE_TENSOR_METHOD(log_softmax)
  KGATE_TENSOR_METHOD(relu)
  KGATE_TENSOR_METHOD(sigmoid)
  KGATE_TENSOR_METHOD(tanh)
  KGATE_TENSOR_METHOD(exp)
  KGATE_TENSOR_METHOD(log)
  KGATE_TENSOR_METHOD(sqrt)
  KGATE_TENSOR_METHOD(reciprocal)
  KGATE_TENSOR_METHOD(square)
  KGATE_TENSOR_METHOD(sign)
  KGATE_TENSOR_METHOD(floor)
  KGATE_TENSOR_METHOD(ceil)
  KGATE_TENSOR_METHOD(round)
  KGATE_TENSOR_METHOD(sin)
  KGATE_TENSOR_METHOD(cos)
  KGATE_TENSOR_METHOD(erf)
  KGATE_TENSOR_METHOD(log1p)
  KGATE_TENSOR_METHOD(expm1)
  KGATE_TENSOR_METHOD(clamp_min)
  KGATE_TENSOR_METHOD(clamp_max)
  KGATE_TENSOR_METHOD(prod)
  KGATE_TENSOR_METHOD(rsqrt)
  KGATE_TENSOR_METHOD(pow)
  KGATE_TENSOR_METHOD(abs)
  KGATE_TENSOR_METHOD(neg)
  KGATE_TENSOR_METHOD(add)
  KGATE_TENSOR_METHOD(sub)
  KGATE_TENSOR_METHOD(mul)
  KGATE_TENSOR_METHOD(div)
  KGATE_TENSOR_METHOD(clamp)
  KGATE_TENSOR_METHOD(cumsum)
  KGATE_TENSOR_METHOD(norm)
  KGATE_TENSOR_METHOD(var)
  KGATE_TENSOR_METHOD(all)
  KGATE_TENSOR_METHOD(any)
  KGATE_TENSOR_METHOD(isfinite)
  KGATE_TENSOR_METHOD(isnan)
  KGATE_TENSOR_METHOD(isinf)
  KGATE_TENSOR_METHOD(std)
  KGATE_TENSOR_METHOD(masked_fill)
  KGATE_TENSOR_METHOD(where)
  KGATE_TENSOR_METHOD(gather)
  KGATE_TENSOR_METHOD(scatter)
  KGATE_TENSOR_METHOD(topk)
  KGATE_TENSOR_METHOD(sort)
  KGATE_TENSOR_METHOD(float_)
  KGATE_TENSOR_METHOD(eq)
  KGATE_TENSOR_METHOD(ne)
  KGATE_TENSOR_METHOD(gt)
  KGATE_TENSOR_METHOD(lt)
  Tensor operator[](int64_t i) const;
  Tensor operator-() const;
  Tensor& operator+=(const Tensor&);
  Tensor& operator*=(const Tensor&);
  Tensor& operator-=(const Tensor&);
  Tensor& operator/=(const Tensor&);
  Tensor& operator+=(Scalar);
  Tensor& operator*=(Scalar);
};
Tensor operator+(const Tensor&, const Tensor&);
Tensor operator-(const Tensor&, const Tensor&);
Tensor operator*(const Tensor&, const Tensor&);
Tensor operator/(const Tensor&, const Tensor&);
Tensor operator+(const Tensor&, Scalar);
Tensor operator-(const Tensor&, Scalar);
Tensor operator*(const Tensor&, Scalar);
Tensor operator/(const Tensor&, Scalar);
Tensor operator*(Scalar, const Tensor&);

KGATE_AT_FUNCTION(empty)
KGATE_AT_FUNCTION(empty_like)
KGATE_AT_FUNCTION(empty_strided)
KGATE_AT_FUNCTION(zeros)
KGATE_AT_FUNCTION(zeros_like)
KGATE_AT_FUNCTION(ones)
KGATE_AT_FUNCTION(ones_like)
KGATE_AT_FUNCTION(full)
KGATE_AT_FUNCTION(full_like)
KGATE_AT_FUNCTION(arange)
KGATE_AT_FUNCTION(rand)
KGATE_AT_FUNCTION(randn)
KGATE_AT_FUNCTION(from_blob)
KGATE_AT_FUNCTION(tensor)
KGATE_AT_FUNCTION(matmul)
KGATE_AT_FUNCTION(mm)
KGATE_AT_FUNCTION(bmm)
KGATE_AT_FUNCTION(mv)
KGATE_AT_FUNCTION(addmm)
KGATE_AT_FUNCTION(baddbmm)
KGATE_AT_FUNCTION(addbmm)
KGATE_AT_FUNCTION(einsum)
KGATE_AT_FUNCTION(linear)
KGATE_AT_FUNCTION(bilinear)
KGATE_AT_FUNCTION(tensordot)
KGATE_AT_FUNCTION(conv1d)
KGATE_AT_FUNCTION(conv2d)
KGATE_AT_FUNCTION(conv3d)
KGATE_AT_FUNCTION(convolution)
KGATE_AT_FUNCTION(conv_transpose1d)
KGATE_AT_FUNCTION(conv_transpose2d)
KGATE_AT_FUNCTION(conv_transpose3d)
KGATE_AT_FUNCTION(cudnn_convolution)
KGATE_AT_FUNCTION(max_pool1d)
KGATE_AT_FUNCTION(max_pool2d)
KGATE_AT_FUNCTION(max_pool3d)
KGATE_AT_FUNCTION(avg_pool1d)
KGATE_AT_FUNCTION(avg_pool2d)
KGATE_AT_FUNCTION(avg_pool3d)
KGATE_AT_FUNCTION(adaptive_avg_pool2d)
KGATE_AT_FUNCTION(batch_norm)
KGATE_AT_FUNCTION(layer_norm)
KGATE_AT_FUNCTION(group_norm)
KGATE_AT_FUNCTION(instance_norm)
KGATE_AT_FUNCTION(rms_norm)
KGATE_AT_FUNCTION(relu)
KGATE_AT_FUNCTION(relu6)
KGATE_AT_FUNCTION(gelu)
KGATE_AT_FUNCTION(silu)
KGATE_AT_FUNCTION(elu)
KGATE_AT_FUNCTION(selu)
KGATE_AT_FUNCTION(leaky_relu)
KGATE_AT_FUNCTION(hardtanh)
KGATE_AT_FUNCTION(sigmoid)
KGATE_AT_FUNCTION(tanh)
KGATE_AT_FUNCTION(softplus)
KGATE_AT_FUNCTION(softmax)
KGATE_AT_FUNCTION(log_softmax)
KGATE_AT_FUNCTION(_softmax)
KGATE_AT_FUNCTION(dropout)
KGATE_AT_FUNCTION(scaled_dot_product_attention)
KGATE_AT_FUNCTION(_scaled_dot_product_flash_attention)
KGATE_AT_FUNCTION(sum)
KGATE_AT_FUNCTION(mean)
KGATE_AT_FUNCTION(prod)
KGATE_AT_FUNCTION(max)
KGATE_AT_FUNCTION(min)
KGATE_AT_FUNCTION(amax)
KGATE_AT_FUNCTION(amin)
KGATE_AT_FUNCTION(argmax)
KGATE_AT_FUNCTION(argmin)
KGATE_AT_FUNCTION(cumsum)
KGATE_AT_FUNCTION(cumprod)
KGATE_AT_FUNCTION(norm)
KGATE_AT_FUNCTION(var)
KGATE_AT_FUNCTION(all)
KGATE_AT_FUNCTION(any)
KGATE_AT_FUNCTION(isfinite)
KGATE_AT_FUNCTION(isnan)
KGATE_AT_FUNCTION(isinf)
KGATE_AT_FUNCTION(std)
KGATE_AT_FUNCTION(logsumexp)
KGATE_AT_FUNCTION(exp)
KGATE_AT_FUNCTION(log)
KGATE_AT_FUNCTION(sqrt)
KGATE_AT_FUNCTION(reciprocal)
KGATE_AT_FUNCTION(square)
KGATE_AT_FUNCTION(sign)
KGATE_AT_FUNCTION(floor)
KGATE_AT_FUNCTION(ceil)
KGATE_AT_FUNCTION(round)
KGATE_AT_FUNCTION(sin)
KGATE_AT_FUNCTION(cos)
KGATE_AT_FUNCTION(erf)
KGATE_AT_FUNCTION(log1p)
KGATE_AT_FUNCTION(expm1)
KGATE_AT_FUNCTION(clamp_min)
KGATE_AT_FUNCTION(clamp_max)
KGATE_AT_FUNCTION(prod)
KGATE_AT_FUNCTION(rsqrt)
KGATE_AT_FUNCTION(pow)
KGATE_AT_FUNCTION(abs)
KGATE_AT_FUNCTION(add)
KGATE_AT_FUNCTION(sub)
KGATE_AT_FUNCTION(mul)
KGATE_AT_FUNCTION(div)
KGATE_AT_FUNCTION(clamp)
KGATE_AT_FUNCTION(where)
KGATE_AT_FUNCTION(cat)
KGATE_AT_FUNCTION(stack)
KGATE_AT_FUNCTION(topk)
KGATE_AT_FUNCTION(sort)
KGATE_AT_FUNCTION(gather)
KGATE_AT_FUNCTION(index_select)
KGATE_AT_FUNCTION(cross_entropy_loss)
KGATE_AT_FUNCTION(mse_loss)
KGATE_AT_FUNCTION(l1_loss)
KGATE_AT_FUNCTION(nll_loss)
KGATE_AT_FUNCTION(kl_div)
KGATE_AT_FUNCTION(cosine_similarity)
KGATE_AT_FUNCTION(pairwise_distance)
KGATE_AT_FUNCTION(cdist)
KGATE_AT_FUNCTION(triu)
KGATE_AT_FUNCTION(tril)
KGATE_AT_FUNCTION(pad)
KGATE_AT_FUNCTION(constant_pad_nd)
KGATE_AT_FUNCTION(upsample_nearest2d)
KGATE_AT_FUNCTION(upsample_bilinear2d)
KGATE_AT_FUNCTION(embedding)
KGATE_AT_FUNCTION(_int_mm)
KGATE_AT_FUNCTION(_scaled_mm)
KGATE_AT_FUNCTION(quantize_per_tensor)
KGATE_AT_FUNCTION(quantize_per_channel)
KGATE_AT_FUNCTION(dequantize)
KGATE_AT_FUNCTION(fft_fft)
KGATE_AT_FUNCTION(fft_rfft)
KGATE_AT_FUNCTION(native_layer_norm)
KGATE_AT_FUNCTION(native_batch_norm)
namespace native { KGATE_AT_FUNCTION(matmul) KGATE_AT_FUNCTION(empty_cuda) }
namespace cuda {
KGATE_AT_FUNCTION(matmul)
}
struct Context {
  void setAllowTF32CuBLAS(bool);
  void setAllowTF32CuDNN(bool);
  void setAllowFP16ReductionCuBLAS(bool);
  void setAllowBF16ReductionCuBLAS(bool);
  void setFloat32MatmulPrecision(const std::string&);
  bool allowTF32CuBLAS() const;
  void setBenchmarkCuDNN(bool);
  void setDeterministicCuDNN(bool);
};
Context& globalContext();
void manual_seed(uint64_t seed);
struct Generator {};
Generator& detail_getDefaultCUDAGenerator();
}  // namespace at

namespace torch {
using namespace at;
using at::Tensor;
using c10::RestrictPtrTraits;
using c10::DefaultPtrTraits;
template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = at::PackedTensorAccessor32<T, N, PtrTraits>;
using Dtype = at::ScalarType;
}  // namespace torch

#define TORCH_CHECK(cond, ...) \
  if (!(cond)) ::c10::detail::torchCheckFail(__func__, __FILE__, __LINE__, ::c10::str(__VA_ARGS__))
#define TORCH_CHECK_EQ(a, b) TORCH_CHECK((a) == (b))
#define TORCH_CHECK_VALUE(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_INTERNAL_ASSERT(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_WARN(...) ((void)::c10::str(__VA_ARGS__))
#define AT_ASSERT(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define AT_ASSERTM(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define AT_ERROR(...) ::c10::detail::torchCheckFail(__func__, __FILE__, __LINE__, ::c10::str(__VA_ARGS__))
#define C10_CUDA_CHECK(expr) do { cudaError_t __err = (expr); (void)__err; } while (0)
#define AT_CUDA_CHECK(expr) C10_CUDA_CHECK(expr)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())
#define C10_LIKELY(x) (x)
#define C10_UNLIKELY(x) (x)
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_RESTRICT __restrict__
#define C10_WARP_SIZE 32

// Dispatch macros: the lambda body is parsed once with scalar_t = float.
#define KGATE_DISPATCH_BODY(...) [&] { using scalar_t = float; return __VA_ARGS__(); }()
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) KGATE_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) KGATE_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND(T1, TYPE, NAME, ...) KGATE_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND2(T1, T2, TYPE, NAME, ...) KGATE_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND3(T1, T2, T3, TYPE, NAME, ...) KGATE_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...) KGATE_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) KGATE_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND(T1, TYPE, NAME, ...) KGATE_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND2(T1, T2, TYPE, NAME, ...) KGATE_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) KGATE_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, ...) KGATE_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_CASE(ENUM, ...) case ENUM: { using scalar_t = float; __VA_ARGS__(); break; }
#define AT_DISPATCH_CASE_FLOATING_TYPES(...) AT_DISPATCH_CASE(::c10::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_SWITCH(TYPE, NAME, ...) [&] { switch (TYPE) { __VA_ARGS__ default: break; } }()
