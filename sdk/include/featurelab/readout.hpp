// How probes and attacks read a model's outputs as decisions, and which margin an attack lowers.
//   outputs    the model's own classes: the sign of one output (y = ±1 by signed_label), the
//              argmax of several; margin y·f, or f_y − logsumexp_{j≠y} f_j.
//   partition  a k-output model read as a binary classifier over a partition of its outputs
//              J+ ∪ J− (Li et al. 2024 §4.2, "fine-grained supervision"): the decision is
//              sgn(Σ_{J+} p_j − Σ_{J−} p_j) (sgn(0) = −1), the margin is s·(LSE_{J+} f − LSE_{J−} f)
//              with s = ±1 the sample's side: the same sign, but it never saturates as the
//              softmax does, so attacks keep a gradient. Labels are the k-class labels; label j's
//              side is the partition's sign of j. The partition comes from the distribution's
//              feature "partition" (1×k, entries ±1), never from a convention such as "first half".
#pragma once

#include <featurelab/component.hpp>

namespace featurelab {

class Readout {
 public:
  // Adds the parameter `readout` ("outputs" or "partition") to a component's schema.
  static void declare(Schema& schema);
  // Throws Error if "partition" is asked for and the distribution exposes none.
  static Readout from(const Params& params, const Context& context);
  static Readout outputs() { return Readout(); }
  static Readout partition(const VecD& signs);

  bool partitioned() const { return signs_.size() > 0; }
  // Per sample: > 0 when it is classified right. dmargin (n×K, presized) receives d margin/d out.
  // Throws Error when the outputs do not match the partition or a label is out of range.
  Vec margins(ConstMatRef out, ConstIVecMap labels, MatRef dmargin) const;
  // Per sample: classified right (the decision rule above, ties included).
  Eigen::Array<bool, Eigen::Dynamic, 1> correct(ConstMatRef out, ConstIVecMap labels) const;
  // The binary side (+1 / −1) of a label: the partition's sign, or signed_label for two classes.
  Scalar side(std::int32_t label) const;

 private:
  void check(ConstMatRef out, ConstIVecMap labels) const;
  VecD signs_;  // ±1 per output; empty: read the outputs directly
};

}  // namespace featurelab
