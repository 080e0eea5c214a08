// The grid in one batched forward pass.
#include "decision_grid_probe.hpp"

#include <featurelab/error.hpp>

#include <fmt/format.h>

#include <utility>

namespace featurelab::feature_amplification_pack {

Schema DecisionGridProbe::schema() {
  Schema s;
  s.real("low", -1.6, "grid from low ...");
  s.real("high", 1.6, "... to high, in both coordinates");
  s.integer("resolution", 81, "points per axis").range(2, 1000);
  return s;
}

DecisionGridProbe::DecisionGridProbe(const Params& params, Context& context)
    : low_(params.real("low")), high_(params.real("high")), resolution_(params.integer("resolution")) {
  if (!(high_ > low_)) throw Error("decision-grid: high must exceed low");
  if (context.data.dim < 2) throw Error("decision-grid draws the first two coordinates: the data needs dim >= 2");
}

void DecisionGridProbe::measure(const ProbeInput& in, Measurements& out) {
  const Index r = resolution_;
  Mat grid = Mat::Zero(r * r, in.train.dim());
  auto coord = [&](Index i) { return low_ + (high_ - low_) * static_cast<double>(i) / static_cast<double>(r - 1); };
  for (Index row = 0; row < r; ++row) {
    for (Index col = 0; col < r; ++col) {
      grid(row * r + col, 0) = static_cast<Scalar>(coord(col));
      grid(row * r + col, 1) = static_cast<Scalar>(coord(r - 1 - row));  // top row = largest x2
    }
  }
  const Vec f = outputs_of(in.model, grid, "decision-grid");
  Table table;
  table.values.resize(r, r);
  for (Index row = 0; row < r; ++row) {
    for (Index col = 0; col < r; ++col) table.values(row, col) = f(row * r + col) > 0 ? 1.0 : -1.0;
  }
  for (Index i = 0; i < r; ++i) {
    table.col_names.push_back(fmt::format("{:.2f}", coord(i)));
    table.row_names.push_back(fmt::format("{:.2f}", coord(r - 1 - i)));
  }
  out.table("sign", std::move(table));
}

}  // namespace featurelab::feature_amplification_pack
