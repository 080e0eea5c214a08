// Coverage runs the model itself on prompts built here (one context token (Gz, 1), the query last), a task at a
// time.
#include "parity_coverage.hpp"
#include "parity_setting.hpp"
#include "prompt_tokens.hpp"

#include <algorithm>
#include <limits>

namespace featurelab::fourier_icl_pack {

ParityCoverage::ParityCoverage(const Params&, Context& context) : data_(context.data) {}

void ParityCoverage::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const ParitySetting s = parity_setting(in, who);
  const PromptShape shape = prompt_shape(data_, who);
  const Index d = s.d, stride = d + 1;
  const bool exhaustive = d <= 12;
  const Index completions = exhaustive ? (Index(1) << (d - 2)) : 256;
  const Index rows = 4 * completions;
  Rng rng(17);  // fixed: the same random completions at every evaluation
  prompts_.setZero(rows, data_.dim);
  double hinge[2] = {0, 0}, correct[2] = {0, 0}, count[2] = {0, 0}, uncovered[2] = {0, 0}, patterns[2] = {0, 0};
  double weighted[2] = {0, 0}, tasks[2] = {0, 0};  // Σ over tasks of the pattern-weighted mean hinge; tasks per set
  VecD phi(d);
  for (Index i = 0; i < d; ++i) {
    for (Index j = 0; j < d; ++j) {
      if (i == j) continue;
      const int set = i < s.k && j < s.k ? 0 : 1;
      VecD z = VecD::Zero(d);
      z(i) = z(j) = 2 * s.gamma;
      const VecD h = s.G * z;
      for (Index r = 0; r < rows; ++r) {
        const Index pattern = r / completions, c = r % completions;
        // The other coordinates: the bits of c (exhaustive) or random; (φ_i, φ_j) from the pattern.
        Index bit = 0;
        for (Index l = 0; l < d; ++l) {
          if (l == i || l == j) continue;
          phi(l) = exhaustive ? (((c >> bit) & 1) ? 1.0 : -1.0) : (rng.bernoulli(0.5) ? 1.0 : -1.0);
          ++bit;
        }
        phi(i) = (pattern & 1) ? -1.0 : 1.0;
        phi(j) = (pattern & 2) ? -1.0 : 1.0;
        prompts_.row(r).segment(0, d) = h.cast<Scalar>().transpose();
        prompts_(r, d) = 1;
        prompts_.row(r).segment(shape.slots * stride, d) = (s.G * phi).cast<Scalar>().transpose();
      }
      scores_.resize(rows, 1);
      in.model.forward(prompts_, scores_);
      tasks[set] += 1;
      for (Index pattern = 0; pattern < 4; ++pattern) {
        const double y = ((pattern & 1) ? -1.0 : 1.0) * ((pattern & 2) ? -1.0 : 1.0);
        // P(φ_i, φ_j): (1, 1) 1/4 + γ (pattern 0), the mixed pairs 1/4, (−1, −1) 1/4 − γ (pattern 3).
        const double weight = pattern == 0 ? 0.25 + s.gamma : pattern == 3 ? 0.25 - s.gamma : 0.25;
        double pattern_hinge = 0;
        double worst = std::numeric_limits<double>::infinity();
        for (Index c = 0; c < completions; ++c) {
          const double margin = y * static_cast<double>(scores_(pattern * completions + c, 0));
          worst = std::min(worst, margin);
          hinge[set] += std::max(0.0, 1 - margin);
          pattern_hinge += std::max(0.0, 1 - margin);
          correct[set] += margin > 0 ? 1 : 0;
          count[set] += 1;
        }
        weighted[set] += weight * pattern_hinge / static_cast<double>(completions);
        patterns[set] += 1;
        uncovered[set] += worst < 1 - 1e-9 ? 1 : 0;
      }
    }
  }
  const char* names[2] = {"s1", "s2"};
  for (int set = 0; set < 2; ++set) {
    out.scalar(std::string("hinge_") + names[set], hinge[set] / count[set]);
    out.scalar(std::string("accuracy_") + names[set], correct[set] / count[set]);
    out.scalar(std::string("uncovered_") + names[set], uncovered[set]);
    out.scalar(std::string("patterns_") + names[set], patterns[set]);
  }
  out.scalar("pretrain_loss", (1 - s.p_task) * weighted[0] / tasks[0] + s.p_task * weighted[1] / tasks[1]);
}

}  // namespace featurelab::fourier_icl_pack
