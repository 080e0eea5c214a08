// The dual ridge solve in double: m is the number of labels (tens to a few hundred), k the feature width.
#include "few_label_probe.hpp"

#include <featurelab/error.hpp>

#include <Eigen/Cholesky>

#include <algorithm>
#include <string>

namespace featurelab::std_pack {

Schema FewLabelProbe::schema() {
  Schema s;
  s.string("task", "mnist", "the downstream task: reads features <task>_labelled_inputs, _labelled_labels, "
                            "_test_inputs, _test_labels (mnist-fashion-transfer: mnist, fashion); \"splits\": the "
                            "pipeline's own training samples (the first `labelled`) and test split, with their classes");
  s.string("hook", "features", "the model's hook point whose features are probed (conv-net: features)");
  s.real("ridge", 1e-3, "ρ: the ridge, relative to the mean squared feature norm tr(K)/m").above(0);
  s.integer("labelled", 1000, "task = splits: the labelled samples, the first of the training split (the dual solve is "
                              "m×m)").range(2, 20000);
  return s;
}

FewLabelProbe::FewLabelProbe(const Params& params, Context&)
    : task_(params.str("task")), hook_(params.str("hook")), ridge_(params.real("ridge")),
      labelled_count_(params.integer("labelled")) {}

void FewLabelProbe::measure(const ProbeInput& in, Measurements& out) {
  // The labelled inputs and the test inputs (rows), with their classes (a row each).
  Mat labelled_x, labelled_y, test_x, test_y;
  if (task_ == "splits") {
    const Index m = std::min<Index>(labelled_count_, in.train.size());
    if (m < 2 || in.test.size() == 0) {
      throw Error("few-label-probe (task = splits): needs at least 2 training and 1 test sample, got " +
                  std::to_string(in.train.size()) + " and " + std::to_string(in.test.size()) + "; set data.train and data.test");
    }
    labelled_x = in.train.X.topRows(m);
    labelled_y = in.train.y.head(m).cast<Scalar>().transpose();
    test_x = in.test.X;
    test_y = in.test.y.cast<Scalar>().transpose();
  } else {
    const std::string fix = "use data.use = \"mnist-fashion-transfer\" (tasks mnist, fashion), or set the probe's task";
    labelled_x = require_feature(in.features, "few-label-probe", task_ + "_labelled_inputs", fix);
    labelled_y = require_feature(in.features, "few-label-probe", task_ + "_labelled_labels", fix, 1, labelled_x.rows());
    test_x = require_feature(in.features, "few-label-probe", task_ + "_test_inputs", fix);
    test_y = require_feature(in.features, "few-label-probe", task_ + "_test_labels", fix, 1, test_x.rows());
  }
  const Index m = labelled_x.rows();
  int classes = 0;
  for (Index i = 0; i < m; ++i) classes = std::max(classes, static_cast<int>(labelled_y(0, i)) + 1);
  for (Index i = 0; i < test_y.cols(); ++i) classes = std::max(classes, static_cast<int>(test_y(0, i)) + 1);
  in.model.hook(hook_, labelled_x, labelled_);
  in.model.hook(hook_, test_x, test_);
  const Eigen::MatrixXd phi = labelled_.cast<double>();
  const Eigen::RowVectorXd mean = phi.colwise().mean();
  const Eigen::MatrixXd centred = phi.rowwise() - mean;
  Eigen::MatrixXd onehot = Eigen::MatrixXd::Zero(m, classes);
  for (Index i = 0; i < m; ++i) onehot(i, static_cast<Index>(labelled_y(0, i))) = 1;
  const Eigen::RowVectorXd label_mean = onehot.colwise().mean();
  Eigen::MatrixXd K = centred * centred.transpose();
  const double scale = K.trace() / static_cast<double>(m);
  K.diagonal().array() += ridge_ * (scale > 0 ? scale : 1.0);
  const Eigen::MatrixXd alpha = K.ldlt().solve(onehot.rowwise() - label_mean);
  // Scores of the test images: (φ − μ)Φᵀα + ȳ, one row each.
  const Eigen::MatrixXd scores =
      ((test_.cast<double>().rowwise() - mean) * (centred.transpose() * alpha)).rowwise() + label_mean;
  Index correct = 0;
  for (Index i = 0; i < scores.rows(); ++i) {
    Index best = 0;
    scores.row(i).maxCoeff(&best);
    if (best == static_cast<Index>(test_y(0, i))) ++correct;
  }
  out.scalar("accuracy", test_x.rows() > 0 ? static_cast<double>(correct) / static_cast<double>(test_x.rows()) : 0.0);
}

}  // namespace featurelab::std_pack
