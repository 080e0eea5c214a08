// The pack declaration: its name, version and components.
#include "margin_stats_probe.hpp"
#include "quadratic_model.hpp"
#include "square_layer.hpp"

#include <featurelab/pack.hpp>

FEATURELAB_PACK("margins", "1.0.0") {
  pack.add<margins_pack::MarginStatsProbe>("margin-stats");
  pack.add<margins_pack::QuadraticModel>("quadratic");
  pack.add<margins_pack::SquareLayer>("square");
}
