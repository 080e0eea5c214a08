// A distribution samples datasets and exposes its ground-truth features to probes.
#pragma once

#include <featurelab/component.hpp>

namespace featurelab {

enum class Split { Train, Test };

// Optional, and worth declaring: a distribution class may have
//   static double dimension(const featurelab::Params& params);
// returning the sample dimension D its (validated) parameters imply, computed without building
// anything, as a real so that absurd parameters overflow nothing. `featurelab validate` and `run`
// multiply it by data.train + data.test and refuse a pipeline whose samples cannot fit in memory
// before any job starts; without it the check happens when each job starts.
class Distribution : public Component {
 public:
  static constexpr Kind kind_id = Kind::Distribution;
  static constexpr const char* interface_id = "featurelab.distribution/1";

  virtual DataSpec spec() const = 0;
  // Draws n samples into out (resized by the callee; no allocation when out already has the
  // size). Called once per split, or every step when the trainer asks for fresh samples.
  virtual void sample(Index n, Split split, Rng& rng, Dataset& out) = 0;
  // Named ground-truth feature matrices, one feature per row.
  virtual FeatureSet features() const { return {}; }
  // For finite datasets: how many samples a split holds; -1 for an unbounded generator.
  virtual Index available(Split) const { return -1; }
};

}  // namespace featurelab
