// An augment changes each training batch (mixup, masking). It writes into a buffer the trainer
// owns and reuses, so a step allocates nothing once the batch size is stable.
#pragma once

#include <featurelab/component.hpp>

namespace featurelab {

class Augment : public Component {
 public:
  static constexpr Kind kind_id = Kind::Augment;
  static constexpr const char* interface_id = "featurelab.augment/1";

  // Reads in (n×D), writes the augmented batch (X, y and, for soft labels, T) into out.
  virtual void apply(const Batch& in, Dataset& out, Rng& rng) = 0;
};

}  // namespace featurelab
