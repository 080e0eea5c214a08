// The table is never stored: tuple t's summands are its base-p digits, so a split is a permutation of
// indices and a sample is k ones per row.
#include "modular_sum.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::fourier_icl_pack {

Schema ModularSum::schema() {
  Schema s;
  s.integer("k", 2, "number of summands (and the degree of the chapter's activation z^k)").range(1, 8);
  s.integer("p", 23, "the modulus, an odd prime").range(3, 100000);
  s.choice("encoding", "one-hot", {"one-hot", "tokens"},
           "one-hot: x = (e_{a_1}, …, e_{a_k}) ∈ R^{kp} (the MLP); tokens: the sequence a_1 o a_2 o … a_k = as token ids, "
           "'o' = 0, '=' = 1, number a = a + 2, vocabulary p + 2 (the transformer; the grokking code base's format)");
  s.real("train_fraction", 0.5, "fraction of the p^k tuples in the train split (the chapter's figures: 0.5); 1 trains on "
         "the whole table D_p, as Def. 4.1 and Thm. 4.9 do, and the test split is then D_p too (nothing held out)")
      .above(0).max(1);
  return s;
}

ModularSum::ModularSum(const Params& params, Context& context)
    : k_(static_cast<int>(params.integer("k"))), p_(static_cast<int>(params.integer("p"))), tokens_(params.str("encoding") == "tokens") {
  if (!is_prime(p_) || p_ == 2) {
    throw Error("p = " + std::to_string(p_) + " is not an odd prime: the chapter's Fourier characterisation (and γ*) "
                "assume Z_p with p an odd prime; try 23, 17, 11 or 97");
  }
  constexpr Index kLimit = 50'000'000;  // 50M one-hot rows of kp floats is already far beyond CPU budgets
  total_ = table_size(k_, p_, kLimit);
  if (total_ < 0) {
    throw Error("p^k = " + std::to_string(p_) + "^" + std::to_string(k_) + " tuples exceeds " + std::to_string(kLimit) +
                "; lower p or k");
  }
  train_ = static_cast<Index>(std::floor(params.real("train_fraction") * static_cast<double>(total_)));
  if (train_ < 1 || (train_ >= total_ && params.real("train_fraction") < 1)) {
    throw Error("train_fraction leaves an empty split of the " + std::to_string(total_) + " tuples; choose it so both "
                "splits are non-empty");
  }
  order_ = context.rng.permutation(total_);
  for (int j = 1; j <= k_; ++j) names_.push_back("a" + std::to_string(j));
}

Index ModularSum::width() const { return tokens_ ? 2 * k_ : static_cast<Index>(k_) * p_; }

double ModularSum::dimension(const Params& params) {
  const double k = double(params.integer("k"));
  return params.str("encoding") == "tokens" ? 2 * k : k * double(params.integer("p"));  // as width()
}

DataSpec ModularSum::spec() const {
  DataSpec s;
  s.dim = width();
  s.classes = p_;
  s.shape.dims = tokens_ ? std::vector<Index>{2 * k_} : std::vector<Index>{k_, p_};
  s.meta = names_;
  return s;
}

Index ModularSum::available(Split split) const {
  if (split == Split::Train) return train_;
  return whole_table() ? total_ : total_ - train_;
}

void ModularSum::sample(Index n, Split split, Rng&, Dataset& out) {
  const Index offset = split == Split::Train || whole_table() ? 0 : train_;
  if (n > available(split)) {
    throw Error("modular-sum: asked for " + std::to_string(n) + " samples, the split has " + std::to_string(available(split)));
  }
  out.resize(n, width());
  out.classes = p_;
  out.shape.dims = spec().shape.dims;
  out.X.setZero();
  std::vector<VecD*> meta;
  for (const auto& name : names_) {
    VecD& column = out.meta[name];
    column.resize(n);
    meta.push_back(&column);
  }
  std::vector<int> a(static_cast<std::size_t>(k_));
  for (Index i = 0; i < n; ++i) {
    digits(order_[static_cast<std::size_t>(offset + i)], k_, p_, a.data());
    int sum = 0;
    for (int j = 0; j < k_; ++j) {
      if (tokens_) {
        out.X(i, 2 * j) = static_cast<Scalar>(a[static_cast<std::size_t>(j)] + 2);  // then 'o' (0) or '=' (1)
        out.X(i, 2 * j + 1) = j + 1 == k_ ? Scalar(1) : Scalar(0);
      } else {
        out.X(i, static_cast<Index>(j) * p_ + a[static_cast<std::size_t>(j)]) = 1;
      }
      (*meta[static_cast<std::size_t>(j)])(i) = a[static_cast<std::size_t>(j)];
      sum += a[static_cast<std::size_t>(j)];
    }
    out.y(i) = sum % p_;
  }
}

FeatureSet ModularSum::features() const {
  Mat task(1, 2);
  task << static_cast<Scalar>(k_), static_cast<Scalar>(p_);
  Mat vocab(1, 1);
  vocab << static_cast<Scalar>(p_ + 2);
  return {{"task", task}, {"vocab", vocab}};
}

}  // namespace featurelab::fourier_icl_pack
