// KLAMPT_AVX2_CLONES on a hot function compiles it twice, for AVX2/FMA
// (x86-64-v3) and for the baseline, and picks the version the CPU supports
// when the module loads. Only the function's own code changes: Eigen's
// alignment and data layout stay those of the baseline build, so objects
// still pass freely between translation units and prebuilt libraries.
#pragma once

#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__)
#define KLAMPT_AVX2_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define KLAMPT_AVX2_CLONES
#endif
