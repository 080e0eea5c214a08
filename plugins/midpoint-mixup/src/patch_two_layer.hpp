// Model `patch-two-layer` (Def. 4.2, Eq. 4.1; the 2-layer CNN of Allen-Zhu & Li):
//   g^y(x) = Σ_{r∈[m]} Σ_{p∈[P]} ReLU~(⟨w_{y,r}, x^{(p)}⟩)
// k·m first-layer filters (block "W": (k·m)×d, rows y·m … y·m+m−1 belong to class y), a fixed
// second layer summing each class's filters over all patches, no bias. The patches of a batch are
// one (n·P)×d matrix (a view of the row-major n×(P·d) input), so the forward pass is one GEMM.
#pragma once

#include "contract_setups.hpp"
#include "unclipped_smoothed_relu.hpp"

#include <featurelab/activation.hpp>
#include <featurelab/capabilities.hpp>
#include <featurelab/model.hpp>
#include <featurelab/preactivation.hpp>

#include <optional>
#include <vector>

namespace featurelab::midpoint_mixup_pack {

class PatchTwoLayer : public featurelab::Model,
                      public featurelab::LinearPreactivation,
                      public featurelab::FusedStep,
                      public featurelab::WeighsPatchCounts {
 public:
  static constexpr featurelab::Doc kDoc =
      "Two-layer patch CNN g^y(x) = Σ_r Σ_p ReLU~(<w_{y,r}, x^(p)>) (Def. 4.2) with the polynomially smoothed "
      "ReLU (α, ρ), m filters per class, fixed sum readout, Xavier init N(0, I/d) (or a chosen std).";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() { return {{"neurons", std::int64_t(2)}}; }
  static featurelab::ContractData contract_data() { return multiview_contract(); }
  PatchTwoLayer(const featurelab::Params& params, featurelab::Context& context);

  featurelab::Index outputs() const override { return classes_; }
  void init(featurelab::Rng& rng) override;
  // X: n×(P·d) -> out: n×k
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  // dout: n×k -> grad over W
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;
  void input_gradient(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::MatRef dX) override;
  // Forward, loss and backward per block of samples while their (b·P)×(k·m) pre-activations are in L2,
  // which then hold φ' and the patch gradient in place: no (n·P)×(k·m) array is written.
  bool fused_step(const featurelab::Batch& batch, const featurelab::SeparableLoss& loss, featurelab::VecRef grad,
                  featurelab::Scalar& value) override;
  std::vector<featurelab::HookSpec> hook_points() const override;

  // LinearPreactivation: Z holds, per sample, the P·k·m values <w_{y,r}, x^(p)> (patch-major).
  featurelab::Index preactivation_width() const override { return patches_ * classes_ * neurons_; }
  void preactivations(featurelab::ConstMatRef X, featurelab::MatRef Z) override;
  void head(featurelab::ConstMatRef Z, featurelab::MatRef out) override;
  void head_backward(featurelab::ConstMatRef dout, featurelab::MatRef dZ) override;
  void preactivation_backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dZ, featurelab::VecRef grad) override;
  void mixed_head(const Eigen::Ref<const featurelab::RowVec>& anchor, featurelab::Scalar mu,
                  featurelab::ConstMatRef partners, featurelab::MatRef out, MixedScratch& scratch) override;
  void mixed_head_backward(featurelab::ConstMatRef dout, featurelab::Scalar mu, featurelab::MatRef partner_dZ,
                           Eigen::Ref<featurelab::RowVec> anchor_dZ, MixedScratch& scratch) override;
  bool mixes_in_parallel() const override { return true; }
  bool weighs_patch_counts() const override { return true; }
  void hook(const std::string& name, featurelab::ConstMatRef X, featurelab::Mat& out) override;

 private:
  featurelab::ConstMatMap patch_rows(featurelab::ConstMatRef X);  // (n·P)×d view (copy if strided)
  void patch_gradient(featurelab::ConstMatRef dout);                // G_ = dout broadcast ⊙ ReLU~'(Z)
  void patch_gradient(featurelab::ConstMatRef dout, featurelab::MatRef G);  // into a contiguous (n·P)×(k·m) G

  featurelab::Activation activation_;
  std::optional<UnclippedSmoothedRelu> unclipped_;  // activation = smoothed-relu-unclipped
  // Calls f with the elementwise kernel: the unclipped one, or the built-in's (Activation::visit).
  template <class F>
  void visit_activation(F&& f) const {
    if (unclipped_) {
      f(*unclipped_);
    } else {
      activation_.visit(f);
    }
  }
  // H = φ(Z), D = φ'(Z) for any block of rows.
  void apply_activation(featurelab::ConstMatRef Z, featurelab::MatRef H, featurelab::MatRef D) const;
  // patch_layout = strips: stored position t of the model's (P·d) input row reads the data's flat
  // index strip_source_[t]; empty for whole patches.
  std::vector<featurelab::Index> strip_source_;
  featurelab::BlockHandle W_;
  int classes_;
  featurelab::Index neurons_, patches_, dim_;
  std::optional<double> init_std_;  // empty: auto
  bool xavier_conv_;                // init = xavier-conv
  double warm_start_;                       // A_total along one feature, 0 = none
  int warm_feature_;                        // ℓ ∈ {1, 2}
  const featurelab::FeatureSet* features_;  // the distribution's, for the warm start
  // Per stored patch, how many equal patches it stands for (DataShape::patch_counts): φ and φ' of
  // patch p are weighed by counts_[p]. Empty when every patch counts once.
  std::vector<featurelab::Scalar> counts_;
  featurelab::Scalar count(featurelab::Index p) const { return counts_.empty() ? featurelab::Scalar(1) : counts_[static_cast<std::size_t>(p)]; }
  void readout(featurelab::Index n, featurelab::MatRef out);  // out = per-class sums of H_
  featurelab::Mat Z_, H_, D_, G_, packed_;
  // A fused step's per-chunk scratch: one block's pre-activations (then φ', then the patch gradient),
  // its filter sums, outputs and d(loss)/d(out), and the chunk's ∇Wᵀ (d × padded km) and loss.
  struct FusedChunk {
    featurelab::Mat Z, sums, out, dout, grad;
    double loss = 0;
  };
  std::vector<FusedChunk> fused_chunks_;
  featurelab::Mat filters_transposed_;  // Wᵀ, d × km padded to whole vector strips with zeros
  // A block's pre-activations take at most this many floats (256 KB: in L2 beside its patches).
  static constexpr featurelab::Index kFusedBlockFloats = 65536;
  // One km-vector per chunk of samples (featurelab/threads.hpp): readout's filter sums, patch_gradient's
  // filter scales.
  std::vector<featurelab::RowVec> chunk_filters_;
  void full_activations(featurelab::ConstMatRef X);  // Z_, H_, D_ of every patch
  void size_chunk_filters();
  void build_strip_layout();  // patch_layout = strips
  void activations(featurelab::ConstMatRef Z);  // H_ = φ(Z), D_ = φ'(Z), by chunks of rows, weighed by counts_
};

}  // namespace featurelab::midpoint_mixup_pack
