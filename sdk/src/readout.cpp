// Decisions and margins of the two readouts.
#include <featurelab/attack.hpp>
#include <featurelab/error.hpp>
#include <featurelab/readout.hpp>

#include <cmath>

namespace featurelab {

void Readout::declare(Schema& schema) {
  schema.choice("readout", "outputs", {"outputs", "partition"},
                "read the model's own classes (outputs), or a k-class model as a binary classifier over the "
                "distribution's partition of its classes: sgn(Σ_{J+} p − Σ_{J−} p) (partition)");
}

Readout Readout::from(const Params& params, const Context& context) {
  if (params.str("readout") == "outputs") return outputs();
  const Mat& p = require_feature(context.features, context.name + " (readout = \"partition\")", "partition",
                                 "use a distribution that partitions its classes (e.g. orthogonal-clusters), or "
                                 "readout = \"outputs\"",
                                 1, kAnyExtent);
  return partition(p.row(0).transpose().cast<double>());
}

Readout Readout::partition(const VecD& signs) {
  for (Index j = 0; j < signs.size(); ++j) {
    if (signs(j) != 1.0 && signs(j) != -1.0) throw Error("a partition's entries must be +1 or -1");
  }
  if ((signs.array() > 0).count() == 0 || (signs.array() < 0).count() == 0) {
    throw Error("a partition needs classes on both sides");
  }
  Readout r;
  r.signs_ = signs;
  return r;
}

void Readout::check(ConstMatRef out, ConstIVecMap labels) const {
  if (out.cols() != signs_.size()) {
    throw Error("readout = \"partition\" splits " + std::to_string(signs_.size()) + " classes, but the model has " +
                std::to_string(out.cols()) + " outputs; train a k-class model on the cluster labels (data.label)");
  }
  if (labels.size() > 0 && (labels.minCoeff() < 0 || labels.maxCoeff() >= signs_.size())) {
    throw Error("readout = \"partition\": a label lies outside the partition's " + std::to_string(signs_.size()) +
                " classes; use the cluster labels");
  }
}

Scalar Readout::side(std::int32_t label) const {
  if (partitioned()) return static_cast<Scalar>(signs_(label));
  return signed_label(label);
}

Vec Readout::margins(ConstMatRef out, ConstIVecMap labels, MatRef dmargin) const {
  if (!partitioned()) return featurelab::margins(out, labels, dmargin);
  check(out, labels);
  const Index n = out.rows(), k = out.cols();
  Vec m(n);
  for (Index i = 0; i < n; ++i) {
    // LSE over each side, with its own max subtracted.
    Scalar top_pos = -std::numeric_limits<Scalar>::infinity(), top_neg = top_pos;
    for (Index j = 0; j < k; ++j) {
      Scalar& top = signs_(j) > 0 ? top_pos : top_neg;
      top = std::max(top, out(i, j));
    }
    Scalar sum_pos = 0, sum_neg = 0;
    for (Index j = 0; j < k; ++j) {
      if (signs_(j) > 0) {
        sum_pos += std::exp(out(i, j) - top_pos);
      } else {
        sum_neg += std::exp(out(i, j) - top_neg);
      }
    }
    const Scalar lse_pos = top_pos + std::log(sum_pos), lse_neg = top_neg + std::log(sum_neg);
    const Scalar s = side(labels(i));
    m(i) = s * (lse_pos - lse_neg);
    for (Index j = 0; j < k; ++j) {
      dmargin(i, j) = signs_(j) > 0 ? s * std::exp(out(i, j) - lse_pos) : -s * std::exp(out(i, j) - lse_neg);
    }
  }
  return m;
}

Eigen::Array<bool, Eigen::Dynamic, 1> Readout::correct(ConstMatRef out, ConstIVecMap labels) const {
  const Index n = out.rows();
  Eigen::Array<bool, Eigen::Dynamic, 1> right(n);
  if (!partitioned()) {
    for (Index i = 0; i < n; ++i) {
      if (out.cols() == 1) {
        right(i) = (out(i, 0) > 0) == (labels(i) == 1);  // sgn(0) = −1
      } else {
        Index best = 0;
        out.row(i).maxCoeff(&best);
        right(i) = best == labels(i);
      }
    }
    return right;
  }
  Mat dmargin(n, out.cols());
  const Vec m = margins(out, labels, dmargin);
  // g = LSE+ − LSE− has the sign of Σp+ − Σp−; a tie (g = 0) is the − side.
  for (Index i = 0; i < n; ++i) right(i) = side(labels(i)) > 0 ? m(i) > 0 : m(i) >= 0;
  return right;
}

}  // namespace featurelab
