// Trainer `phased-gd`: gradient descent in phases, each with its own steps, learning rate, batch,
// L2 weights per layer, trained blocks and activation smoothing — Shi 2024's schedules:
//   ch. 2 (Eq. 2.4, Thm A.20): step 1 with λ_w = 1/(2η1) (W is reset to −η1∇_W L: the init is forgotten),
//   step 2 with η = 1, λ_a = λ_w = ½ (W and a reset), then ordinary minibatch GD; phase_reset names
//   the reset blocks directly (exact, where θ − θ in floating point would not be);
//   "One Step" / "Two Step": the same first steps, then only the readout a trains; random features:
//   only a from the start.
// The L2 term is λ‖θ‖² (gradient 2λθ, ch. 2) or (λ/2)‖θ‖² (ch. 3's convention, l2 = "half").
// Phases are parallel lists (one entry per phase); the pipeline's [optimizer] is not used: each
// phase takes its own learning rate (plain GD, as the chapters analyse) unless phase_optimizer says
// "pipeline": then the pipeline's [optimizer] (e.g. Adam, restarted at the phase) steps, which solves
// an ill-conditioned readout far better than plain GD.
// phase_redraw_b = σ > 0 draws every entry of block b anew from N(0, σ²) at the phase's start: ch. 3's
// Algorithm 7 (App. B.5.7, after Damian et al. 2022) re-initialises b_i ~ N(0, 1) after its one step on
// W. The draws come from a stream forked off the training seed, not from the batches' stream, so arms
// of a sweep that share a seed (the network and its random features) redraw the same biases.
#pragma once

#include <featurelab/batch_sampler.hpp>
#include <featurelab/trainer.hpp>

#include <set>
#include <vector>

namespace featurelab::feature_emergence_pack {

class PhasedGd : public featurelab::Trainer {
 public:
  static constexpr featurelab::Doc kDoc =
      "GD in phases (parallel lists phase_steps, phase_lr, phase_batch, phase_lambda_w/a/b, phase_train, "
      "phase_smoothing, phase_optimizer, phase_redraw_b): Shi 2024's reset steps, One/Two Step readouts, random features; the "
      "pipeline's [optimizer] steps only phases with phase_optimizer = pipeline.";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() {
    return {{"phase_steps", std::vector<std::int64_t>{2, 2}}, {"phase_lr", std::vector<double>{0.05, 0.05}}};
  }
  PhasedGd(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index total_steps() const override { return total_; }
  void train(featurelab::TrainerHost& host, featurelab::Rng& rng) override;
  std::string divergence_hint() const override;
  // After a readout phase: train.readout_gap, the kept readout's relative duality gap (P − D)/P, and
  // train.readout_epochs, the epochs it ran before that gap reached readout_tolerance.
  void record_evaluation(featurelab::TrainerHost& host, featurelab::Index step) override;

 protected:
  // The phase lists and common keys (every key but phase_steps and phase_lr).
  static void declare_phase_lists(featurelab::Schema& s);
  // Keeps the first `count` phases (count < 0: all); refuses a count beyond the listed phases.
  void keep_first_phases(featurelab::Index count);
  // Appends a readout phase of `steps` epochs (smoothing < 0: untouched).
  void append_readout(featurelab::Index steps, double smoothing);

 private:
  struct Tuning {
    std::string component, setting;  // "model" or "loss"; the Tunable setting
    double value = 0;
  };
  struct Phase {
    featurelab::Index steps = 0, batch = 0;
    double lr = 0, lambda_w = 0, lambda_a = 0, lambda_b = 0, smoothing = -1;
    std::set<std::string> train;  // empty: every trainable block
    std::set<std::string> reset;  // blocks set to −η∇L in this phase
    double reset_keep = 0;        // ε: a reset block becomes εθ − η∇L (0: exact)
    double redraw_b = 0;          // σ > 0: block b ~ N(0, σ²) at the phase's start
    bool pipeline_optimizer = false;  // step with the pipeline's [optimizer] instead of plain GD
    bool readout = false;             // solve block a exactly on the frozen hidden layer
    std::vector<Tuning> tunings;      // applied at the phase's start
  };
  // A readout phase; false when the user asked to stop.
  bool train_readout(featurelab::TrainerHost& host, const Phase& ph, featurelab::Rng& rng, featurelab::Index& step);

  std::vector<Phase> phases_;
  featurelab::Index total_ = 0;
  double l2_factor_ = 2;
  double readout_lambda_ = 1e-5;
  double readout_tolerance_ = 1e-3;
  double readout_gap_ = 1;           // of the last readout phase
  featurelab::Index readout_epochs_ = 0;
  bool fresh_ = false;
  featurelab::Mat hidden_;
  featurelab::BatchSampler batches_;
  featurelab::Vec grad_;
};

}  // namespace featurelab::feature_emergence_pack
