// Probe `weight-norms`: norms of every parameter block.
#pragma once

#include <featurelab/probe.hpp>

namespace featurelab::std_pack {

class WeightNormsProbe : public Probe {
 public:
  static constexpr Doc kDoc =
      "Norms of every parameter block: <block>.fro, and for matrices the max and mean row norm.";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"*.fro", "*.row_max", "*.row_mean", "W.fro_over_bound", "W.row_over_bound"}; }
  WeightNormsProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;

 private:
  double lr_;
};

}  // namespace featurelab::std_pack
