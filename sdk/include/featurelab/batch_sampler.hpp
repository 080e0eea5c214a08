// The batches of a training loop over the job's data: all of it, minibatches (shuffled per epoch,
// or consecutive row blocks read in place), or a fresh sample from the distribution every step.
// One sampler per loop: it keeps the epoch's order and its cursor across calls (and phases).
#pragma once

#include <featurelab/trainer.hpp>

#include <vector>

namespace featurelab {

class BatchSampler {
 public:
  // The next batch of `batch` rows; 0 = every training sample (with `fresh`, data.train many
  // fresh ones). The batch stays valid until the next call. Throws when batch exceeds the data.
  Batch next(TrainerHost& host, Index batch, bool fresh, bool shuffle, Rng& rng);

 private:
  std::vector<Index> order_;
  Index cursor_ = -1;  // < 0: (re)shuffle before the first minibatch
  Dataset buffer_;     // gathered minibatch rows or fresh samples, reused every step
};

}  // namespace featurelab
