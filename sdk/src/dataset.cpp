// Dataset buffers, batch views, and the check of a ground-truth feature a component reads.
#include <featurelab/dataset.hpp>
#include <featurelab/error.hpp>

namespace featurelab {

void Dataset::resize(Index n, Index dim, Index target_cols) {
  X.resize(n, dim);
  y.resize(n);
  if (target_cols > 0) {
    T.resize(n, target_cols);
  } else {
    T.resize(0, 0);
  }
  for (auto& [name, column] : meta) column.resize(n);
  drop_codes();
}

Batch Batch::of(const Dataset& data) { return rows(data, 0, data.size()); }

Batch Batch::rows(const Dataset& data, Index begin, Index count) {
  Batch batch;
  batch.x = data.X.data() + begin * data.X.cols();
  batch.y = data.y.data() + begin;
  batch.n = count;
  batch.dim = data.X.cols();
  batch.classes = data.classes;
  if (data.T.size() > 0) {
    batch.t = data.T.data() + begin * data.T.cols();
    batch.t_cols = data.T.cols();
  }
  if (data.has_codes()) {
    batch.codes = data.codes.data() + begin * data.codes.cols();
    batch.code_dim = data.codes.cols();
    batch.code_basis = data.code_basis.get();
  }
  return batch;
}

namespace {

// "2×5", "with 2 rows", "with 5 columns", or nothing when both extents are free.
std::string shape_text(Index rows, Index cols) {
  if (rows != kAnyExtent && cols != kAnyExtent) return std::to_string(rows) + "×" + std::to_string(cols);
  if (rows != kAnyExtent) return "with " + std::to_string(rows) + (rows == 1 ? " row" : " rows");
  if (cols != kAnyExtent) return "with " + std::to_string(cols) + (cols == 1 ? " column" : " columns");
  return {};
}

}  // namespace

const Mat& require_feature(const FeatureSet* features, const std::string& who, const std::string& name,
                           const std::string& fix, Index rows, Index cols) {
  const std::string wanted = shape_text(rows, cols);
  const std::string needs = who + " needs the distribution's feature \"" + name + "\"" +
                            (wanted.empty() ? std::string() : " (" + wanted + ")");
  const auto it = features ? features->find(name) : FeatureSet::const_iterator();
  if (!features || it == features->end()) {
    std::string exposed;
    if (features) {
      for (const auto& [feature, _] : *features) exposed += (exposed.empty() ? "" : ", ") + feature;
    }
    throw Error(needs + ", which the distribution does not expose (it has: " +
                (exposed.empty() ? std::string("none") : exposed) + "); " + fix);
  }
  const Mat& m = it->second;
  if ((rows != kAnyExtent && m.rows() != rows) || (cols != kAnyExtent && m.cols() != cols)) {
    throw Error(needs + ", but the distribution's is " + std::to_string(m.rows()) + "×" + std::to_string(m.cols()) +
                "; " + fix);
  }
  return m;
}

}  // namespace featurelab
