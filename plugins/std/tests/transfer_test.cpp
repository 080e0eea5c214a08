// The pieces of the pretraining-then-transfer study (Shi 2024 ch. 7): mnist-fashion-transfer's disjoint parts (on
// digit files written by the test and Debian's Fashion-MNIST), few-label-probe (perfect on separable features, chance
// on features that carry no label), contrastive-views (its window, its views fixed per step, its refusals) and the
// pretrain-finetune trainer's two phases.
#include "std_harness.hpp"

#include <featurelab/fake_trainer_host.hpp>
#include <featurelab/regularizer.hpp>
#include <featurelab/trainer.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

using namespace featurelab;
using std_test::harness;

namespace {

// Ten digit files of `per_digit` images; image i of digit d lights pixel d of row 0 (1) and pixel i of row 1 (0.5):
// every image differs, and its digit is linear in its pixels.
std::filesystem::path write_transfer_digits(const std::string& tag, int per_digit) {
  const auto dir = std::filesystem::temp_directory_path() / ("fl-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "src" / "digits");
  for (int d = 0; d < 10; ++d) {
    std::ofstream f(dir / "src" / "digits" / (std::to_string(d) + ".json"));
    f << "{\"data\": [";
    for (int i = 0; i < per_digit; ++i) {
      for (int k = 0; k < 784; ++k) f << (i || k ? "," : "") << (k == d ? 1.0 : k == 28 + i ? 0.5 : 0.0);
    }
    f << "]}";
  }
  return dir;
}

std_test::Overrides transfer(const std::filesystem::path& digits, std::map<std::string, Value> extra = {}) {
  std_test::Overrides o{{"mnist_dir", digits.string()}, {"pool", std::int64_t(12)}, {"labels_per_class", std::int64_t(2)},
              {"test_images", std::int64_t(20)}};
  for (auto& [k, v] : extra) o[k] = v;
  return o;
}

// Rows as strings, to count distinct images.
std::set<std::vector<float>> distinct_rows(const Mat& X) {
  std::set<std::vector<float>> rows;
  for (Index i = 0; i < X.rows(); ++i) rows.insert(std::vector<float>(X.row(i).data(), X.row(i).data() + X.cols()));
  return rows;
}

}  // namespace

TEST_CASE("mnist-fashion-transfer: disjoint test, labelled and pool parts, splits of the target") {
  const auto dir = write_transfer_digits("transfer", 10);  // 100 digits: 20 test, 20 labelled, 12 pool, 48 unused
  auto both = harness().make<Distribution>("mnist-fashion-transfer",
                                           transfer(dir, {{"pretrain", std::vector<std::string>{"fashion", "mnist"}}}), {});
  const FeatureSet f = both->features();
  CHECK(f.at("pretrain_inputs").rows() == 24);  // 12 Fashion-MNIST images, then 12 digits
  CHECK(f.at("pretrain_inputs").cols() == 784);
  for (const std::string task : {"mnist", "fashion"}) {
    const Mat& labels = f.at(task + "_labelled_labels");
    REQUIRE(labels.cols() == 20);
    for (Index i = 0; i < 20; ++i) CHECK(labels(0, i) == static_cast<Scalar>(i / 2));  // two of each class, sorted
    CHECK(f.at(task + "_labelled_inputs").rows() == 20);
    CHECK(f.at(task + "_test_inputs").rows() == 20);
    CHECK(f.at(task + "_test_labels").cols() == 20);
    CHECK(f.at(task + "_test_inputs").maxCoeff() <= 1);  // both in [0, 1]
    CHECK(f.at(task + "_test_inputs").minCoeff() >= 0);
  }
  // The digits written are all distinct: test, labelled and pool share none.
  const auto test = distinct_rows(f.at("mnist_test_inputs")), labelled = distinct_rows(f.at("mnist_labelled_inputs"));
  const auto pool = distinct_rows(f.at("pretrain_inputs").bottomRows(12));
  std::set<std::vector<float>> all = test;
  all.insert(labelled.begin(), labelled.end());
  all.insert(pool.begin(), pool.end());
  CHECK(all.size() == 52);
  // Every labelled digit's label is the one its pixels say (pixel d of row 0).
  const Mat& lx = f.at("mnist_labelled_inputs");
  for (Index i = 0; i < 20; ++i) CHECK(lx(i, static_cast<Index>(f.at("mnist_labelled_labels")(0, i))) == 1);

  CHECK(both->available(Split::Train) == 20);
  CHECK(both->available(Split::Test) == 20);
  Dataset train;
  Rng rng(2);
  both->sample(20, Split::Train, rng, train);
  CHECK(distinct_rows(train.X) == labelled);
  CHECK_THROWS_WITH(both->sample(21, Split::Train, rng, train), Catch::Contains("has 20 images, asked for 21"));

  auto digits_only = harness().make<Distribution>("mnist-fashion-transfer", transfer(dir), {});
  CHECK(digits_only->features().at("pretrain_inputs").rows() == 12);
  CHECK_THROWS_WITH(harness().make<Distribution>("mnist-fashion-transfer", transfer(dir, {{"pool", std::int64_t(70)}}), {}),
                    Catch::Contains("too few for labels_per_class = 2 and pool = 70"));
  CHECK_THROWS_WITH(harness().make<Distribution>("mnist-fashion-transfer",
                                                 transfer(dir, {{"pretrain", std::vector<std::string>{"cifar"}}}), {}),
                    Catch::Contains("the datasets are \"mnist\" and \"fashion\""));
  CHECK_THROWS_WITH(harness().make<Distribution>("mnist-fashion-transfer",
                                                 transfer(dir, {{"pretrain", std::vector<std::string>{}}}), {}),
                    Catch::Contains("pretrain is empty"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("few-label-probe: perfect on features that separate the classes, chance on features without the label") {
  const auto dir = write_transfer_digits("probe", 10);
  auto data = harness().make<Distribution>("mnist-fashion-transfer", transfer(dir), {});
  const FeatureSet f = data->features();
  DataSpec spec = data->spec();
  // A wide random two-layer net: its pre-activations W x are an injective linear map of the digit's pixels.
  auto model = harness().make<Model>("two-layer", {{"width", std::int64_t(64)}, {"second_layer", std::string("trainable")}}, spec);
  Rng init(3);
  model->init(init);
  auto loss = harness().make<Loss>("cross-entropy", {}, spec);
  auto probe = harness().make<Probe>("few-label-probe", {{"hook", std::string("hidden.pre")}}, spec);
  Dataset none;
  std::vector<NamedAttack> attacks;
  Measurements out;
  probe->measure({*model, *loss, none, none, f, attacks, 0}, out);
  REQUIRE(out.scalars().size() == 1);
  CHECK(out.scalars()[0].first == "accuracy");
  CHECK(out.scalars()[0].second == 1.0);
  // The control: the digit pixel (row 0) blanked out of every image, the features hold no label.
  FeatureSet blind = f;
  for (const std::string part : {"mnist_labelled_inputs", "mnist_test_inputs"}) blind[part].leftCols(28).setZero();
  Measurements chance;
  probe->measure({*model, *loss, none, none, blind, attacks, 0}, chance);
  CHECK(chance.scalars()[0].second <= 0.35);
  auto lost = harness().make<Probe>("few-label-probe", {{"task", std::string("cifar")}}, spec);
  CHECK_THROWS_WITH(lost->measure({*model, *loss, none, none, f, attacks, 0}, out),
                    Catch::Contains("cifar_labelled_inputs"));

  // task = splits: the same images as the pipeline's own training and test splits, with their classes.
  auto as_split = [&](const FeatureSet& set, const std::string& task) {
    Dataset d;
    d.X = set.at(task + "_inputs");
    d.y = set.at(task + "_labels").row(0).transpose().cast<std::int32_t>();
    d.classes = 10;
    return d;
  };
  const Dataset train = as_split(f, "mnist_labelled"), test = as_split(f, "mnist_test");
  auto splits = harness().make<Probe>("few-label-probe", {{"task", std::string("splits")}, {"hook", std::string("hidden.pre")}}, spec);
  Measurements own;
  splits->measure({*model, *loss, train, test, FeatureSet{}, attacks, 0}, own);
  CHECK(own.scalars()[0].second == 1.0);
  const Dataset blind_train = as_split(blind, "mnist_labelled"), blind_test = as_split(blind, "mnist_test");
  Measurements own_chance;
  splits->measure({*model, *loss, blind_train, blind_test, FeatureSet{}, attacks, 0}, own_chance);
  CHECK(own_chance.scalars()[0].second <= 0.35);
  CHECK_THROWS_WITH(splits->measure({*model, *loss, train, none, FeatureSet{}, attacks, 0}, own),
                    Catch::Contains("set data.train and data.test"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("contrastive-views: on in its window only, the same views within a step, refusals") {
  DataSpec spec;
  spec.dim = 6;
  spec.classes = 2;
  auto model = harness().make<Model>("two-layer", {{"width", std::int64_t(8)}}, spec);
  Rng init(1);
  model->init(init);
  auto term = harness().make<Regularizer>(
      "contrastive-views", {{"hook", std::string("hidden.post")}, {"from", std::int64_t(2)}, {"until", std::int64_t(4)}},
      spec);
  term->bind(*model);
  Dataset data;
  data.resize(5, 6);
  Rng rng(4);
  rng.fill_normal(data.X);
  const Batch batch = Batch::of(data);
  Vec grad = Vec::Zero(model->trainable_size());
  CHECK(term->add_penalty(*model, batch, 1, grad) == 0);
  CHECK(term->add_penalty(*model, batch, 4, grad) == 0);
  CHECK(grad.isZero(0));
  const Scalar at2 = term->add_penalty(*model, batch, 2, grad);
  CHECK(at2 > 0);                                       // InfoNCE with 4 negatives: positive
  CHECK(term->penalty(*model, batch, 2) == at2);        // the same masks at the same step
  CHECK(term->penalty(*model, batch, 3) != at2);        // fresh masks at the next
  CHECK(!grad.isZero(0));
  CHECK_THROWS_WITH(harness().make<Regularizer>("contrastive-views", {{"from", std::int64_t(5)}, {"until", std::int64_t(5)}},
                                                spec),
                    Catch::Contains("is not after from = 5"));
  auto wrong_hook = harness().make<Regularizer>("contrastive-views", {}, spec);
  CHECK_THROWS_WITH(wrong_hook->bind(*model), Catch::Contains("it has: hidden.pre, hidden.post"));
}

namespace {

// A host whose regularize() runs one real regularizer, as a job's does.
class RegularizingHost : public testing::FakeTrainerHost {
 public:
  RegularizingHost(Trainer& trainer, Model& model, Loss& loss, Optimizer& optimizer, Distribution& distribution,
                   Dataset train, Regularizer& regularizer)
      : FakeTrainerHost(trainer, model, loss, optimizer, distribution, std::move(train)), regularizer_(regularizer) {}
  Scalar regularize(const Batch& batch, Index step, VecRef grad) override {
    steps_seen.push_back(step);
    return regularizer_.add_penalty(model(), batch, step, grad);
  }
  std::vector<Index> steps_seen;

 private:
  Regularizer& regularizer_;
};

}  // namespace

TEST_CASE("pretrain-finetune: the pool trains the features, then the labels the whole net, with probes at the boundary") {
  const auto dir = write_transfer_digits("pretrain", 10);
  auto data = harness().make<Distribution>("mnist-fashion-transfer", transfer(dir), {});
  const DataSpec spec = data->spec();
  Dataset train;
  Rng rng(1);
  data->sample(20, Split::Train, rng, train);
  auto model = harness().make<Model>("two-layer", {{"width", std::int64_t(16)}, {"second_layer", std::string("trainable")}}, spec);
  Rng init(2);
  model->init(init);
  auto loss = harness().make<Loss>("cross-entropy", {}, spec);
  auto adam = harness().make<Optimizer>("adam", {{"lr", 0.01}}, spec);
  auto term = harness().make<Regularizer>("contrastive-views", {{"hook", std::string("hidden.post")}, {"until", std::int64_t(4)}},
                                          spec);
  term->bind(*model);
  auto trainer = harness().make<Trainer>(
      "pretrain-finetune", {{"pretrain_steps", std::int64_t(4)}, {"pretrain_batch", std::int64_t(8)}, {"steps", std::int64_t(3)}},
      spec, 1);
  RegularizingHost host(*trainer, *model, *loss, *adam, *data, std::move(train), *term);
  const Vec before = model->parameters();
  host.run(rng);
  CHECK(host.done == 7);
  CHECK(host.evaluated == std::vector<Index>{0, 4, 7});
  CHECK(host.steps_seen == std::vector<Index>{0, 1, 2, 3, 4, 5, 6});
  const std::vector<double> losses = host.values("train.loss");
  REQUIRE(losses.size() == 2);  // at the evaluations after step 0
  CHECK(losses[0] > 0);          // the pretraining objective, a positive InfoNCE
  CHECK(!(model->parameters() - before).isZero(0));
  auto too_big = harness().make<Trainer>("pretrain-finetune", {{"pretrain_batch", std::int64_t(13)}}, spec, 1);
  Dataset train2;
  data->sample(20, Split::Train, rng, train2);
  RegularizingHost host2(*too_big, *model, *loss, *adam, *data, std::move(train2), *term);
  CHECK_THROWS_WITH(host2.run(rng), Catch::Contains("exceeds the pool's 12 images"));
  std::filesystem::remove_all(dir);
}
