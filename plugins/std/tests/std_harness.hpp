// The built std plugin, loaded once for all of the pack's tests, and checks several of them share.
#pragma once

#include <featurelab/loss.hpp>
#include <featurelab/model.hpp>
#include <featurelab/testing.hpp>
#include <featurelab/threads.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <string>

namespace std_test {

using Overrides = std::map<std::string, featurelab::Value>;

inline featurelab::testing::Harness& harness() { return featurelab::testing::pack(FEATURELAB_STD_PLUGIN); }

// The loss, the outputs, the loss's gradient and the input gradient (of a constant 0.25 output gradient)
// on `data` are the same bits on one, two and three threads, and the gradients not all zero.
inline void check_same_bits_on_threads(featurelab::Model& model, featurelab::Loss& loss, const featurelab::Dataset& data,
                                       featurelab::Index outputs) {
  using namespace featurelab;
  const auto run = [&](int threads, Vec& grad, Mat& dX) {
    set_job_threads(threads);
    grad.resize(model.trainable_size());
    const Scalar value = loss.evaluate_with_gradient(model, Batch::of(data), grad);
    Mat out(data.size(), outputs);
    model.forward(data.X, out);
    dX.resize(data.size(), data.X.cols());
    model.input_gradient(data.X, Mat::Constant(data.size(), outputs, Scalar(0.25)), dX);
    set_job_threads(1);
    return value + out.sum();
  };
  Vec g1, g2, g3;
  Mat d1, d2, d3;
  const Scalar v1 = run(1, g1, d1), v2 = run(2, g2, d2), v3 = run(3, g3, d3);
  CHECK(v1 == v2);
  CHECK(v1 == v3);
  CHECK(g1 == g2);
  CHECK(g1 == g3);
  CHECK(d1 == d2);
  CHECK(d1 == d3);
  CHECK(g1.norm() > 0);
  CHECK(d1.norm() > 0);
}

}  // namespace std_test
