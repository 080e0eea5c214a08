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

  Index size() const { return X.rows(); }
  Index dim() const { return X.cols(); }
  // Resizes every member for n samples of dimension dim (no allocation if already that size).
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

  ConstMatMap X() const { return ConstMatMap(x, n, dim); }
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
