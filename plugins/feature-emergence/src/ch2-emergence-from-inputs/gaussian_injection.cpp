// The moments of L, the teacher, and the mixtures of both splits.
#include "gaussian_injection.hpp"

#include <featurelab/error.hpp>
#include <featurelab/rng.hpp>

#include <spdlog/spdlog.h>

#include <cmath>

namespace featurelab::feature_emergence_pack {

Schema GaussianInjection::schema() {
  Schema s;
  s.real("fraction", 0.5, "α, the share of the training split replaced by injected inputs (Fig. 2.4: 0.5; 0 = the "
         "digits alone)").range(0, 0.9);
  s.real("test_fraction", 0.5, "the share of the test split replaced by injected inputs (so both parts are measured)")
      .range(0, 0.9);
  s.integer("teacher_width", 9, "m of the teacher FC(m) (Algorithm 3 picks FC(9) for MNIST)").min(1);
  s.integer("teacher_steps", 300, "full-batch Adam steps of the teacher").min(1);
  s.real("teacher_lr", 0.01, "the teacher's Adam step size").above(0);
  s.real("balance", 1.0, "μ, the weight of the class-balance regularizer R on U (Eq. A.289; 0 = L alone)").min(0);
  s.real("confidence", 1.0, "λ, the weight of R2 (mean entropy) inside R = R1 + λR2").min(0);
  return s;
}

GaussianInjection::GaussianInjection(const Params& params, Context& context)
    : fraction_(params.real("fraction")), test_fraction_(params.real("test_fraction")), log_(context.log),
      name_(context.name) {
  teacher_.width = params.integer("teacher_width");
  teacher_.steps = params.integer("teacher_steps");
  teacher_.lr = params.real("teacher_lr");
  teacher_.balance = params.real("balance");
  teacher_.confidence = params.real("confidence");
  if (context.data.classes < 2) {
    throw Error(name_ + " relabels classified data; this distribution has " + std::to_string(context.data.classes) + " classes");
  }
  for (const auto& column : context.data.meta) {
    if (column == "part") throw Error(name_ + " adds the metadata column \"part\"; the distribution already has one");
  }
}

DataSpec GaussianInjection::output_spec(const DataSpec& in) const {
  DataSpec out = in;
  out.meta.push_back("part");
  return out;
}

void GaussianInjection::inject(Dataset& data, double fraction, const RowVec& mean, const RowVec& sd,
                               const QuadraticTeacher& teacher, Rng& rng) const {
  if (data.T.size() > 0) throw Error(name_ + " relabels class labels; this data carries targets T");
  // The split keeps its size: the digits at random rows make way for Gaussian inputs, so any minibatch of
  // consecutive rows sees both parts.
  const Index n = data.size();
  const auto injected = static_cast<Index>(std::llround(static_cast<double>(n) * fraction));
  const auto rows = rng.permutation(n);
  Mat gauss(injected, data.dim());
  rng.fill_normal(gauss);
  VecD part = VecD::Zero(n);
  for (Index k = 0; k < injected; ++k) {
    const Index r = rows[static_cast<std::size_t>(k)];
    data.X.row(r) = (gauss.row(k).array() * sd.array() + mean.array()).matrix();
    part(r) = 1;
    for (auto& [column, values] : data.meta) values(r) = -1;
  }
  data.meta["part"] = part;
  data.y = teacher.labels(data.X);
}

void GaussianInjection::apply(Dataset& train, Dataset& test, Rng& rng) {
  const Index n = train.size();
  if (n < 2) throw Error(name_ + " needs at least two training samples to estimate the Gaussian's moments");
  const RowVec mean = train.X.colwise().mean();
  const RowVec sd = ((train.X.rowwise() - mean).cwiseAbs2().colwise().sum() / static_cast<Scalar>(n - 1)).cwiseSqrt();
  Rng draw = rng.fork("teacher-injected");
  Mat U(n, train.dim());
  draw.fill_normal(U);
  U = (U.array().rowwise() * sd.array()).rowwise() + mean.array();
  Rng init = rng.fork("teacher-init");
  QuadraticTeacher teacher(train.dim(), train.classes, teacher_.width, init);
  const TeacherFit fit = teacher.train(train.X, train.y, U, teacher_);
  if (log_) {
    log_->info("{}: teacher FC({}) fits {:.1f} % of the training digits; on the Gaussian inputs its rarest class "
               "gets {:.2f} × the uniform share",
               name_, teacher_.width, 100 * fit.train_accuracy, fit.injected_balance);
  }
  Rng train_draw = rng.fork("train-injected"), test_draw = rng.fork("test-injected");
  inject(train, fraction_, mean, sd, teacher, train_draw);
  inject(test, test_fraction_, mean, sd, teacher, test_draw);
}

}  // namespace featurelab::feature_emergence_pack
