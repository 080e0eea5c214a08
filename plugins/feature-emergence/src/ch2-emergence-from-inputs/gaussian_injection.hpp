// Transform `gaussian-injection`: the controlled experiment of Shi 2024 Sec. 2.6 / App. A.7.5 (Fig. 2.4,
// A.18, A.21): keep the labelling function, change the inputs. On a labelled dataset L (the job's digits):
//   1. U: Gaussian inputs with L's per-pixel mean and standard deviation, N(μ, diag σ²) (the dissertation
//      does not say which Gaussian; ours keeps each pixel's first two moments and removes everything else:
//      strokes, their correlations, the low-dimensional shape of the digits). |U| = |L| for the teacher.
//   2. The teacher (Algorithm 3): FC(m) with the quadratic activation trained on L with the class-balance
//      regularizer R on U (quadratic_teacher.hpp).
//   3. The student's data: in the training split a random fraction α of the digits is replaced by fresh
//      Gaussian inputs (the split keeps its size, so the student's budget does not change with α; α = 0: the
//      digits alone, "training on the original data"); every label, of the digits too, is the teacher's (the
//      dissertation relabels L as well: y'_i = f(x_i)). The test split likewise (test_fraction).
// Metadata: part (0 = a digit, 1 = an injected input: `accuracy` with group_by = "part" gives the per-part
// curves of Fig. 2.4) and, for the digits, the distribution's own columns (a Gaussian row gets −1).
// The teacher's training accuracy and its balance on U are logged.
#pragma once

#include "quadratic_teacher.hpp"

#include <featurelab/transform.hpp>

namespace featurelab::feature_emergence_pack {

class GaussianInjection : public featurelab::Transform {
 public:
  static constexpr featurelab::Doc kDoc =
      "Shi 2024 App. A.7.5 (Algorithm 3): a quadratic FC(m) teacher trained on the digits with the class-balance "
      "regularizer on Gaussian inputs (per-pixel moments) relabels the digits and a fraction α of injected Gaussian "
      "inputs; metadata part (0 digit, 1 Gaussian).";
  static featurelab::Schema schema();
  GaussianInjection(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec output_spec(const featurelab::DataSpec& in) const override;
  void apply(featurelab::Dataset& train, featurelab::Dataset& test, featurelab::Rng& rng) override;

 private:
  // Replaces a fraction of the rows by Gaussian ones (moments mean, sd); every row relabelled by the teacher.
  void inject(featurelab::Dataset& data, double fraction, const featurelab::RowVec& mean,
              const featurelab::RowVec& sd, const QuadraticTeacher& teacher, featurelab::Rng& rng) const;
  double fraction_, test_fraction_;
  TeacherSettings teacher_;
  spdlog::logger* log_;
  std::string name_;
};

}  // namespace featurelab::feature_emergence_pack
