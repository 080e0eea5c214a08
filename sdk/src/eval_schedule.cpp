#include <featurelab/eval_schedule.hpp>

namespace featurelab {

Schema eval_schedule_schema(Index eval_every, Index loss_window) {
  Schema s;
  s.integer("eval_every", eval_every, "run the probes every this many steps; 0 = at the start and the end only").min(0);
  s.integers("eval_at", {}, "also run the probes after these steps").min(0);
  s.integer("log_every", 0, "also record train.loss every this many steps; 0 = at evaluations only").min(0);
  s.integer("loss_window", loss_window, "train.loss is the mean over this many last steps").min(1);
  s.boolean("check_gradient", false,
            "before the first update, check the model's gradient of the loss on the first batch against finite "
            "differences (every trainable block: random directions and single coordinates); a disagreement fails "
            "the job naming the block and coordinates");
  return s;
}

EvalSchedule::EvalSchedule(const Params& params)
    : eval_every_(params.integer("eval_every")),
      log_every_(params.integer("log_every")),
      loss_window_(params.integer("loss_window")),
      check_gradient_(params.has("check_gradient") && params.boolean("check_gradient")) {
  for (auto step : params.integers("eval_at")) eval_at_.insert(step);
}

bool EvalSchedule::evaluates(Index done, Index total) const {
  return done == 0 || done == total || (eval_every_ > 0 && done % eval_every_ == 0) || eval_at_.count(done) > 0;
}

bool EvalSchedule::logs(Index done, Index total) const {
  return evaluates(done, total) || (log_every_ > 0 && done % log_every_ == 0);
}

}  // namespace featurelab
