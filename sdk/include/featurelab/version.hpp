// ABI version and build fingerprint.
//
// FEATURELAB_ABI_VERSION increments whenever a class in sdk/include changes layout or gains,
// loses or reorders a virtual function, or the PackHeader struct changes. A plugin built against
// another ABI is refused before any of its C++ objects is touched.
//
// The fingerprint records what must agree for C++ objects (std::string, Eigen matrices) to
// cross the plugin boundary safely: compiler, standard-library ABI, Eigen version and alignment,
// SIMD flags and the scalar type. It is computed by this inline function in each translation unit
// that calls it, i.e. with the flags of the plugin or of the core that includes it.
#pragma once

#include <featurelab/types.hpp>

#include <string>

#define FEATURELAB_ABI_VERSION 6u
#define FEATURELAB_SDK_VERSION "0.1.0"

namespace featurelab {

inline std::string build_fingerprint() {
  std::string fp;
  auto field = [&fp](const char* key, const std::string& value) {
    if (!fp.empty()) fp += ';';
    fp += key;
    fp += '=';
    fp += value;
  };
#if defined(__clang__)
  field("compiler", "clang-" + std::to_string(__clang_major__));
#elif defined(__GNUC__)
  field("compiler", "gcc-" + std::to_string(__GNUC__));
#else
  field("compiler", "unknown");
#endif
#if defined(_GLIBCXX_USE_CXX11_ABI)
  field("cxx11abi", std::to_string(_GLIBCXX_USE_CXX11_ABI));
#else
  field("cxx11abi", "none");
#endif
  field("eigen", std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) +
                     "." + std::to_string(EIGEN_MINOR_VERSION));
  field("eigen_align", std::to_string(EIGEN_MAX_ALIGN_BYTES) + "/" +
                           std::to_string(EIGEN_MAX_STATIC_ALIGN_BYTES));
  std::string simd;
  auto flag = [&simd](const char* name) {
    if (!simd.empty()) simd += ',';
    simd += name;
  };
#if defined(__AVX512F__)
  flag("avx512f");
#endif
#if defined(__AVX2__)
  flag("avx2");
#endif
#if defined(__AVX__)
  flag("avx");
#endif
#if defined(__FMA__)
  flag("fma");
#endif
#if defined(__SSE4_2__)
  flag("sse4.2");
#endif
#if defined(__ARM_NEON)
  flag("neon");
#endif
  field("simd", simd.empty() ? "baseline" : simd);
  field("scalar", kScalarName);
  field("sdk", FEATURELAB_SDK_VERSION);
  return fp;
}

}  // namespace featurelab
