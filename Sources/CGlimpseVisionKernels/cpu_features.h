// Which instruction-set extensions the CPU has, asked once per process and cached (a benign race:
// every thread computes the same value). Private to CGlimpseVisionKernels: each kernel picks its
// variant with these.
#ifndef GLIMPSE_CPU_FEATURES_H
#define GLIMPSE_CPU_FEATURES_H

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GLIMPSE_X86_KERNELS 1

/// 1 when the CPU has POPCNT.
int glimpse_cpu_has_popcnt(void);
/// 1 when the CPU has AVX2 and POPCNT.
int glimpse_cpu_has_avx2(void);
/// 1 when the CPU has AVX-512F.
int glimpse_cpu_has_avx512f(void);
/// 1 when the CPU has AVX-512F and AVX-512 VPOPCNTDQ.
int glimpse_cpu_has_avx512_popcnt(void);
#endif

#endif
