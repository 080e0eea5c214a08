// Scalar type and Eigen aliases shared by the core and every plugin.
//
// All data is row-major: a dataset is n×D with one sample per row, so a contiguous range of
// samples is a contiguous block of memory (a minibatch in order is a Map, not a copy).
#pragma once

#include <featurelab/sdk_headers.hpp>

#include <Eigen/Core>
#include <cstdint>

// A plugin is compiled for the scalar type of the SDK it builds against (find_package(featurelab) gives it): built for
// the other, its matrices would be of another type than the core's, and it could not load. Named here, at its first
// compile, instead of as a mangled undefined symbol at load. (FEATURELAB_TEST_OTHER_SCALAR: the test fixture that
// checks the loader's own refusal.)
#if !defined(FEATURELAB_TEST_OTHER_SCALAR)
#if defined(FEATURELAB_SCALAR_DOUBLE) && !FEATURELAB_SDK_SCALAR_DOUBLE
#error "featurelab: this SDK was built with float as its scalar type, but this code is compiled with FEATURELAB_SCALAR_DOUBLE (double): remove that definition (featurelab_add_plugin() sets the SDK's), or build featurelab itself with -DFEATURELAB_DOUBLE=ON"
#elif !defined(FEATURELAB_SCALAR_DOUBLE) && FEATURELAB_SDK_SCALAR_DOUBLE
#error "featurelab: this SDK was built with double as its scalar type (FEATURELAB_DOUBLE=ON), but this code is compiled without FEATURELAB_SCALAR_DOUBLE (float): link featurelab::sdk, which defines it, or build featurelab itself without -DFEATURELAB_DOUBLE=ON"
#endif
#endif

namespace featurelab {

#ifdef FEATURELAB_SCALAR_DOUBLE
using Scalar = double;
inline constexpr const char* kScalarName = "double";
#else
using Scalar = float;
inline constexpr const char* kScalarName = "float";
#endif

// For the few places (mostly tests) whose tolerance or method depends on the precision.
inline constexpr bool kDouble = sizeof(Scalar) == 8;

using Index = Eigen::Index;
using Mat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
using RowVec = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;
using IVec = Eigen::Matrix<std::int32_t, Eigen::Dynamic, 1>;
using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using VecD = Eigen::VectorXd;

using MatMap = Eigen::Map<Mat>;
using ConstMatMap = Eigen::Map<const Mat>;
using VecMap = Eigen::Map<Vec>;
using ConstVecMap = Eigen::Map<const Vec>;
using ConstIVecMap = Eigen::Map<const IVec>;

// Inputs are Ref<const ...>, outputs Ref<...> presized by the caller (see PITFALLS.md beside this header:
// a column-major argument would be copied silently, so every signature is row-major).
using MatRef = Eigen::Ref<Mat>;
using ConstMatRef = Eigen::Ref<const Mat>;
using VecRef = Eigen::Ref<Vec>;
using ConstVecRef = Eigen::Ref<const Vec>;

}  // namespace featurelab
