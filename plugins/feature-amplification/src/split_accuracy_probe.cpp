// One forward pass per split.
#include "split_accuracy_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace featurelab::feature_amplification_pack {

void SplitAccuracyProbe::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  if (in.train.size() > 0) {
    const Vec f = outputs_of(in.model, in.train.X, who);
    const VecD& noisy = column(in.train, "is_noisy", who);
    double clean_right = 0, clean_n = 0, noisy_wrong = 0, noisy_n = 0;
    for (Index i = 0; i < f.size(); ++i) {
      const bool right = (f(i) > 0) == (in.train.y(i) == 1);
      if (noisy(i) > 0.5) {
        noisy_wrong += right ? 0 : 1;
        noisy_n += 1;
      } else {
        clean_right += right ? 1 : 0;
        clean_n += 1;
      }
    }
    out.scalar("train_clean_acc", clean_right / std::max(1.0, clean_n));
    out.scalar("train_noisy_misclf", noisy_n > 0 ? noisy_wrong / noisy_n : 1.0);
    out.scalar("train_noise_rate", noisy_n / static_cast<double>(f.size()));
  }
  if (in.test.size() > 0) {
    const Vec f = outputs_of(in.model, in.test.X, who);
    const VecD& clean = column(in.test, "y_clean", who);
    const VecD& noisy = column(in.test, "is_noisy", who);
    auto cluster_it = in.test.meta.find("cluster");
    double err_noisy = 0, err_clean = 0;
    std::vector<double> cluster_err(4, 0), cluster_n(4, 0);
    for (Index i = 0; i < f.size(); ++i) {
      const bool plus = f(i) > 0;
      err_noisy += plus == (in.test.y(i) == 1) ? 0 : 1;
      const bool clean_wrong = plus != (clean(i) > 0.5);
      err_clean += clean_wrong ? 1 : 0;
      if (cluster_it != in.test.meta.end()) {
        const auto c = static_cast<std::size_t>(cluster_it->second(i));
        if (c < 4) {
          cluster_err[c] += clean_wrong ? 1 : 0;
          cluster_n[c] += 1;
        }
      }
    }
    const double n = static_cast<double>(f.size());
    const double rate = noisy.sum() / n;
    out.scalar("test_err_noisy", err_noisy / n);
    out.scalar("test_err_clean", err_clean / n);
    out.scalar("test_noise_rate", rate);
    out.scalar("test_err_minus_noise", err_noisy / n - rate);
    if (cluster_it != in.test.meta.end()) {
      for (std::size_t c = 0; c < 4; ++c) {
        out.scalar(fmt::format("test_err_clean_cluster{}", c), cluster_err[c] / std::max(1.0, cluster_n[c]));
      }
    }
  }
}

}  // namespace featurelab::feature_amplification_pack
