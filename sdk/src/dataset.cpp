// Dataset buffers and batch views.
#include <featurelab/dataset.hpp>

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
  return batch;
}

}  // namespace featurelab
