// Distribution `multitask-linear` (dissertation ch. 7, §7.2.2 eq. 7.6–7.7; the general form App. F.2.1,
// F.35–F.37): T tasks over a hidden representation z ∈ R^d with
//     z = [z_S; z_P0; …; z_P(T−1); z_U],   |S| = s, |P_t| = r − s, |U| = spurious, d = s + T(r − s) + spurious,
// and for a sample of task t
//     z_S ~ N(0, σ_S² I),  z_Pt ~ N(0, σ_R² I),  z_P(t′≠t) = 0,  z_U ~ N(0, σ_U² I),   x = M z,
// M ∈ R^{d×d} orthonormal (a random one, or the identity: w.l.o.g. in the theory). The task of each sample is
// drawn from the mixture `weights` over `tasks` (all T evenly by default: the "diverse" pretraining data; one task:
// the task-specific data). Label of task t: y = (u_t*)ᵀ z_{R_t}, R_t = S ∪ P_t (real-valued; eq. 7.8's setting),
// with u_t* uniform on the unit sphere of R^r, or `balanced` (v_{t,1} = v_{t,2} = 1/2, the illustrative case).
// Samples: X (n×d), y = the task index, T (n×1) = the target, meta `task` and `target`. The positive x⁺ of a pair is
// made by the augment `resample-spurious` (eq. 7.7: a fresh z_U), from the features below.
// Features (what the augment, the model's ideal inits and the probes read):
//   dictionary  d×d, row j = M e_j (the atom of z_j): x = Σ_j z_j·row j
//   groups      1×d, the group of each z coordinate: 0 = S, t + 1 = P_t, −1 = U
//   scales      T×d, row t = the standard deviation of each coordinate in task t (0 on the other tasks' P)
//   labels      T×d, row t = u_t* placed on the coordinates R_t (0 elsewhere)
//   mixture     1×T, the weight of each task in this data (0 for tasks not drawn)
//   setting     1×4, [s, r, T, spurious]
#pragma once

#include <featurelab/distribution.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

class MultitaskLinear : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "T tasks sharing s features S, each with r − s private features P_t, plus spurious features U (chapter 7, Eq "
      "7.6, F.35–F.37): z_S, z_Pt, z_U Gaussian, other tasks' P zero, x = Mz (M orthonormal), y = u_t*ᵀ z_{R_t}; "
      "tasks drawn from a mixture (all tasks or a subset). Features dictionary, groups, scales, labels, mixture.";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  MultitaskLinear(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

  // n samples of one task (the fine-tuning stage of `projected-sgd` draws the target task's data this way).
  void sample_task(featurelab::Index n, featurelab::Index task, featurelab::Rng& rng, featurelab::Dataset& out);
  featurelab::Index tasks() const { return T_; }

 private:
  // Fills out from the tasks already written into task_ (n entries).
  void fill(featurelab::Index n, featurelab::Rng& rng, featurelab::Dataset& out);

  featurelab::Index s_, r_, T_, spurious_, d_;
  featurelab::Mat atoms_;    // d×d, row j = M e_j
  featurelab::Mat groups_;   // 1×d
  featurelab::Mat scales_;   // T×d
  featurelab::Mat labels_;   // T×d
  featurelab::Mat mixture_;  // 1×T
  std::vector<double> cumulative_;  // the mixture's cumulative weights, for drawing tasks
  featurelab::Mat Z_;        // n×d hidden representations of the last sample (reused)
  std::vector<featurelab::Index> task_;
};

}  // namespace featurelab::representation_theory_pack
