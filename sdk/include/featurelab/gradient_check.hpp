// Finite-difference checks of a model + loss gradient, for plugin tests.
//
//   auto result = featurelab::check_gradient(model, loss, batch);
//   REQUIRE(result.ok);   // result.report says which coordinate or direction disagreed
//
// Central differences in double precision are not available when Scalar is float, so the check
// compares directional derivatives along random unit directions (robust to rounding), one direction
// within each trainable block (so a wrong block is named), and a sample of single coordinates, with
// tolerances that depend on the scalar type.
#pragma once

#include <featurelab/loss.hpp>

#include <string>

namespace featurelab {

struct GradientCheckOptions {
  int directions = 8;       // random directions in parameter space
  int coordinates = 24;     // single coordinates (chosen among the largest gradient entries too)
  double step = 0.0;        // finite-difference step; 0 = chosen by the scalar type
  double tolerance = 0.0;   // relative tolerance; 0 = chosen by the scalar type
  std::uint64_t seed = 7;
};

struct GradientCheckResult {
  bool ok = true;
  double max_relative_error = 0.0;
  std::string report;  // one line per failed comparison
};

// Checks d loss(model(batch)) / d parameters. The model's parameters are restored afterwards.
GradientCheckResult check_gradient(Model& model, Loss& loss, const Batch& batch,
                                   GradientCheckOptions options = {});

// Checks Model::input_gradient against finite differences of Σ_ij weights_ij · f(X)_ij.
GradientCheckResult check_input_gradient(Model& model, const Batch& batch,
                                         GradientCheckOptions options = {});

}  // namespace featurelab
