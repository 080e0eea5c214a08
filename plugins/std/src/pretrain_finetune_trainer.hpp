// Trainer `pretrain-finetune`: self-supervised pretraining, then fine-tuning on the labelled training split, in one
// job (the protocol of Shi's dissertation, 2024, ch. 7: contrastive pretraining on an unlabelled pool, then a
// predictor learned from few labels, with or without Eq. 7.9's contrastive regularization).
//   pretraining  steps [0, pretrain_steps): minibatches of pretrain_batch rows of the distribution's feature
//                `pretrain_inputs` (the unlabelled pool, n_pool×D, reshuffled every epoch); the objective is the
//                pipeline's [[regularizer]]s alone (e.g. contrastive-views with until = pretrain_steps): the pool
//                has no labels for the loss.
//   fine-tuning  steps [pretrain_steps, pretrain_steps + steps): the loss on the training split (batch rows, 0 =
//                all of it) plus the regularizers active then (contrastive-views with from = pretrain_steps is
//                Eq. 7.9), after the optimizer is reset (a fresh fine-tuning optimizer, as a separate run would
//                start one).
// The probes run at step 0, at the end of pretraining (linear probes of the pretrained features), on the schedule
// and at the end; train.loss is the pretraining objective, then the fine-tuning loss (its window restarts).
#pragma once

#include <featurelab/batch_sampler.hpp>
#include <featurelab/contract.hpp>
#include <featurelab/trainer.hpp>

#include <map>
#include <string>

namespace featurelab::std_pack {

class PretrainFinetuneTrainer : public Trainer {
 public:
  static constexpr Doc kDoc =
      "Pretraining on the unlabelled pool (feature pretrain_inputs) by the [[regularizer]]s alone, then fine-tuning "
      "on the training split with loss + regularizers (Shi 2024 ch. 7: contrastive pretraining, fine-tuning with "
      "Eq. 7.9's contrastive regularization); probes also at the end of pretraining.";
  static Schema schema();
  static std::map<std::string, Value> test_params() {
    return {{"pretrain_steps", std::int64_t(3)}, {"pretrain_batch", std::int64_t(8)}, {"steps", std::int64_t(3)}};
  }
  // The pool comes from the transfer distribution (MNIST digits and Fashion-MNIST images).
  static ContractData contract_data() {
    return {{"mnist-fashion-transfer", {{"pool", std::int64_t(20)}, {"labels_per_class", std::int64_t(2)},
                                        {"test_images", std::int64_t(20)}}},
            {},
            {"two-layer", {{"width", std::int64_t(8)}, {"second_layer", std::string("trainable")}}}};
  }
  PretrainFinetuneTrainer(const Params& params, Context& context);

  Index total_steps() const override { return pretrain_steps_ + steps_; }
  bool applies_regularizers() const override { return true; }
  void train(TrainerHost& host, Rng& rng) override;
  std::string divergence_hint() const override {
    return "lower optimizer.lr, or the contrastive term's temperature if it is small";
  }

 private:
  // Pretraining's next minibatch of the pool, gathered into pool_batch_.
  Batch next_pool_batch(const Mat& pool, Rng& rng);

  spdlog::logger* log_;
  Index pretrain_steps_, pretrain_batch_, steps_, batch_;
  std::string pool_feature_;
  BatchSampler batches_;
  std::vector<Index> pool_order_;
  Index pool_cursor_ = -1;
  Dataset pool_batch_;
  Vec grad_;
};

}  // namespace featurelab::std_pack
