#include <featurelab/batch_sampler.hpp>
#include <featurelab/error.hpp>

namespace featurelab {

Batch BatchSampler::next(TrainerHost& host, Index batch, bool fresh, bool shuffle, Rng& rng) {
  Dataset& train = host.train_data();
  const Index n = train.size();
  if (batch == 0) batch = n;
  if (fresh) {
    host.distribution().sample(batch, Split::Train, rng, buffer_);
    host.transform_fresh(buffer_, rng);
    return Batch::of(buffer_);
  }
  if (n == 0) throw Error("no training samples: set data.train >= 1");
  if (batch > n) {
    throw Error("a batch of " + std::to_string(batch) + " exceeds the " + std::to_string(n) +
                " training samples; lower the trainer's batch or set data.train higher");
  }
  if (batch == n) return Batch::of(train);
  if (cursor_ < 0 || cursor_ + batch > n) {
    if (shuffle) order_ = rng.permutation(n);
    cursor_ = 0;
  }
  const Index begin = cursor_;
  cursor_ += batch;
  if (!shuffle) return Batch::rows(train, begin, batch);  // in place: no copy of the rows
  buffer_.resize(batch, train.dim(), train.T.cols());
  buffer_.classes = train.classes;
  for (Index i = 0; i < batch; ++i) {
    const Index src = order_[static_cast<std::size_t>(begin + i)];
    buffer_.X.row(i) = train.X.row(src);
    buffer_.y(i) = train.y(src);
    if (train.T.size() > 0) buffer_.T.row(i) = train.T.row(src);
  }
  if (train.has_codes()) {  // the rows' codes with them (dataset.hpp)
    buffer_.codes.resize(batch, train.codes.cols());
    for (Index i = 0; i < batch; ++i) buffer_.codes.row(i) = train.codes.row(order_[static_cast<std::size_t>(begin + i)]);
    buffer_.code_basis = train.code_basis;
  }
  return Batch::of(buffer_);
}

}  // namespace featurelab
