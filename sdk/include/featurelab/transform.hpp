// A transform changes a dataset once, after sampling (label noise, concatenation, scaling).
#pragma once

#include <featurelab/component.hpp>

namespace featurelab {

class Transform : public Component {
 public:
  static constexpr Kind kind_id = Kind::Transform;
  static constexpr const char* interface_id = "featurelab.transform/1";

  // The spec after this transform (dimension, classes or metadata may change).
  virtual DataSpec output_spec(const DataSpec& in) const { return in; }
  virtual void apply(Dataset& train, Dataset& test, Rng& rng) = 0;
};

}  // namespace featurelab
