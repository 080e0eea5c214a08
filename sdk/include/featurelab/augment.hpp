// An augment changes each training batch (mixup, masking). It writes into a buffer the trainer
// owns and reuses, so a step allocates nothing once the batch size is stable.
//
// What apply() must leave in `out` (the buffer keeps whatever the previous call left, and starts
// empty, 0×0, on the first call):
//   out.X        m×D, D = in.dim (the data's dimension; an augment never changes it), m >= 1
//                (m may differ from in.n: pairs, extra views)
//   out.y        m labels in [0, out.classes)
//   out.T        m×K targets (soft labels, K of your choice), or empty (0×0) for labels only
//   out.classes  normally in.classes
// Resize first, then write: `out.resize(m, in.dim, K)` sizes X, y and T (K = 0 empties T) and is
// free when the size is unchanged. Writing rows of an unsized buffer writes out of bounds: the
// host checks these shapes after every call and fails the job naming the augment, but a write
// past the end has already corrupted memory by then.
#pragma once

#include <featurelab/component.hpp>

namespace featurelab {

class Augment : public Component {
 public:
  static constexpr Kind kind_id = Kind::Augment;
  static constexpr const char* interface_id = "featurelab.augment/1";

  // Reads in (n×D), writes the augmented batch (X, y and, for soft labels, T) into out, sized as
  // described at the top of this file.
  virtual void apply(const Batch& in, Dataset& out, Rng& rng) = 0;
};

}  // namespace featurelab
