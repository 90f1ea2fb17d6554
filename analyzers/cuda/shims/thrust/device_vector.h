// KernelGate shim: Thrust (containers, pointers, execution policies and algorithms).
#pragma once
#include "../cuda_runtime.h"
#include <vector>
namespace thrust {
template <class T> class device_ptr {
 public:
  device_ptr() = default;
  explicit device_ptr(T* p);
  T* get() const;
  device_ptr operator+(long n) const;
  T& operator*() const;
};
template <class T> device_ptr<T> device_pointer_cast(T* p);
template <class T> T* raw_pointer_cast(const device_ptr<T>& p);
template <class T> T* raw_pointer_cast(T* p);
template <class T> class device_vector {
 public:
  device_vector();
  explicit device_vector(size_t n);
  device_vector(size_t n, const T& v);
  template <class It> device_vector(It first, It last);
  device_ptr<T> begin();
  device_ptr<T> end();
  device_ptr<T> data();
  size_t size() const;
  void resize(size_t n);
};
template <class T> class host_vector : public std::vector<T> {};
struct device_execution_policy {};
constexpr device_execution_policy device{};
constexpr device_execution_policy host{};
namespace cuda { struct par_t { device_execution_policy on(cudaStream_t s) const; }; constexpr par_t par{}; struct par_nosync_t { device_execution_policy on(cudaStream_t s) const; }; constexpr par_nosync_t par_nosync{}; }
namespace system { namespace cuda { using thrust::cuda::par; } }
template <class T = void> struct plus { __host__ __device__ T operator()(const T& a, const T& b) const; };
template <class T = void> struct multiplies { __host__ __device__ T operator()(const T& a, const T& b) const; };
template <class T = void> struct maximum { __host__ __device__ T operator()(const T& a, const T& b) const; };
template <class T = void> struct minimum { __host__ __device__ T operator()(const T& a, const T& b) const; };
template <class T = void> struct negate { __host__ __device__ T operator()(const T& a) const; };
template <class T = void> struct square { __host__ __device__ T operator()(const T& a) const; };
template <class T = void> struct identity { __host__ __device__ T operator()(const T& a) const; };
template <class... A> auto transform(A&&...);
template <class... A> auto transform_reduce(A&&...);
template <class... A> auto reduce(A&&...);
template <class... A> auto reduce_by_key(A&&...);
template <class... A> void sort(A&&...);
template <class... A> void sort_by_key(A&&...);
template <class... A> void stable_sort(A&&...);
template <class... A> void fill(A&&...);
template <class... A> auto copy(A&&...);
template <class... A> void sequence(A&&...);
template <class... A> auto inclusive_scan(A&&...);
template <class... A> auto exclusive_scan(A&&...);
template <class... A> auto max_element(A&&...);
template <class... A> auto min_element(A&&...);
template <class... A> auto inner_product(A&&...);
template <class... A> void for_each(A&&...);
template <class... A> void for_each_n(A&&...);
template <class... A> auto make_counting_iterator(A&&...);
template <class... A> auto make_transform_iterator(A&&...);
template <class... A> auto make_zip_iterator(A&&...);
template <class... A> auto make_tuple(A&&...);
}  // namespace thrust
