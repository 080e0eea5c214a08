// Class matching, partner images and the channel concatenation.
#include "spurious_concat.hpp"

#include <featurelab/error.hpp>

namespace featurelab::midpoint_mixup_pack {

Schema SpuriousConcat::schema() {
  Schema s;
  s.real("gamma_low", 0.0, "γ ~ U[gamma_low, gamma_high]").range(0, 1);
  s.real("gamma_high", 1.0, "γ ~ U[gamma_low, gamma_high]").range(0, 1);
  s.choice("gamma", "once", {"once", "per-access"},
           "draw γ once per image here, or store both halves at γ = 1/2 for augment spurious-gamma to redraw γ "
           "at every access (the authors' loader); the stored point is then one the model trains on, so "
           "accuracy.train measures inputs of the training distribution");
  return s;
}

SpuriousConcat::SpuriousConcat(const Params& params, Context& context)
    : gamma_low_(params.real("gamma_low")),
      gamma_high_(params.real("gamma_high")),
      per_access_(params.str("gamma") == "per-access") {
  if (gamma_low_ > gamma_high_) throw Error("gamma_low exceeds gamma_high; swap them");
  if (context.data.classes % 2 != 0) {
    throw Error("spurious-concat pairs the classes two by two, so it needs an even number of classes, got " +
                std::to_string(context.data.classes));
  }
}

DataSpec SpuriousConcat::output_spec(const DataSpec& in) const {
  DataSpec out = in;
  out.dim = 2 * in.dim;
  if (!in.shape.dims.empty()) {
    out.shape.dims = in.shape.dims;
    out.shape.dims[0] *= 2;  // channels first
  } else {
    out.shape.dims = {2, in.dim};
  }
  out.meta.push_back(per_access_ ? "stored_gamma" : "gamma");
  out.meta.push_back("partner_class");
  return out;
}

void SpuriousConcat::apply(Dataset& train, Dataset& test, Rng& rng) {
  const int k = train.classes;
  // A random perfect matching of the classes: shuffled[0]↔shuffled[1], shuffled[2]↔shuffled[3], ...
  std::vector<Index> order = rng.permutation(k);
  std::vector<Index> partner(static_cast<std::size_t>(k));
  for (int c = 0; c + 1 < k; c += 2) {
    partner[static_cast<std::size_t>(order[static_cast<std::size_t>(c)])] = order[static_cast<std::size_t>(c + 1)];
    partner[static_cast<std::size_t>(order[static_cast<std::size_t>(c + 1)])] = order[static_cast<std::size_t>(c)];
  }
  std::vector<std::vector<Index>> by_class(static_cast<std::size_t>(k));
  for (Index i = 0; i < train.size(); ++i) by_class[static_cast<std::size_t>(train.y(i))].push_back(i);
  const Index D = train.dim(), n = train.size();
  Mat X(n, 2 * D);
  VecD gamma(n), partner_class(n);
  for (Index i = 0; i < n; ++i) {
    const Index p = partner[static_cast<std::size_t>(train.y(i))];
    const auto& pool = by_class[static_cast<std::size_t>(p)];
    if (pool.empty()) {
      throw Error("spurious-concat: the training set has no image of class " + std::to_string(p) +
                  " to pair with class " + std::to_string(train.y(i)) + "; raise data.train");
    }
    const Index j = pool[static_cast<std::size_t>(rng.integer(0, static_cast<std::int64_t>(pool.size()) - 1))];
    // Per access: γ = 1/2 (a power of two, so spurious-gamma's rescaling by 2γ and 2(1 − γ) gives the
    // bits of γx and (1 − γ)x'; and a point of U[0, 1]'s support, which the model trains on).
    const double g = per_access_ ? 0.5 : rng.uniform(gamma_low_, gamma_high_);
    gamma(i) = g;
    partner_class(i) = static_cast<double>(p);
    X.row(i).head(D) = static_cast<Scalar>(g) * train.X.row(i);
    X.row(i).tail(D) = static_cast<Scalar>(1 - g) * train.X.row(j);
  }
  train.X = std::move(X);
  train.meta[per_access_ ? "stored_gamma" : "gamma"] = gamma;
  train.meta["partner_class"] = partner_class;
  Mat T = Mat::Zero(test.size(), 2 * D);
  T.leftCols(D) = test.X;
  test.X = std::move(T);
  test.meta[per_access_ ? "stored_gamma" : "gamma"] = VecD::Ones(test.size());
  test.meta["partner_class"] = VecD::Constant(test.size(), -1);
  for (Dataset* d : {&train, &test}) {
    if (!d->shape.dims.empty()) d->shape.dims[0] *= 2;
  }
}

}  // namespace featurelab::midpoint_mixup_pack
