// What a component is checked with: the data of its companion distribution (its own, or the
// default: two std gaussian-mixture classes in a few dimensions), and where its kind needs them, a
// companion model and loss (the defaults: a small std two-layer network, the loss its outputs call
// for). A component names other companions with contract_data() (featurelab/pack.hpp).
#pragma once

#include "contract.hpp"

#include <featurelab/augment.hpp>
#include <featurelab/error.hpp>
#include <featurelab/gradient_check.hpp>
#include <featurelab/distribution.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/transform.hpp>

#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <sstream>

namespace contract {

// Samples of each split: enough for probes that fit on train and score on test, few enough to be
// cheap for a model of the papers' shapes.
inline constexpr featurelab::Index kSamples = 24;
// Rows of the batch a gradient is checked on.
inline constexpr featurelab::Index kBatchRows = 8;

struct Setup {
  std::shared_ptr<featurelab::Distribution> distribution;
  featurelab::DataSpec spec;
  featurelab::FeatureSet features;
  featurelab::Dataset train, test;
  std::shared_ptr<featurelab::Augment> augment;  // null unless the component names one
  featurelab::Dataset augmented;                 // the augment's output for batch()
  std::shared_ptr<featurelab::Model> model;      // the companion model (or null)
  std::shared_ptr<featurelab::Loss> loss;        // the companion loss (or null)

  // The first kBatchRows training samples, through the companion augment when there is one.
  featurelab::Batch batch();
};

// Finite differences for the gradient checks: in float a step of 2e-3, as std's own model tests use
// (the checker's default 1e-2 moves a ReLU network's pre-activations across their kinks too often);
// in double the checker's defaults.
inline featurelab::GradientCheckOptions gradient_options() {
  featurelab::GradientCheckOptions options;
  if (std::is_same_v<featurelab::Scalar, float>) options.step = 2e-3;
  return options;
}

// The component's parameters for the check: its test_params() over its defaults.
Overrides params_of(const Entry& entry);

// Builds a component of the packs by name ("std:two-layer", or unqualified) on the setup's data.
template <class T>
std::shared_ptr<T> make(const std::string& name, const Overrides& params, const Setup& setup) {
  return harness().make<T>(name, params, setup.spec, 1, &setup.features);
}

// The entry under test itself.
template <class T>
std::shared_ptr<T> make(const Entry& entry, const Setup& setup) {
  return make<T>(entry.id(), params_of(entry), setup);
}

// The companion distribution's data (and the companion augment).
Setup data_for(const Entry& entry);
// Adds the companion model (initialised), built on the setup's data.
void add_model(Setup& setup, const Entry& entry);
// Adds the companion loss for setup.model (the entry's, or the one the model's outputs call for).
void add_loss(Setup& setup, const Entry& entry);

// Fails the check (naming what) unless every label is in [0, classes); classes = 0 means no class
// labels (a regression on the targets), every label 0.
void check_labels(const featurelab::IVec& y, int classes, const std::string& what);

// Throws Error naming the first non-finite entry of what (a matrix or vector of any scalar).
template <class Derived>
void require_finite(const Eigen::DenseBase<Derived>& values, const std::string& what) {
  for (featurelab::Index i = 0; i < values.rows(); ++i) {
    for (featurelab::Index j = 0; j < values.cols(); ++j) {
      if (std::isfinite(static_cast<double>(values(i, j)))) continue;
      std::ostringstream message;
      message << what << " (" << values.rows() << "x" << values.cols() << ") has " << values(i, j) << " at (" << i
              << ", " << j << ")";
      throw featurelab::Error(message.str());
    }
  }
}

// Σ_ik w_ik f_ik(x) / n with w ~ N(0, 1) drawn from a fixed seed for each batch shape: linear in the
// outputs, so its gradient is exactly the backward pass of w/n through the model (or layer) alone,
// whatever loss its outputs would feed. The model and layer contracts check gradients with it.
class WeightedOutputs : public featurelab::OutputLoss {
 public:
  explicit WeightedOutputs(std::uint64_t seed) : seed_(seed) {}
  featurelab::Scalar value_and_gradient(featurelab::ConstMatRef out, const featurelab::Batch&,
                                        featurelab::MatRef dout) const override {
    if (weights_.rows() != out.rows() || weights_.cols() != out.cols()) {
      weights_.resize(out.rows(), out.cols());
      featurelab::Rng rng(seed_);
      rng.fill_normal(weights_);
    }
    dout = weights_ / static_cast<featurelab::Scalar>(out.rows());
    return out.cwiseProduct(dout).sum();
  }

 private:
  std::uint64_t seed_;
  mutable featurelab::Mat weights_;
};

}  // namespace contract
