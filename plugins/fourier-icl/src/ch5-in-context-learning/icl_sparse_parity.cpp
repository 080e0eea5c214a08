// Tasks and examples drawn per prompt; tokens written into the prompt row as icl-linear-regression does.
#include "icl_sparse_parity.hpp"

#include <algorithm>
#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <cmath>
#include <vector>

namespace featurelab::fourier_icl_pack {

namespace {
bool power_of_two(Index n) { return n > 0 && (n & (n - 1)) == 0; }
}  // namespace

Schema IclSparseParity::schema() {
  Schema s;
  s.integer("d", 8, "hidden dimension (a power of 2, the theorem's d = 2^{v_2})").min(2);
  s.integer("k", 2, "size of the important set A = [k] (a power of 2, k = 2^{v_1} < d)").min(2);
  s.real("gamma", 0.1, "γ: bias of (φ_i, φ_j), in (0, 1/4)").above(0).below(0.25);
  s.real("p_task", 0.01, "p_T: probability of a task from S_2 in the train prompts").min(0).below(0.5);
  s.choice("dictionary", "identity", {"identity", "random-orthogonal"}, "G");
  s.integer("context", 0, "N: examples per train prompt; 0 = the population context (N → ∞)").min(0);
  s.integer("shots", 64, "M: examples per test prompt").min(1);
  s.real("flip", 0.0, "fraction of the test prompts' context labels negated (exactly round(flip·M))").range(0, 1);
  s.choice("test_tasks", "S1", {"S1", "mixed"}, "test prompts' tasks: uniform on S_1, or the train mixture");
  return s;
}

IclSparseParity::IclSparseParity(const Params& params, Context& context)
    : d_(params.integer("d")),
      k_(params.integer("k")),
      context_(params.integer("context")),
      shots_(params.integer("shots")),
      gamma_(params.real("gamma")),
      p_task_(params.real("p_task")),
      flip_(params.real("flip")),
      test_mixed_(params.str("test_tasks") == "mixed") {
  if (!power_of_two(d_) || !power_of_two(k_) || k_ >= d_) {
    throw Error("icl-sparse-parity needs d and k powers of 2 with k < d (Thm. 5.5.1: d = 2^{v_2}, k = 2^{v_1}); got d = " +
                std::to_string(d_) + ", k = " + std::to_string(k_));
  }
  if (params.str("dictionary") == "identity") {
    G_ = MatD::Identity(d_, d_);
  } else {
    G_ = random_orthogonal<MatD>(context.rng, d_);
  }
  slots_ = std::max<Index>(std::max<Index>(context_, 1), shots_);
}

double IclSparseParity::dimension(const Params& params) {
  // (slots + 1) × (d + 1), slots = max(context, 1, shots).
  const double slots = double(std::max({params.integer("context"), std::int64_t(1), params.integer("shots")}));
  return (slots + 1) * (double(params.integer("d")) + 1);
}

DataSpec IclSparseParity::spec() const {
  DataSpec s;
  s.dim = (slots_ + 1) * (d_ + 1);
  s.classes = 2;
  s.shape.dims = {slots_ + 1, d_ + 1};
  s.meta = {"task_i", "task_j", "in_s1"};
  return s;
}

void IclSparseParity::draw_phi(Index i, Index j, Rng& rng, VecD& phi) const {
  for (Index l = 0; l < d_; ++l) phi(l) = rng.bernoulli(0.5) ? 1.0 : -1.0;
  const double u = rng.uniform();
  // (1, 1): 1/4 + γ; (1, −1): 1/4; (−1, 1): 1/4; (−1, −1): 1/4 − γ.
  if (u < 0.25 + gamma_) {
    phi(i) = 1, phi(j) = 1;
  } else if (u < 0.5 + gamma_) {
    phi(i) = 1, phi(j) = -1;
  } else if (u < 0.75 + gamma_) {
    phi(i) = -1, phi(j) = 1;
  } else {
    phi(i) = -1, phi(j) = -1;
  }
}

void IclSparseParity::sample(Index n, Split split, Rng& rng, Dataset& out) {
  const bool train = split == Split::Train;
  const Index stride = d_ + 1;
  out.resize(n, (slots_ + 1) * stride);
  out.classes = 2;
  out.shape.dims = {slots_ + 1, d_ + 1};
  out.X.setZero();
  VecD& task_i = out.meta["task_i"];
  VecD& task_j = out.meta["task_j"];
  VecD& in_s1 = out.meta["in_s1"];
  task_i.resize(n);
  task_j.resize(n);
  in_s1.resize(n);
  VecD phi(d_), x(d_);
  std::vector<Index> flips;
  for (Index r = 0; r < n; ++r) {
    // The task: an ordered pair i ≠ j, from S_1 (both in A) or S_2 (not both in A).
    const bool from_s2 = (train || test_mixed_) && rng.bernoulli(p_task_);
    Index i = 0, j = 0;
    do {
      const Index range = from_s2 ? d_ : k_;
      i = rng.integer(0, range - 1);
      j = rng.integer(0, range - 1);
    } while (i == j || (from_s2 && i < k_ && j < k_));
    task_i(r) = static_cast<double>(i + 1);
    task_j(r) = static_cast<double>(j + 1);
    in_s1(r) = from_s2 ? 0 : 1;
    if (train && context_ == 0) {
      VecD z = VecD::Zero(d_);
      z(i) = z(j) = 2 * gamma_;
      out.X.row(r).segment(0, d_) = (G_ * z).cast<Scalar>().transpose();
      out.X(r, d_) = 1;
    } else {
      const Index filled = train ? context_ : shots_;
      flips.clear();
      if (!train) {
        const auto order = rng.permutation(filled);
        const auto count = static_cast<Index>(std::llround(flip_ * static_cast<double>(filled)));
        flips.assign(order.begin(), order.begin() + count);
      }
      std::vector<char> flipped(static_cast<std::size_t>(filled), 0);
      for (Index f : flips) flipped[static_cast<std::size_t>(f)] = 1;
      for (Index t = 0; t < filled; ++t) {
        draw_phi(i, j, rng, phi);
        x = G_ * phi;
        out.X.row(r).segment(t * stride, d_) = x.cast<Scalar>().transpose();
        const double label = phi(i) * phi(j);
        out.X(r, t * stride + d_) = static_cast<Scalar>(flipped[static_cast<std::size_t>(t)] ? -label : label);
      }
    }
    draw_phi(i, j, rng, phi);
    out.X.row(r).segment(slots_ * stride, d_) = (G_ * phi).cast<Scalar>().transpose();
    out.y(r) = phi(i) * phi(j) > 0 ? 1 : 0;
  }
}

FeatureSet IclSparseParity::features() const {
  Mat setting(1, 4);
  setting << static_cast<Scalar>(d_), static_cast<Scalar>(k_), static_cast<Scalar>(gamma_), static_cast<Scalar>(p_task_);
  return {{"dictionary", G_.transpose().cast<Scalar>()}, {"setting", setting}};
}

}  // namespace featurelab::fourier_icl_pack
