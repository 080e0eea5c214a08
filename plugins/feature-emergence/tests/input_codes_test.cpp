// dictionary-patterns' input codes (X = codes·M, featurelab/dataset.hpp) and the two networks that multiply by
// them instead of X (CodedInputs): the same function as the direct products, to float rounding, on every path a
// job takes (the loss's forward and backward, the accuracy probe's forward, gathered minibatches).
#include <featurelab/batch_sampler.hpp>
#include <featurelab/capabilities.hpp>
#include <featurelab/fake_trainer_host.hpp>
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;

namespace {

testing::Harness& codes_pack() { return testing::pack(FEATURE_EMERGENCE_PLUGIN); }
testing::Harness& codes_std() { return testing::pack(FEATURELAB_STD_PLUGIN); }

Dataset coded_patterns(Index dim, Index n, std::shared_ptr<Distribution>& dist) {
  dist = codes_pack().make<Distribution>("dictionary-patterns", {{"dim", dim}, {"patterns", std::int64_t(10)}}, {});
  Dataset d;
  Rng rng(5);
  dist->sample(n, Split::Train, rng, d);
  return d;
}

// The batch without its codes: what every model saw before them.
Batch uncoded(Batch b) {
  b.codes = nullptr;
  b.code_basis = nullptr;
  return b;
}

double relative_difference(const Mat& a, const Mat& b) { return double((a - b).norm() / std::max(b.norm(), Scalar(1e-30))); }

}  // namespace

TEST_CASE("dictionary-patterns: each split carries its codes, X = codes·M, and a resize drops them") {
  std::shared_ptr<Distribution> dist;
  Dataset d = coded_patterns(60, 200, dist);
  REQUIRE(d.has_codes());
  CHECK(d.codes.rows() == 200);
  CHECK(d.codes.cols() == 10);
  CHECK(*d.code_basis == dist->features().at("dictionary"));
  CHECK((d.codes * *d.code_basis - d.X).cwiseAbs().maxCoeff() < Scalar(1e-5));
  const Batch rows = Batch::rows(d, 7, 20);  // a block of rows: their codes
  REQUIRE(rows.has_codes());
  CHECK(Mat(rows.Codes()) == d.codes.middleRows(7, 20));
  d.resize(200, 60);
  CHECK_FALSE(d.has_codes());
  CHECK_FALSE(Batch::of(d).has_codes());
}

TEST_CASE("a shuffled minibatch gathers each row's codes with the row") {
  std::shared_ptr<Distribution> dist;
  Dataset d = coded_patterns(60, 100, dist);
  auto model = codes_pack().make<Model>("truncated-two-layer", {{"width", std::int64_t(8)}}, dist->spec());
  auto loss = codes_std().make<Loss>("hinge", {}, dist->spec());
  auto optimizer = codes_std().make<Optimizer>("gd", {}, dist->spec());
  auto trainer = codes_pack().make<Trainer>("phased-gd", {{"phase_steps", std::vector<std::int64_t>{1}}}, dist->spec());
  testing::FakeTrainerHost host(*trainer, *model, *loss, *optimizer, *dist, d);
  BatchSampler sampler;
  Rng rng(3);
  for (int step = 0; step < 3; ++step) {
    const Batch b = sampler.next(host, 30, false, true, rng);
    REQUIRE(b.has_codes());
    CHECK(b.code_basis == host.train_data().code_basis.get());
    CHECK((Mat(b.Codes()) * *b.code_basis - Mat(b.X())).cwiseAbs().maxCoeff() < Scalar(1e-5));
  }
}

TEST_CASE("truncated-two-layer and ntk-two-layer through input codes equal their direct products") {
  std::shared_ptr<Distribution> dist;
  const Dataset d = coded_patterns(60, 96, dist);  // D = 10 codes for d = 60: the codes pay
  const Batch coded = Batch::of(d);
  REQUIRE(coded.codes_pay());
  auto loss = codes_std().make<Loss>("logistic", {}, dist->spec());
  for (const std::string name : {"truncated-two-layer", "ntk-two-layer"}) {
    INFO(name);
    auto model = codes_pack().make<Model>(name, {{"width", std::int64_t(16)}, {"init_w", 2.0}, {"smoothing", 0.1}},
                                    dist->spec());
    Rng rng(4);
    model->init(rng);
    model->parameters().head(model->trainable_size()).setRandom();
    model->parameters().head(model->trainable_size()) *= Scalar(0.3);
    auto* codes = dynamic_cast<CodedInputs*>(model.get());
    REQUIRE(codes != nullptr);

    Mat out_direct(d.size(), 1), out_coded(d.size(), 1);
    model->forward(d.X, out_direct);
    REQUIRE(codes->forward_coded(coded, out_coded));
    CHECK(relative_difference(out_coded, out_direct) < 1e-5);
    CHECK(out_coded != out_direct);  // other products (else this test would not see the coded path)

    const Index p = model->trainable_size();
    Vec grad_direct = Vec::Zero(model->parameters().size()), grad_coded = grad_direct;
    const Scalar value_direct = loss->evaluate_with_gradient(*model, uncoded(coded), grad_direct);
    const Scalar value_coded = loss->evaluate_with_gradient(*model, coded, grad_coded);
    CHECK(value_coded == Approx(value_direct).epsilon(1e-5));
    CHECK(relative_difference(grad_coded.head(p), grad_direct.head(p)) < 1e-5);

    Mat out_dispatched(d.size(), 1);  // the accuracy probe's path
    forward_batch(*model, coded, out_dispatched);
    CHECK(out_dispatched == out_coded);
  }
}

TEST_CASE("where the codes do not pay (D = d), the networks take the direct products, bit for bit") {
  std::shared_ptr<Distribution> dist;
  const Dataset d = coded_patterns(10, 64, dist);  // D = d = 10
  const Batch coded = Batch::of(d);
  REQUIRE(coded.has_codes());
  REQUIRE_FALSE(coded.codes_pay());
  auto model = codes_pack().make<Model>("truncated-two-layer", {{"width", std::int64_t(16)}}, dist->spec());
  Rng rng(4);
  model->init(rng);
  Mat out(d.size(), 1), out_direct(d.size(), 1);
  CHECK_FALSE(dynamic_cast<CodedInputs&>(*model).forward_coded(coded, out));
  forward_batch(*model, coded, out);
  model->forward(d.X, out_direct);
  CHECK(out == out_direct);
}
