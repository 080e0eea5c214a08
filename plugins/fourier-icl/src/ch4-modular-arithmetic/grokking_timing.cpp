// Accuracies from one forward pass per split.
#include "grokking_timing.hpp"

#include <cmath>

namespace featurelab::fourier_icl_pack {

Schema GrokkingTiming::schema() {
  Schema s;
  s.real("threshold", 0.99, "accuracy that counts as learned").range(0, 1);
  return s;
}

GrokkingTiming::GrokkingTiming(const Params& params, Context&) : threshold_(params.real("threshold")) {}

double GrokkingTiming::accuracy(Model& model, const Dataset& data) {
  if (data.size() == 0) return std::nan("");
  scores_.resize(data.size(), model.outputs());
  model.forward(data.X, scores_);
  double correct = 0;
  for (Index i = 0; i < data.size(); ++i) {
    Index best = 0;
    if (scores_.cols() == 1) {
      best = scores_(i, 0) > 0 ? 1 : 0;
    } else {
      scores_.row(i).maxCoeff(&best);
    }
    correct += best == data.y(i) ? 1 : 0;
  }
  return correct / static_cast<double>(data.size());
}

void GrokkingTiming::measure(const ProbeInput& in, Measurements& out) {
  if (t_train_ < 0 && accuracy(in.model, in.train) >= threshold_) t_train_ = static_cast<double>(in.step);
  if (t_test_ < 0 && accuracy(in.model, in.test) >= threshold_) t_test_ = static_cast<double>(in.step);
  out.scalar("t_train", t_train_);
  out.scalar("t_test", t_test_);
  if (t_train_ >= 0 && t_test_ >= 0) out.scalar("gap", t_test_ - t_train_);
}

}  // namespace featurelab::fourier_icl_pack
