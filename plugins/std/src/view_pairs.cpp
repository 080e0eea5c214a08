// The layout around the views: K positives in, anchors, positives and the raw negatives out, with their roles.
#include "view_pairs.hpp"

#include <featurelab/error.hpp>
#include <featurelab/views.hpp>

namespace featurelab::std_pack {

Schema ViewPairs::schema() {
  Schema s;
  s.integer("positives", 2048, "K: the first K rows of each batch become view pairs (anchor, positive); the rest are "
                               "raw negatives (the trainer's batch is K + N)").min(1);
  return s;
}

ViewPairs::ViewPairs(const Params& params, Context&) : positives_(params.integer("positives")) {}

void ViewPairs::apply(const Batch& in, Dataset& out, Rng& rng) {
  const Index K = positives_, N = in.n - positives_, D = in.dim;
  if (N < 1) {
    throw Error(name() + ": the batch has " + std::to_string(in.n) + " rows but positives = " + std::to_string(K) +
                ": the rows after the first K are the negatives, so the batch needs K + N rows with N >= 1 (set the "
                "trainer's batch to K + N, e.g. " + std::to_string(K + 256) + ")");
  }
  out.resize(2 * K + N, D, 1);
  out.classes = in.classes;
  const ConstMatMap X = in.X();
  views(X.topRows(K), out.X.topRows(K), out.X.middleRows(K, K), rng);
  out.X.bottomRows(N) = X.bottomRows(N);
  write_view_roles(in.Y(), K, out);
}

}  // namespace featurelab::std_pack
