// Building the ground-truth networks from the features; forward/backward as batched products.
#include "ground_truth_net.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace featurelab::feature_emergence_pack {

namespace {

// A non-empty feature the network is built from; `what` says its shape and which distribution has it.
const Mat& need(const FeatureSet& features, const std::string& who, const std::string& name, const std::string& what) {
  const Mat& m = require_feature(features, who, name,
                                 "use a distribution that exposes it (" + what + "), or set `feature` to the matrix that holds it");
  if (m.size() == 0) throw Error(who + ": the distribution's feature \"" + name + "\" is empty");
  return m;
}

// One neuron of the constructed network.
struct Neuron {
  Mat w;  // 1×d
  double b, a;
};

}  // namespace

Schema GroundTruthNet::schema() {
  Schema s;
  s.choice("kind", "ch3-parity", {"ch2-bump", "ch3-parity", "ch3-mixture", "ch3-linear"},
           "which network: ch2-bump (Lemma 2.5), ch3-parity (Lemma B.51), ch3-mixture (Lemma B.34), ch3-linear (Lemma B.26)")
      .required();
  s.string("feature", "", "the distribution's feature with the directions; empty = the kind's own: ground_truth (ch2-bump), "
                          "directions (ch3-parity, ch3-mixture), direction (ch3-linear)");
  s.boolean("trainable_readout", false, "train block a (to estimate OPT with the first layer fixed); otherwise nothing trains");
  s.choice("label", "parity", {"parity", "threshold", "interval", "set"},
           "ch2-bump: the positive counts P of relevant patterns: odd counts, c > k/2, [t1, t2] (interval) or positive_counts");
  s.integers("interval", {20, 30}, "ch2-bump, label = interval: [t1, t2]");
  s.integers("positive_counts", {}, "ch2-bump, label = set: P ⊆ {0..k}").min(0);
  s.real("sigma_tilde", Automatic{"the feature \"normalisation\" [σ̃, μ]"},
         "ch2-bump: σ̃, the data's normalisation (x = M(φ̃ − Eφ̃)/σ̃)").above(0);
  s.real("mu", Automatic{"the feature \"normalisation\" [σ̃, μ]"}, "ch2-bump: μ = Σ_{j∈A} E φ̃_j (k/2 for the parity mixture)").min(0);
  s.integer("k", 0, "ch3-parity: the block size k = |A_j| (D_j = Σ_{l∈A_j} M_l/√k); required for that kind").min(0);
  s.real("tau", 1.0, "ch3-mixture: τ of the threshold 2√(τ log d) σ_B+").above(0);
  s.real("sigma_bplus", 1.0, "ch3-mixture: σ_B+ = max(σ_B, B_μ2), per-coordinate std scale").above(0);
  s.reals("cluster_labels", {}, "ch3-mixture: y_(j) = ±1 per direction; empty = the feature \"cluster_labels\" (1×r)");
  s.real("margin", 1.0, "ch3-linear: β, the data's margin min y<w*, x>").above(0);
  return s;
}

GroundTruthNet::GroundTruthNet(const Params& params, Context& context)
    : kind_(params.str("kind")), who_(context.name + " (kind = " + kind_ + ")"), dim_(context.data.dim) {
  if (context.data.classes != 2) {
    throw Error("ground-truth-net is a binary classifier (one output); the data has " + std::to_string(context.data.classes) + " classes");
  }
  if (!context.features || context.features->empty()) {
    throw Error(who_ + " is built from the distribution's features, and there are none; "
                "use a distribution that exposes its ground truth (dictionary-patterns, structured-parity, gaussian-mixture, "
                "linear-separable)");
  }
  const FeatureSet& features = *context.features;
  if (kind_ == "ch2-bump") {
    build_ch2_bump(params, features);
  } else if (kind_ == "ch3-parity") {
    build_ch3_parity(params, features);
  } else if (kind_ == "ch3-mixture") {
    build_ch3_mixture(params, features);
  } else {
    build_ch3_linear(params, features);
  }
  if (W0_.cols() != dim_) {
    throw Error("ground-truth-net: the features have dimension " + std::to_string(W0_.cols()) + " but the data " +
                std::to_string(dim_) + " (a transform changed the dimension?)");
  }
  const Index n = W0_.rows();
  W_ = declare_block("W", n, dim_, false);
  b_ = declare_block("b", 1, n, false);
  a_ = declare_block("a", 1, n, params.boolean("trainable_readout"));
  allocate_parameters();
  Rng unused;
  init(unused);
}

void GroundTruthNet::init(Rng&) {
  block(W_) = W0_;
  block(b_) = b0_;
  block(a_) = a0_;
}

namespace {
void store(const std::vector<Neuron>& neurons, Index dim, Mat& W, Mat& b, Mat& a) {
  const Index n = static_cast<Index>(neurons.size());
  W.resize(n, dim);
  b.resize(1, n);
  a.resize(1, n);
  for (Index i = 0; i < n; ++i) {
    const Neuron& u = neurons[static_cast<std::size_t>(i)];
    W.row(i) = u.w.row(0);
    b(0, i) = static_cast<Scalar>(u.b);
    a(0, i) = static_cast<Scalar>(u.a);
  }
}
}  // namespace

void GroundTruthNet::build_ch2_bump(const Params& params, const FeatureSet& features) {
  truncated_ = true;
  const std::string name = params.str("feature").empty() ? "ground_truth" : params.str("feature");
  const Mat v = need(features, who_, name, "v = Σ_{j∈A} M_j, 1×d (dictionary-patterns)").topRows(1);
  // k: the relevant indicator if exposed, else ‖v‖² (orthonormal dictionary).
  int k = 0;
  if (auto it = features.find("relevant"); it != features.end()) {
    k = static_cast<int>(std::lround(static_cast<double>(it->second.sum())));
  } else {
    k = static_cast<int>(std::lround(static_cast<double>(v.squaredNorm())));
  }
  if (k < 1) throw Error("ground-truth-net (ch2-bump): the ground truth has k = 0 relevant patterns");
  // σ̃ and μ as given, or (auto) from the feature "normalisation" = [σ̃, μ], μ = Σ_{j∈A} E φ̃_j.
  const std::optional<double> sigma_given = params.real_or_auto("sigma_tilde"), mu_given = params.real_or_auto("mu");
  double sigma = sigma_given.value_or(0), mu = mu_given.value_or(0);
  if (!sigma_given || !mu_given) {
    const Mat& normalisation = require_feature(
        features, who_, "normalisation",
        "set sigma_tilde and mu (parity mixture: σ̃ = √(k/4 + (D−k) p_o(1−p_o)), μ = k/2), or use a distribution that "
        "exposes [σ̃, μ] (dictionary-patterns)",
        1, 2);
    if (!sigma_given) sigma = static_cast<double>(normalisation(0, 0));
    if (!mu_given) mu = static_cast<double>(normalisation(0, 1));
  }
  // P ⊆ {0..k}.
  std::vector<bool> positive(static_cast<std::size_t>(k + 1), false);
  const std::string label = params.str("label");
  const auto interval = params.integers("interval");
  if (label == "interval" && (interval.size() != 2 || interval[0] > interval[1])) {
    throw Error("ground-truth-net: interval must be [t1, t2] with t1 <= t2");
  }
  for (const auto p : params.integers("positive_counts")) {
    if (label == "set" && p > k) throw Error("ground-truth-net: positive_counts has " + std::to_string(p) + " > k = " + std::to_string(k));
  }
  const auto& set = params.integers("positive_counts");
  for (int p = 0; p <= k; ++p) {
    bool plus = false;
    if (label == "parity") plus = p % 2 == 1;
    if (label == "threshold") plus = 2 * p > k;
    if (label == "interval") plus = p >= interval[0] && p <= interval[1];
    if (label == "set") plus = std::find(set.begin(), set.end(), p) != set.end();
    positive[static_cast<std::size_t>(p)] = plus;
  }
  // The two bump networks of the proof, on z = <σ̃ v, x> = c − μ (ch. 2: pre-activation z + b).
  auto bumps = [&](double shift, double height) {
    std::vector<Neuron> out;
    for (int p = 0; p <= k; ++p) {
      const double sign = positive[static_cast<std::size_t>(p)] ? 1.0 : -1.0;
      const double s = p - mu + shift;  // the bump's centre
      const double beta = 0.5;          // its half-width
      const Mat w = static_cast<Scalar>(sigma) * v;
      out.push_back({w, -s + beta, sign * height});
      out.push_back({w, -s, -2 * sign * height});
      out.push_back({w, -s - beta, sign * height});
    }
    return out;
  };
  auto min_abs_bias = [](const std::vector<Neuron>& ns) {
    double lo = 1e300;
    for (const auto& u : ns) lo = std::min(lo, std::abs(u.b));
    return lo;
  };
  std::vector<Neuron> g1 = bumps(0.0, 2.0), g2 = bumps(0.25, 4.0);
  std::vector<Neuron>& g = min_abs_bias(g1) >= 0.125 ? g1 : g2;  // the lemma: one of them has all |b| ≥ 1/8
  // Positive homogeneity: a → 4k a, (w, b) → (w, b)/(4k), so every pre-activation lies in [−1, 1].
  const double scale = 4.0 * k;
  for (auto& u : g) {
    u.w /= static_cast<Scalar>(scale);
    u.b /= scale;
    u.a *= scale;
  }
  store(g, v.cols(), W0_, b0_, a0_);
}

void GroundTruthNet::build_ch3_parity(const Params& params, const FeatureSet& features) {
  const std::string name = params.str("feature").empty() ? "directions" : params.str("feature");
  const Mat& D = need(features, who_, name, "r×d, D_j = Σ_{l∈A_j} M_l/√k (structured-parity)");
  const auto k = params.integer("k");
  if (k < 1) throw Error("ground-truth-net (ch3-parity) needs the block size: set k = |A_j| (e.g. model.k = 5)");
  for (Index j = 0; j < D.rows(); ++j) {
    const double norm = static_cast<double>(D.row(j).norm());
    if (std::abs(norm - 1) > 1e-3) {
      throw Error("ground-truth-net (ch3-parity): direction " + std::to_string(j) + " of \"" + name + "\" has norm " +
                  std::to_string(norm) + "; the D_j of Lemma B.51 are unit vectors");
    }
  }
  const double rk = std::sqrt(static_cast<double>(k));
  std::vector<Neuron> g;
  for (Index j = 0; j < D.rows(); ++j) {
    const Mat w = D.row(j);
    for (std::int64_t i = 0; i <= k; ++i) {
      const double sign = ((k - i) % 2 == 0) ? 1.0 : -1.0;  // (−1)^{k−i}: the parity of the block at this bump
      const double centre = static_cast<double>(2 * i - k);
      g.push_back({w, (centre - 1) / rk, sign * rk});
      g.push_back({w, centre / rk, -2 * sign * rk});
      g.push_back({w, (centre + 1) / rk, sign * rk});
    }
  }
  store(g, D.cols(), W0_, b0_, a0_);
}

void GroundTruthNet::build_ch3_mixture(const Params& params, const FeatureSet& features) {
  const std::string name = params.str("feature").empty() ? "directions" : params.str("feature");
  const Mat& D = need(features, who_, name, "r×d unit cluster directions D_j = μ_j/‖μ_j‖ (gaussian-mixture)");
  std::vector<double> labels = params.reals("cluster_labels");
  if (labels.empty()) {
    const Mat& y = need(features, who_, "cluster_labels", "1×r cluster labels y_(j) = ±1; or set cluster_labels");
    for (Index j = 0; j < y.size(); ++j) labels.push_back(static_cast<double>(y.data()[j]));
  }
  if (static_cast<Index>(labels.size()) != D.rows()) {
    throw Error("ground-truth-net (ch3-mixture): " + std::to_string(labels.size()) + " cluster labels for " +
                std::to_string(D.rows()) + " directions; give one y_(j) per direction");
  }
  const double d = static_cast<double>(D.cols());
  if (d < 2) throw Error("ground-truth-net (ch3-mixture) needs d >= 2 (the threshold uses log d)");
  const double L = std::sqrt(params.real("tau") * std::log(d)) * params.real("sigma_bplus");
  std::vector<Neuron> g;
  for (Index j = 0; j < D.rows(); ++j) {
    const double y = labels[static_cast<std::size_t>(j)];
    if (y != 1 && y != -1) throw Error("ground-truth-net (ch3-mixture): cluster label " + std::to_string(j) + " is not ±1");
    const Mat w = D.row(j) / D.row(j).norm();
    g.push_back({w, 2 * L, y / L});
  }
  store(g, D.cols(), W0_, b0_, a0_);
}

void GroundTruthNet::build_ch3_linear(const Params& params, const FeatureSet& features) {
  const std::string name = params.str("feature").empty() ? "direction" : params.str("feature");
  const Mat& F = need(features, who_, name, "1×d, the unit w* (linear-separable)");
  const Mat w = F.topRows(1) / F.row(0).norm();
  const double inv = 1.0 / params.real("margin");
  store({{w, 0.0, inv}, {Mat(-w), 0.0, -inv}}, F.cols(), W0_, b0_, a0_);
}

void GroundTruthNet::activate(ConstMatRef X) {
  Z_.noalias() = X * block(W_).transpose();
  if (truncated_) {
    Z_.rowwise() += block(b_).row(0);
    H_ = Z_.cwiseMax(Scalar(0)).cwiseMin(Scalar(1));
    S_ = ((Z_.array() > Scalar(0)) && (Z_.array() < Scalar(1))).cast<Scalar>();
  } else {
    Z_.rowwise() -= block(b_).row(0);
    H_ = Z_.cwiseMax(Scalar(0));
    S_ = (Z_.array() > Scalar(0)).cast<Scalar>();
  }
}

void GroundTruthNet::forward(ConstMatRef X, MatRef out) {
  activate(X);
  out.noalias() = H_ * block(a_).transpose();
}

void GroundTruthNet::backward(ConstMatRef, ConstMatRef dout, VecRef grad) {
  if (!block_info(a_).trainable) return;  // nothing trains: the gradient has length 0
  grad_block(grad, a_).noalias() = dout.transpose() * H_;
}

void GroundTruthNet::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  activate(X);
  S_.array() *= (dout * block(a_)).array();
  dX.noalias() = S_ * block(W_);
}

std::vector<HookSpec> GroundTruthNet::hook_points() const {
  return {{"hidden.pre", "n×r", "pre-activations XWᵀ ± b (ch. 2: +b, ch. 3: −b)"},
          {"hidden.post", "n×r", "activations (truncated ReLU for ch2-bump, ReLU otherwise)"}};
}

void GroundTruthNet::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name != "hidden.pre" && name != "hidden.post") Model::hook(name, X, out);
  activate(X);
  out = name == "hidden.pre" ? Z_ : H_;
}

}  // namespace featurelab::feature_emergence_pack
