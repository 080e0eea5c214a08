// ABI version and build fingerprint.
//
// FEATURELAB_ABI_VERSION increments whenever a class in sdk/include changes layout or gains,
// loses or reorders a virtual function, or the PackHeader struct changes. A plugin built against
// another ABI is refused before any of its C++ objects is touched.
//
// ABI 7: ComponentInfo gains interface_id (the kind interface a component implements, checked at load).
// ABI 8: ComponentInfo gains test_params, metrics and contract (what the contract test builds a component
// with); Context gains make_activation.
// ABI 9: Model gains fused_step; OutputLoss gains separable and row_block (one pass over X per step).
// ABI 10: ParamSpec gains pipeline_relative; Schema gains other_keys (a Python probe's own parameters).
// ABI 11: kind Layer; Value gains ComponentList (sub-components: a network's layers) and ParamSpec
// component_kind; Context gains make_component; TrainerHost checks gradients (train.check_gradient).
// ABI 12: fused_step, weighs_patch_counts, separable and row_block leave Model and OutputLoss for the optional
// capabilities FusedStep, WeighsPatchCounts and SeparableLoss (capabilities.hpp).
// ABI 13: kind Callback (callback.hpp); TrainerHost runs the pipeline's callbacks, check_step takes the gradient
// to change (VecRef) and TrainerHost gains the callbacks, the step's metrics, the callbacks' stop and
// save_parameters (checkpoints).
// ABI 14: Dataset and Batch gain input codes (X = codes·basis) and the capability CodedInputs.
//
// Beside the number, the fingerprint carries a hash of the SDK's public headers (the field "headers",
// computed by CMake when it configures the SDK, installed as featurelab/sdk_headers.hpp): a plugin built
// against other headers is refused even where nobody remembered to raise the ABI number.
//
// The fingerprint records what must agree for C++ objects (std::string, Eigen matrices) to
// cross the plugin boundary safely: compiler, standard-library ABI, Eigen version and alignment,
// SIMD flags, the scalar type and the matrix product kernel (FEATURELAB_BLAS: products must round
// alike in the core and every plugin). It must be computed with the flags of the unit that calls it
// (the plugin's FEATURELAB_PACK unit, or the core's loader), so the function has internal linkage
// (static): an inline function with default visibility is one symbol per process, and inside a
// loaded plugin the call binds to the core's copy (ELF interposition), so every plugin would
// report the core's fingerprint and a plugin built with other flags would load.
//
// One field is not a condition of loading: "optimized", whether the compiler optimised the plugin's code. A
// plugin built without it (CMAKE_BUILD_TYPE Debug, or none) works, and a debug build is sometimes wanted, but it
// runs tens of times slower (57× in one measurement), so the core warns about it wherever it lists plugins
// (`validate`, `run`, `list`, `plugins doctor`). FEATURELAB_UNOPTIMIZED_ON_PURPOSE silences that where -O0 is
// chosen (make sanitize's paper packs).
#pragma once

#include <featurelab/sdk_headers.hpp>
#include <featurelab/types.hpp>

#include <string>

#define FEATURELAB_ABI_VERSION 14u
#define FEATURELAB_SDK_VERSION "0.1.0"

namespace featurelab {

// Internal linkage on purpose (see above): never make this `inline` alone or move it to a .cpp.
static inline std::string build_fingerprint() {
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
#if defined(FEATURELAB_BLAS_NAME)
  field("blas", FEATURELAB_BLAS_NAME);
#else
  field("blas", "eigen");
#endif
#if defined(__OPTIMIZE__)
  field("optimized", "yes");
#elif defined(FEATURELAB_UNOPTIMIZED_ON_PURPOSE)
  field("optimized", "no-on-purpose");
#else
  field("optimized", "no");
#endif
  field("sdk", FEATURELAB_SDK_VERSION);
  field("headers", FEATURELAB_SDK_HEADERS_SHA256);
  return fp;
}

// "simd: plugin avx2,fma, core avx512f,avx2,fma" for every field that differs (fields joined by
// "; "), "optimized" aside; empty if the plugin may load. Used by the core's loader and testing::Harness.
std::string fingerprint_difference(const std::string& plugin, const std::string& core);

// One field's value ("" when the fingerprint has none): fingerprint_field(fp, "optimized") is "yes", "no" or
// "no-on-purpose".
std::string fingerprint_field(const std::string& fingerprint, const std::string& key);

// The warning for a plugin whose fingerprint says it was built without optimisation, naming its file; "" for one
// built with it, or without it on purpose.
std::string unoptimized_plugin_warning(const std::string& fingerprint, const std::string& file);

}  // namespace featurelab
