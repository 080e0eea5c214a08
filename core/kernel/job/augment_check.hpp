// The host's check of what an augment wrote (featurelab/augment.hpp says what it must set): a
// forgotten resize would otherwise reach the loss as labels or targets that do not exist.
#pragma once

#include "kernel/config/pipeline.hpp"

#include <featurelab/dataset.hpp>

namespace featurelab {

// Throws Error "augment.0 (fixture:forgetful-augment): <what is wrong>; <the fix>" when out's
// shapes disagree: X has no rows, y or T (when not empty) has another number of rows than X, X's
// columns are not the data's dimension, or classes is unset. Allocates nothing when they agree.
void check_augment_output(const ComponentConfig& augment, const Batch& in, const Dataset& out, const DataSpec& spec);

}  // namespace featurelab
