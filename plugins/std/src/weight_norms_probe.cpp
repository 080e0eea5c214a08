// Norms of the parameter blocks.
#include "weight_norms_probe.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace featurelab::std_pack {

Schema WeightNormsProbe::schema() {
  Schema s;
  s.real("lr", 0.0, "α of the run: also report W's norms against Frei et al.'s bounds ‖W‖_F <= 2αt and "
                    "‖w_j‖ <= 2|a_j|αt (Lemma A.1) as W.fro_over_bound, W.row_over_bound; 0 = off").min(0);
  return s;
}

WeightNormsProbe::WeightNormsProbe(const Params& params, Context&) : lr_(params.real("lr")) {}

void WeightNormsProbe::measure(const ProbeInput& in, Measurements& out) {
  for (const auto& b : in.model.blocks()) {
    const ConstMatMap w = std::as_const(in.model).block(b.name);
    out.scalar(b.name + ".fro", static_cast<double>(w.norm()));
    if (b.rows > 1) {
      const Vec rows = w.rowwise().norm();
      out.scalar(b.name + ".row_max", static_cast<double>(rows.maxCoeff()));
      out.scalar(b.name + ".row_mean", static_cast<double>(rows.mean()));
    }
  }
  const ParamBlock* W = in.model.find_block("W");
  const ParamBlock* a = in.model.find_block("a");
  if (lr_ > 0 && in.step >= 1 && W && a && a->rows == 1 && a->cols == W->rows) {
    const double at = lr_ * static_cast<double>(in.step);
    const ConstMatMap w = std::as_const(in.model).block("W");
    const ConstMatMap s = std::as_const(in.model).block("a");
    out.scalar("W.fro_over_bound", static_cast<double>(w.norm()) / (2 * at));
    double worst = 0;
    for (Index j = 0; j < W->rows; ++j) {
      if (s(0, j) != 0) worst = std::max(worst, static_cast<double>(w.row(j).norm() / std::abs(s(0, j))) / (2 * at));
    }
    out.scalar("W.row_over_bound", worst);
  }
}

}  // namespace featurelab::std_pack
