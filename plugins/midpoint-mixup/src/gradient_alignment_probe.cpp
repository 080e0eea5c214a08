// Both gradients on the same weights; the lagging weights are set temporarily and restored.
#include "gradient_alignment_probe.hpp"

#include <algorithm>
#include <limits>

#include "midpoint_mixup_exact_loss.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::midpoint_mixup_pack {

Schema GradientAlignmentProbe::schema() {
  Schema s;
  s.choice("weights", "model", {"model", "lagging"},
           "model: the current weights; lagging: w_y = C·log k·v_{y,1} (Section 3, linear model with k×d weights)");
  s.real("C", 1.0, "C in w_y = C·log k·v_{y,1} (weights = lagging)").min(0);
  return s;
}

GradientAlignmentProbe::GradientAlignmentProbe(const Params& params, Context&)
    : weights_(params.str("weights")), c_(params.real("C")) {}

namespace {

// −∇ of the mean cross-entropy of the model's outputs on the data (hard labels).
Vec erm_descent(Model& model, const Dataset& data) {
  Mat out(data.size(), model.outputs());
  model.forward(data.X, out);
  Mat dout = out;
  dout.colwise() -= out.rowwise().maxCoeff();
  dout.array() = dout.array().exp();
  dout.array().colwise() /= dout.rowwise().sum().array();
  for (Index i = 0; i < data.size(); ++i) dout(i, data.y(i)) -= 1;
  dout /= static_cast<Scalar>(data.size());
  Vec grad(model.trainable_size());
  model.backward(data.X, dout, grad);
  return -grad;
}

}  // namespace

void GradientAlignmentProbe::measure(const ProbeInput& in, Measurements& out) {
  const Mat& views = require_feature(in.features, name(), "views",
                                     "use a multi-view distribution (simple-multiview, multiview-patches)");  // 2k×d
  const Index k = views.rows() / 2;
  const ParamBlock* w = in.model.find_block("W");
  if (!w || !w->trainable || w->cols != views.cols() || w->rows % k != 0 || w->offset != 0) {
    throw Error("gradient-alignment needs a model whose first trainable block \"W\" has k·m rows of the feature "
                "dimension (std linear without bias, patch-two-layer)");
  }
  const Index m = w->rows / k;
  Vec saved = in.model.parameters();
  if (weights_ == "lagging") {
    if (m != 1) throw Error("weights = \"lagging\" is Section 3's linear model: W must be k×d (one row per class)");
    MatMap W = in.model.block("W");
    W.setZero();
    for (Index y = 0; y < k; ++y) W.row(y) = static_cast<Scalar>(c_ * std::log(double(k))) * views.row(2 * y);
  }
  const Vec erm = erm_descent(in.model, in.train);
  Context ctx;
  MidpointMixupExactLoss mm_loss(Params{}, ctx);
  Vec mm(in.model.trainable_size());
  mm_loss.evaluate_with_gradient(in.model, Batch::of(in.train), mm);
  mm = -mm;
  in.model.parameters() = saved;

  // Per class: Σ_r ⟨g_{y,r}, v⟩ over the class's rows of W.
  const ConstMatMap Germ(erm.data(), w->rows, w->cols), Gmm(mm.data(), w->rows, w->cols);
  // Prop. 3.4 bounds every class: beside the class means, the least push on a lagging feature and the
  // largest (least negative) push on a class's gap.
  double erm_lag = 0, mm_lag = 0, mm_gap = 0, erm_lead = 0, mm_lead = 0;
  double mm_lag_min = std::numeric_limits<double>::infinity(), mm_gap_max = -std::numeric_limits<double>::infinity();
  for (Index y = 0; y < k; ++y) {
    const auto v1 = views.row(2 * y), v2 = views.row(2 * y + 1);
    const RowVec ge = Germ.middleRows(y * m, m).colwise().sum(), gm = Gmm.middleRows(y * m, m).colwise().sum();
    erm_lag += ge.dot(v2);
    erm_lead += ge.dot(v1);
    mm_lag += gm.dot(v2);
    mm_lead += gm.dot(v1);
    mm_gap += gm.dot(v1 - v2);
    mm_lag_min = std::min(mm_lag_min, double(gm.dot(v2)));
    mm_gap_max = std::max(mm_gap_max, double(gm.dot(v1 - v2)));
  }
  const double kk = static_cast<double>(k);
  out.scalar("erm_lagging", erm_lag / kk);
  out.scalar("erm_leading", erm_lead / kk);
  out.scalar("mm_lagging", mm_lag / kk);
  out.scalar("mm_leading", mm_lead / kk);
  out.scalar("mm_lagging_k2", mm_lag / kk * kk * kk);
  out.scalar("mm_lagging_k2_min", mm_lag_min * kk * kk);
  out.scalar("mm_gap", mm_gap / kk);
  out.scalar("mm_gap_max", mm_gap_max);
  out.scalar("ratio", erm_lag != 0 ? mm_lag / erm_lag : std::numeric_limits<double>::infinity());
}

}  // namespace featurelab::midpoint_mixup_pack
