// When a training loop runs the probes and records train.loss: one schedule, shared by every
// trainer. eval_schedule_schema() is merged into a trainer's schema (as schedule_schema() is into an
// optimizer's) and EvalSchedule reads its keys back; the host applies it in TrainerHost::end_step.
#pragma once

#include <featurelab/params.hpp>
#include <featurelab/types.hpp>

#include <set>

namespace featurelab {

// The keys eval_every, eval_at, log_every, loss_window and check_gradient, with a trainer's own defaults.
Schema eval_schedule_schema(Index eval_every = 0, Index loss_window = 1);

class EvalSchedule {
 public:
  EvalSchedule() = default;  // probes at the start and the end only
  explicit EvalSchedule(const Params& params);

  // Probes after `done` of `total` steps: at 0, every eval_every steps, at eval_at, at the end.
  bool evaluates(Index done, Index total) const;
  // train.loss recorded after `done` steps: at every evaluation and every log_every steps.
  bool logs(Index done, Index total) const;
  // train.loss is the mean over this many last steps.
  Index loss_window() const { return loss_window_; }
  // train.check_gradient: the first step's gradient checked against finite differences (TrainerHost::check_step).
  bool check_gradient() const { return check_gradient_; }

 private:
  Index eval_every_ = 0;
  std::set<Index> eval_at_;
  Index log_every_ = 0;
  Index loss_window_ = 1;
  bool check_gradient_ = false;
};

}  // namespace featurelab
