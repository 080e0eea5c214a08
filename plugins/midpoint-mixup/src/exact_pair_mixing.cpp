// Exact pair mixing in activation space, one anchor sample i and one node λ at a time: the N mixes
// λZ_i + (1−λ)Z_j go through the model's head as one batch; their gradients accumulate λ to i and
// 1−λ to each j.
#include "exact_pair_mixing.hpp"

#include <featurelab/error.hpp>
#include <featurelab/threads.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::midpoint_mixup_pack {

namespace {
LinearPreactivation& preactivation_model(Model& model) {
  auto* p = dynamic_cast<LinearPreactivation*>(&model);
  if (!p) {
    throw Error("the exact mixup losses need a model whose pre-activations are affine in x (it implements "
                "featurelab::LinearPreactivation: patch-two-layer, linear); use augment mixup or midpoint-mixup "
                "(sampled pairs) with loss cross-entropy for other models");
  }
  return *p;
}
}  // namespace

void ExactPairMixingLoss::check_model(const Model& model, const DataSpec&) const {
  preactivation_model(const_cast<Model&>(model));
  if (model.outputs() < 2) throw Error("the exact mixup losses are cross-entropies over classes: the model needs >= 2 outputs");
}

Scalar ExactPairMixingLoss::evaluate_with_gradient(Model& model, const Batch& batch, VecRef grad) {
  return run(model, batch, &grad);
}

Scalar ExactPairMixingLoss::evaluate(Model& model, const Batch& batch) { return run(model, batch, nullptr); }

bool ExactPairMixingLoss::symmetric(const Quadrature& q) {
  const Index count = q.nodes.size();
  for (Index a = 0, b = count - 1; a <= b; ++a, --b) {
    if (std::abs(q.nodes(a) + q.nodes(b) - 1.0) > 1e-12 || std::abs(q.weights(a) - q.weights(b)) > 1e-12) return false;
  }
  return true;
}

Scalar ExactPairMixingLoss::run(Model& model, const Batch& batch, VecRef* grad) {
  LinearPreactivation& pre = preactivation_model(model);
  const Index n = batch.n, h = pre.preactivation_width(), k = model.outputs();
  Z_.resize(n, h);
  pre.preactivations(batch.X(), Z_);
  const ConstIVecMap y = batch.Y();
  if (n > 0 && (y.minCoeff() < 0 || y.maxCoeff() >= k)) {
    throw Error("a label is outside the model's " + std::to_string(k) + " outputs; set model.outputs to the number of classes");
  }
  // Partners go through the head in blocks small enough that the model's per-block buffers stay in
  // cache (mixed_head forms no pair in memory where the model fuses it).
  const Index block = std::clamp<Index>(kBlockElements / std::max<Index>(h, 1), 1, std::max<Index>(n, 1));
  chunks_.resize(static_cast<std::size_t>(parallel_chunks));
  for (auto& c : chunks_) {
    c.out.resize(block, k);
    c.dout.resize(block, k);
    c.anchor.resize(h);
    c.anchor_dZ.resize(h);
    if (grad) c.dZ.setZero(n, h);
  }
  const double scale = 1.0 / (double(n) * double(n));
  // Chunk c takes the anchors i ≡ c (mod chunks), which balances the triangle j ≥ i, and sums into
  // its own dZ and loss; they are added in chunk order, so threads change no bit of the result.
  auto mix_anchors = [&](Index chunk, Index, Index) {
    AnchorChunk& c = chunks_[static_cast<std::size_t>(chunk)];
    c.total = 0;
    for (Index q = 0; q < lambdas_.nodes.size(); ++q) {
      const auto lambda = static_cast<Scalar>(lambdas_.nodes(q)), mu = 1 - lambda;
      const double weight = lambdas_.weights(q);
      const auto pair_scale = static_cast<Scalar>(weight * scale);
      for (Index i = chunk; i < n; i += parallel_chunks) {
        c.anchor.noalias() = lambda * Z_.row(i);
        if (grad) c.anchor_dZ.setZero();
        // With a symmetric rule the pair (j, i, λ) is the pair (i, j, 1 − λ): only j ≥ i is formed
        // and j > i counts twice.
        for (Index j0 = symmetric_ ? i : 0; j0 < n; j0 += block) {
          const Index b = std::min(block, n - j0);
          auto out = c.out.topRows(b);
          auto dout = c.dout.topRows(b);
          pre.mixed_head(c.anchor, mu, Z_.middleRows(j0, b), out, c.scratch);  // row r: the model at z_{i, j0+r}
          // Soft target λ e_{y_i} + (1−λ) e_{y_j}; the gradient of the log-softmax is softmax − target.
          double block_total = 0;
          for (Index r = 0; r < b; ++r) {
            const Index j = j0 + r;
            const Scalar multiplicity = symmetric_ && j != i ? Scalar(2) : Scalar(1);
            const Scalar top = out.row(r).maxCoeff();
            dout.row(r) = (out.row(r).array() - top).exp().matrix();  // softmax, unnormalised
            const Scalar sum = dout.row(r).sum(), lse = top + std::log(sum);
            block_total -= double(multiplicity) * double(lambda * (out(r, y(i)) - lse) + mu * (out(r, y(j)) - lse));
            if (!grad) continue;
            dout.row(r) /= sum;
            dout(r, y(i)) -= lambda;
            dout(r, y(j)) -= mu;
            dout.row(r) *= multiplicity * pair_scale;
          }
          c.total += weight * block_total;
          if (!grad) continue;
          auto partner_dZ = c.dZ.middleRows(j0, b);
          pre.mixed_head_backward(dout, mu, partner_dZ, c.anchor_dZ, c.scratch);  // d z_ij / d Z_j = 1 − λ
        }
        if (grad) c.dZ.row(i) += lambda * c.anchor_dZ;  // d z_ij / d Z_i = λ
      }
    }
  };
  if (pre.mixes_in_parallel()) {
    parallel_over_chunks(n, mix_anchors);
  } else {
    for (Index chunk = 0; chunk < parallel_chunks; ++chunk) mix_anchors(chunk, 0, 0);
  }
  double total = 0;
  for (const auto& c : chunks_) total += c.total;
  if (grad) {
    dZ_ = chunks_[0].dZ;
    for (std::size_t c = 1; c < chunks_.size(); ++c) dZ_ += chunks_[c].dZ;
    pre.preactivation_backward(batch.X(), dZ_, *grad);
  }
  return static_cast<Scalar>(total * scale);
}

}  // namespace featurelab::midpoint_mixup_pack
