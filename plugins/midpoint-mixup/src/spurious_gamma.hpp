// Augment `spurious-gamma`: the authors' per-access γ for §5's concatenated images. Each time a
// training sample is drawn into a batch, a fresh γ ~ U[low, high] scales its first half of the
// channels (the image) by γ and its second half (the spurious partner) by 1 − γ. Use it with
// spurious-concat gamma = "per-access", which stores both halves at γ = 1/2 (rescaled here by 2γ and
// 2(1 − γ), exact in floating point), and before any mixing augment (the authors mix the already
// scaled images).
#pragma once

#include <featurelab/augment.hpp>
#include <featurelab/contract.hpp>

namespace featurelab::midpoint_mixup_pack {

class SpuriousGamma : public featurelab::Augment {
 public:
  static constexpr featurelab::Doc kDoc =
      "Per-access γ for spurious-concat (gamma = \"per-access\"): scale the image channels by γ and the partner's "
      "by 1−γ, γ ~ U[low, high] drawn anew for every sample of every batch (the authors' data loader).";
  static featurelab::Schema schema();
  // Checked on the halves spurious-concat stores (two gaussian-mixture classes).
  static featurelab::ContractData contract_data() {
    return {{}, {}, {}, {}, {"spurious-concat", {{"gamma", std::string("per-access")}}}};
  }
  SpuriousGamma(const featurelab::Params& params, featurelab::Context& context);
  void apply(const featurelab::Batch& in, featurelab::Dataset& out, featurelab::Rng& rng) override;

 private:
  double low_, high_;
};

}  // namespace featurelab::midpoint_mixup_pack
