// The phase loop: one loss evaluation per step, then one fused update per trained block.
#include "phased_gd.hpp"

#include "readout_solver.hpp"

#include <featurelab/error.hpp>
#include <featurelab/tunable.hpp>

#include <algorithm>
#include <sstream>

namespace featurelab::feature_emergence_pack {

Schema PhasedGd::schema() {
  Schema s;
  s.integers("phase_steps", {100}, "steps of each phase").min(0).non_empty();
  s.reals("phase_lr", {0.01}, "learning rate of each phase").min(0).non_empty();
  declare_phase_lists(s);
  return s;
}

void PhasedGd::declare_phase_lists(Schema& s) {
  s.integers("phase_batch", {}, "batch of each phase, 0 = full; empty = full throughout").min(0);
  s.reals("phase_lambda_w", {}, "L2 weight on block W per phase; empty = 0").min(0);
  s.reals("phase_lambda_a", {}, "L2 weight on block a per phase; empty = 0").min(0);
  s.reals("phase_lambda_b", {}, "L2 weight on block b per phase; empty = 0").min(0);
  s.strings("phase_train", {}, "blocks trained in each phase, comma-separated (\"W,b,a\", \"a\"), or \"all\"; empty = all");
  s.strings("phase_reset", {}, "blocks reset in each phase, comma-separated: θ = −η∇L (λ = 1/(2η) in ch. 2's "
                              "convention, so the previous value is forgotten); \"\" or \"none\" = no reset");
  s.reals("phase_reset_keep", {}, "per phase, the fraction ε of a reset block's previous value that survives the reset, "
                                 "θ = εθ − η∇L: 0 = the exact reset of the theorems; > 0 models an inexact one; "
                                 "empty = 0").range(0, 1);
  s.reals("phase_redraw_b", {}, "per phase, σ > 0: block b (trainable or fixed) is drawn anew, b_i ~ N(0, σ²), at the "
                               "phase's start (ch. 3's Algorithm 7 re-initialises b ~ N(0, 1) after its first step); "
                               "0 or empty = kept").min(0);
  s.strings("phase_tune", {}, "settings changed at each phase's start, comma-separated component.setting=value "
                             "(model or loss, e.g. \"loss.class_balance=1\"; Tunable components); \"none\" = nothing");
  s.reals("phase_smoothing", {}, "the model's activation smoothing per phase (Tunable \"smoothing\"); empty = untouched");
  s.strings("phase_optimizer", {}, "per phase: gd (plain GD at phase_lr), pipeline (the pipeline's [optimizer], e.g. "
                                  "adam, restarted at the phase) or readout (the first layer frozen, block a solved "
                                  "as a hinge SVM by dual coordinate descent, one epoch a step); empty = gd")
      .choices = {"gd", "pipeline", "readout"};
  s.real("readout_lambda", 1e-5, "L2 weight λ of the readout phases' SVM (λ/2)‖a‖² + mean hinge").above(0);
  s.real("readout_tolerance", 1e-3, "the readout phases stop updating a once the relative duality gap (P − D)/P of "
                                    "the kept iterate is at most this (the phase's remaining epochs leave a as it is); "
                                    "0 = run every epoch").min(0);
  s.boolean("fresh", false, "draw every step's batch fresh from the distribution (ch. 3's Algorithm 1, online GD); "
                           "phase_batch 0 then means data.train samples");
  s.choice("l2", "sum", {"sum", "half"}, "L2 convention: λ‖θ‖² (ch. 2) or (λ/2)‖θ‖² (ch. 3)");
  s.merge(eval_schedule_schema());
}

void PhasedGd::keep_first_phases(Index count) {
  if (count < 0) return;
  if (count > static_cast<Index>(phases_.size())) {
    throw Error("phases = " + std::to_string(count) + " but phase_steps lists " + std::to_string(phases_.size()) +
                " phases: run at most the listed ones (−1 = all)");
  }
  phases_.resize(static_cast<std::size_t>(count));
  total_ = 0;
  for (const auto& ph : phases_) total_ += ph.steps;
}

void PhasedGd::append_readout(Index steps, double smoothing) {
  Phase ph;
  ph.steps = steps;
  ph.readout = true;
  ph.train = {"a"};
  ph.smoothing = smoothing;
  total_ += steps;
  phases_.push_back(std::move(ph));
}

PhasedGd::PhasedGd(const Params& params, Context&) {
  schedule_ = EvalSchedule(params);
  const auto steps = params.integers("phase_steps");
  const auto lr = params.reals("phase_lr");
  const auto batch = params.integers("phase_batch");
  const auto lw = params.reals("phase_lambda_w");
  const auto la = params.reals("phase_lambda_a");
  const auto lb = params.reals("phase_lambda_b");
  const auto train = params.strings("phase_train");
  const auto smooth = params.reals("phase_smoothing");
  const auto reset = params.strings("phase_reset");
  const auto reset_keep = params.reals("phase_reset_keep");
  const auto optimizer = params.strings("phase_optimizer");
  const auto tune = params.strings("phase_tune");
  const auto redraw_b = params.reals("phase_redraw_b");
  const std::size_t p = steps.size();
  auto check = [p](std::size_t size, const char* name) {
    if (size != 0 && size != p) {
      throw Error(std::string(name) + " has " + std::to_string(size) + " entries but phase_steps has " + std::to_string(p) +
                  ": give one per phase (or none)");
    }
  };
  if (lr.size() != p) throw Error("phase_lr has " + std::to_string(lr.size()) + " entries but phase_steps has " + std::to_string(p) + ": give one per phase");
  check(batch.size(), "phase_batch");
  check(lw.size(), "phase_lambda_w");
  check(la.size(), "phase_lambda_a");
  check(lb.size(), "phase_lambda_b");
  check(train.size(), "phase_train");
  check(smooth.size(), "phase_smoothing");
  check(reset.size(), "phase_reset");
  check(reset_keep.size(), "phase_reset_keep");
  check(optimizer.size(), "phase_optimizer");
  check(tune.size(), "phase_tune");
  check(redraw_b.size(), "phase_redraw_b");
  auto block_set = [](const std::string& text) {
    std::set<std::string> out;
    if (text == "all" || text == "none") return out;
    std::stringstream list(text);
    for (std::string name; std::getline(list, name, ',');) {
      name.erase(0, name.find_first_not_of(' '));
      name.erase(name.find_last_not_of(' ') + 1);
      if (!name.empty()) out.insert(name);
    }
    return out;
  };
  for (std::size_t i = 0; i < p; ++i) {
    Phase ph;
    ph.steps = steps[i];
    ph.lr = lr[i];
    ph.batch = batch.empty() ? 0 : batch[i];
    ph.lambda_w = lw.empty() ? 0 : lw[i];
    ph.lambda_a = la.empty() ? 0 : la[i];
    ph.lambda_b = lb.empty() ? 0 : lb[i];
    ph.smoothing = smooth.empty() ? -1 : smooth[i];
    if (!train.empty()) ph.train = block_set(train[i]);
    if (!reset.empty()) ph.reset = block_set(reset[i]);
    ph.reset_keep = reset_keep.empty() ? 0 : reset_keep[i];
    ph.redraw_b = redraw_b.empty() ? 0 : redraw_b[i];
    if (ph.reset_keep > 0 && ph.reset.empty()) {
      throw Error("phase " + std::to_string(i) + " sets phase_reset_keep but resets no block: name them in phase_reset");
    }
    ph.pipeline_optimizer = !optimizer.empty() && optimizer[i] == "pipeline";
    ph.readout = !optimizer.empty() && optimizer[i] == "readout";
    if (ph.readout && !ph.reset.empty()) throw Error("phase " + std::to_string(i) + " is a readout phase: it cannot reset blocks");
    if (!tune.empty() && tune[i] != "none" && !tune[i].empty()) {
      std::stringstream list(tune[i]);
      for (std::string item; std::getline(list, item, ',');) {
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        const auto dot = item.find('.'), eq = item.find('=');
        if (dot == std::string::npos || eq == std::string::npos || eq < dot) {
          throw Error("phase_tune entry '" + item + "': write component.setting=value, e.g. loss.class_balance=1");
        }
        Tuning t;
        t.component = item.substr(0, dot);
        t.setting = item.substr(dot + 1, eq - dot - 1);
        if (t.component != "model" && t.component != "loss") {
          throw Error("phase_tune entry '" + item + "': the component is model or loss");
        }
        try {
          t.value = std::stod(item.substr(eq + 1));
        } catch (const std::exception&) {
          throw Error("phase_tune entry '" + item + "': the value is not a number");
        }
        ph.tunings.push_back(t);
      }
    }
    if (ph.pipeline_optimizer && !ph.reset.empty()) {
      throw Error("phase " + std::to_string(i) + " resets blocks with the pipeline's optimizer; resets are plain GD steps");
    }
    total_ += ph.steps;
    phases_.push_back(std::move(ph));
  }
  readout_lambda_ = params.real("readout_lambda");
  readout_tolerance_ = params.real("readout_tolerance");
  fresh_ = params.boolean("fresh");
  l2_factor_ = params.str("l2") == "sum" ? 2.0 : 1.0;
}

std::string PhasedGd::divergence_hint() const {
  return "lower this phase's phase_lr (optimizer.lr in phase_optimizer = pipeline phases)";
}

void PhasedGd::train(TrainerHost& host, Rng& rng) {
  Model& model = host.model();
  Dataset& data = host.train_data();
  const Index n = data.size();
  if (n == 0) throw Error("no training samples: set data.train >= 1");
  const Index p = model.trainable_size();
  grad_.resize(p);
  // Every block a phase names must exist and be trainable.
  for (const auto& ph : phases_) {
    std::set<std::string> named = ph.train;
    named.insert(ph.reset.begin(), ph.reset.end());
    for (const auto& name : named) {
      const ParamBlock* b = model.find_block(name);
      if (!b || !b->trainable) {
        std::string names;
        for (const auto& blk : model.blocks()) {
          if (blk.trainable) names += (names.empty() ? "" : ", ") + blk.name;
        }
        throw Error("phase_train or phase_reset names block '" + name + "', which the model does not train (its trainable blocks: " + names + ")");
      }
    }
    for (const auto& t : ph.tunings) {
      Component* target = t.component == "model" ? static_cast<Component*>(&model) : static_cast<Component*>(&host.loss());
      if (!dynamic_cast<Tunable*>(target)) throw Error("phase_tune: the " + t.component + " has no settings to tune");
    }
    if (ph.smoothing >= 0 && !dynamic_cast<Tunable*>(&model) && !ph.readout) {
      throw Error("phase_smoothing needs a model with a smoothing setting (truncated-two-layer)");
    }
    if (ph.redraw_b > 0 && !model.find_block("b")) {
      throw Error("phase_redraw_b redraws block b, which this model does not have");
    }
    if (!fresh_ && ph.batch > n) throw Error("phase_batch " + std::to_string(ph.batch) + " exceeds the " + std::to_string(n) + " training samples");
  }
  Index step = 0;
  Rng redraw_rng = rng.fork("phase_redraw_b");  // off the seed, not the batches' stream
  host.start();
  for (const auto& ph : phases_) {
    if (ph.redraw_b > 0) redraw_rng.fill_normal(model.block("b"), ph.redraw_b);
    // (A readout phase's smoothing applies only to models that have one.)
    if (ph.smoothing >= 0 && dynamic_cast<Tunable*>(&model)) dynamic_cast<Tunable&>(model).tune("smoothing", ph.smoothing);
    if (ph.pipeline_optimizer) host.optimizer().reset(p);
    for (const auto& t : ph.tunings) {
      Component* target = t.component == "model" ? static_cast<Component*>(&model) : static_cast<Component*>(&host.loss());
      dynamic_cast<Tunable&>(*target).tune(t.setting, t.value);
    }
    if (ph.readout) {
      if (!train_readout(host, ph, rng, step)) return;
      continue;
    }
    for (Index t = 0; t < ph.steps; ++t) {
      const Batch b = host.augment(batches_.next(host, ph.batch, fresh_, true, rng), rng);
      const Scalar loss = host.loss().evaluate_with_gradient(model, b, grad_);
      host.check_step(step, b, loss, 0, grad_);
      if (ph.pipeline_optimizer) {
        // Frozen blocks get a zero gradient (the restarted optimizer then leaves them), L2 is added.
        for (const auto& blk : model.blocks()) {
          if (!blk.trainable) continue;
          auto g = grad_.segment(blk.offset, blk.size());
          if (!ph.train.empty() && !ph.train.count(blk.name)) {
            g.setZero();
            continue;
          }
          const double lambda = blk.name == "W" ? ph.lambda_w : blk.name == "a" ? ph.lambda_a : blk.name == "b" ? ph.lambda_b : 0.0;
          if (lambda > 0) g += static_cast<Scalar>(l2_factor_ * lambda) * model.parameters().segment(blk.offset, blk.size());
        }
        host.optimizer().step(model.parameters().head(p), grad_, t);
      } else {
        // θ ← (1 − c)θ − η∇L with c = (2 or 1)·λ·η: written this way a reset (c = 1, e.g. λ_w = 1/(2η))
        // sets θ = −η∇L exactly instead of cancelling θ − θ in floating point.
        Vec& theta = model.parameters();
        for (const auto& blk : model.blocks()) {
          if (!blk.trainable) continue;
          if (!ph.train.empty() && !ph.train.count(blk.name)) continue;  // frozen in this phase
          const double lambda = blk.name == "W" ? ph.lambda_w : blk.name == "a" ? ph.lambda_a : blk.name == "b" ? ph.lambda_b : 0.0;
          const double keep = 1.0 - l2_factor_ * lambda * ph.lr;
          auto theta_block = theta.segment(blk.offset, blk.size());
          const auto g = grad_.segment(blk.offset, blk.size());
          if (ph.reset.count(blk.name) && ph.reset_keep > 0) {
            theta_block = static_cast<Scalar>(ph.reset_keep) * theta_block - static_cast<Scalar>(ph.lr) * g;
          } else if (ph.reset.count(blk.name)) {
            theta_block = -static_cast<Scalar>(ph.lr) * g;
          } else if (keep == 1.0) {
            theta_block -= static_cast<Scalar>(ph.lr) * g;
          } else {
            theta_block = static_cast<Scalar>(keep) * theta_block - static_cast<Scalar>(ph.lr) * g;
          }
        }
      }
      if (!host.end_step(++step, loss)) return;
    }
  }
}

bool PhasedGd::train_readout(TrainerHost& host, const Phase& ph, Rng& rng, Index& step) {
  Model& model = host.model();
  const Dataset& data = host.train_data();
  const ParamBlock* a = model.find_block("a");
  if (!a || !a->trainable || a->rows != 1) {
    throw Error("a readout phase trains block a (1×width) of a one-output model; this model has none");
  }
  model.hook("hidden.post", data.X, hidden_);
  if (hidden_.cols() != a->cols) throw Error("a readout phase needs hidden.post with one column per entry of a");
  // The readout is exact only for models whose output is ⟨a, hidden.post⟩ (no output bias, no
  // nonlinearity after the sum): check it on the data rather than trust it, on the first rows (a
  // forward over all of them costs as much as the hook again).
  const Index checked = std::min<Index>(data.size(), 1000);
  Mat out(checked, 1);
  model.forward(data.X.topRows(checked), out);
  const Mat linear = hidden_.topRows(checked) * model.block("a").transpose();
  const double scale = std::max<double>(1.0, out.cwiseAbs().maxCoeff());
  if ((out - linear).cwiseAbs().maxCoeff() > 1e-3 * scale) {
    throw Error("a readout phase needs a model whose output is hidden.post · aᵀ; this one's is not");
  }
  VecD y(data.size());
  for (Index i = 0; i < data.size(); ++i) y(i) = data.y(i) == 1 ? 1.0 : -1.0;
  HingeReadout solver(hidden_, y, readout_lambda_);
  // Dual coordinate descent raises the dual at every update but not the primal: on nearly collinear
  // features the last iterate can be far worse than an earlier one (ch. 3's r = 3 parity: primal 0.19
  // at epoch 91, 1.41 at epoch 100, a readout at 15 % where the kept one is at 93 %). So a is the best
  // primal iterate so far (a = 0, primal 1, before the first epoch), and P − D bounds how far it is
  // from the SVM's optimum: D only rises, so the gap only narrows.
  VecD kept = VecD::Zero(hidden_.cols());
  double kept_primal = solver.primal();
  readout_gap_ = 1.0;
  readout_epochs_ = 0;
  for (Index t = 0; t < ph.steps; ++t) {
    if (t == 0 || readout_gap_ > readout_tolerance_) {  // a = 0 (gap 1) is no readout: one epoch at least
      solver.epoch(rng);
      ++readout_epochs_;
      const double primal = solver.primal();
      if (primal < kept_primal) {
        kept_primal = primal;
        kept = solver.weights();
      }
      readout_gap_ = kept_primal > 0 ? std::max(0.0, kept_primal - solver.dual()) / kept_primal : 0.0;
      model.block("a").row(0) = kept.cast<Scalar>().transpose();
    }
    ++step;
    if (!host.end_step(step, kept_primal)) return false;
  }
  return true;
}

void PhasedGd::record_evaluation(TrainerHost& host, Index step) {
  if (readout_epochs_ == 0) return;  // no readout phase has run yet
  host.record(step, "train.readout_gap", readout_gap_);
  host.record(step, "train.readout_epochs", static_cast<double>(readout_epochs_));
}

}  // namespace featurelab::feature_emergence_pack
