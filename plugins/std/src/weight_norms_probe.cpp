// Norms of the parameter blocks.
#include "probes.hpp"

#include <utility>

namespace featurelab::std_pack {

Schema WeightNormsProbe::schema() { return Schema{}; }

WeightNormsProbe::WeightNormsProbe(const Params&, Context&) {}

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
}

}  // namespace featurelab::std_pack
