// [search]: points drawn at random from a space instead of a grid, planned as sweep points are (hashed job ids,
// resume, Slurm, every seed at each point):
//
//   [search]
//   budget = 20                                     # points, each run for every seed
//   seed = 1                                        # the draw's own seed (default 0): the same points every time
//   "optimizer.lr" = { log-uniform = [1e-4, 1e-1] } # also uniform = [a, b], int = [a, b] (inclusive), choice = [...]
//   "model.width" = { int = [10, 1000] }
//   "model.activation" = { choice = ["relu", "tanh"] }
//
// Each key is one axis of `budget` values, the axes zipped (point i takes value i of each), crossed with [sweep]'s
// axes if there are any. No point is drawn twice.
#pragma once

#include "kernel/job/plan.hpp"

#include <featurelab/core/errors.hpp>

#include <toml++/toml.h>

#include <vector>

namespace featurelab {

// The search's axes (SweepAxis::zipped), or none with errors located at the table's nodes.
std::vector<SweepAxis> plan_search(const toml::table& search, std::vector<Diagnostic>& errors);

}  // namespace featurelab
