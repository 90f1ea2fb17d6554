// KernelGate shim: curand_kernel.h.
#pragma once
#include "kgate_cuda_defs.h"
struct curandStatePhilox4_32_10_t { unsigned s[8]; };
struct curandStateXORWOW { unsigned s[6]; };
typedef struct curandStateXORWOW curandState_t;
typedef curandState_t curandState;
template <class S> __device__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset, S* state);
template <class S> __device__ float curand_uniform(S* state);
template <class S> __device__ float curand_normal(S* state);
template <class S> __device__ unsigned curand(S* state);
