// Datasets, batches and ground-truth features.
//
// A dataset is X (n×D row-major), integer class labels y in [0, classes), optional targets T
// (n×K soft labels or regression values), a shape (how D factors: patches×patch_dim or c×h×w)
// and named per-sample metadata columns (cluster id, clean label, is-noisy, ...).
//
// Binary convention: a binary problem has classes = 2 and a model with one output; class 1 is
// the positive label (+1) and class 0 the negative (−1). signed_label() converts.
#pragma once

#include <featurelab/types.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace featurelab {

inline Scalar signed_label(std::int32_t y) { return y == 1 ? Scalar(1) : Scalar(-1); }

struct DataShape {
  std::vector<Index> dims;  // product = D; empty means flat
  // Patch data (dims = {P', d}) that stores identical patches once: patch p stands for
  // patch_counts[p] equal patches (Chidambaram et al.'s Def. 4.1 noise patches, P − 2 of them, all
  // one vector). Empty: every patch counts once. Only a model that weighs them may read such data
  // (the WeighsPatchCounts capability); the core refuses any other.
  std::vector<double> patch_counts;
};

struct Dataset {
  Mat X;                                   // n×D
  IVec y;                                  // n, class index
  Mat T;                                   // n×K targets, or 0×0 when labels suffice
  int classes = 0;
  DataShape shape;
  std::map<std::string, VecD> meta;        // per-sample columns, each of length n
  // Optional, for a distribution whose samples are linear images of r-dimensional codes (r < D): X = codes·basis
  // to rounding (Shi 2024 ch. 2: x = M(φ̃ − Eφ̃)/σ̃, D patterns of a dictionary in d dimensions). A model that can
  // use them (capabilities.hpp: CodedInputs) multiplies by n×r codes and r×D basis instead of n×D X. Valid only
  // while code_basis is set: resize() unsets it, and whoever changes X after sampling calls drop_codes() (the core
  // does after every transform).
  Mat codes;                               // n×r
  std::shared_ptr<const Mat> code_basis;   // r×D, or null: no codes

  Index size() const { return X.rows(); }
  Index dim() const { return X.cols(); }
  bool has_codes() const {
    return code_basis != nullptr && codes.rows() == X.rows() && code_basis->rows() == codes.cols() &&
           code_basis->cols() == X.cols();
  }
  void drop_codes() { code_basis.reset(); }
  // Resizes every member for n samples of dimension dim (no allocation if already that size); drops the codes.
  void resize(Index n, Index dim, Index target_cols = 0);
};

// A view of some rows of a dataset (or of an augment's output buffer). Pointers, not copies:
// a minibatch of consecutive rows is a view into the dataset itself.
struct Batch {
  const Scalar* x = nullptr;
  const std::int32_t* y = nullptr;
  const Scalar* t = nullptr;  // targets, or null
  Index n = 0;
  Index dim = 0;
  Index t_cols = 0;
  int classes = 0;
  const Scalar* codes = nullptr;     // n×code_dim (Dataset::codes), or null
  Index code_dim = 0;
  const Mat* code_basis = nullptr;   // code_dim×dim

  ConstMatMap X() const { return ConstMatMap(x, n, dim); }
  ConstMatMap Codes() const { return ConstMatMap(codes, n, code_dim); }
  bool has_codes() const { return codes != nullptr && code_basis != nullptr; }
  // Whether a product with X is cheaper through the codes, C·(B·Wᵀ), than directly, X·Wᵀ: r(n + D) against nD
  // multiply-adds per column of W, with a margin for the second product's own passes. Shape only.
  bool codes_pay() const { return has_codes() && 4 * code_dim * (n + dim) <= 3 * n * dim; }
  ConstIVecMap Y() const { return ConstIVecMap(y, n); }
  ConstMatMap T() const { return ConstMatMap(t, n, t_cols); }
  bool has_targets() const { return t != nullptr && t_cols > 0; }

  static Batch of(const Dataset& data);                          // all rows
  static Batch rows(const Dataset& data, Index begin, Index count);  // consecutive rows
};

// Ground-truth features a distribution exposes to probes: named matrices, one feature per row
// (e.g. "means": k×D, "features": 2k×D for v_{y,1}, v_{y,2}).
using FeatureSet = std::map<std::string, Mat>;

// An extent require_feature() leaves free.
inline constexpr Index kAnyExtent = -1;

// The feature `name` that component `who` (its registry name: name(), or context.name in a
// constructor) reads, checked to be rows×cols (kAnyExtent: any). Otherwise throws Error naming who,
// the feature and its shape, the features the distribution does expose, and `fix` (what to change,
// e.g. "use data.use = \"xor-clusters\""). `features` may be null: no distribution (yet).
const Mat& require_feature(const FeatureSet* features, const std::string& who, const std::string& name,
                           const std::string& fix, Index rows = kAnyExtent, Index cols = kAnyExtent);
inline const Mat& require_feature(const FeatureSet& features, const std::string& who, const std::string& name,
                                  const std::string& fix, Index rows = kAnyExtent, Index cols = kAnyExtent) {
  return require_feature(&features, who, name, fix, rows, cols);
}

}  // namespace featurelab
