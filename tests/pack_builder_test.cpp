// PackBuilder::add refuses a name registered twice in one pack, in one kind or across kinds: a
// pipeline's use = "name" and a probe's metric prefix must mean one component. It collects what a
// component declares for the contract test (test_params(), contract_data()).
#include <featurelab/pack.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;

namespace {

class Weights : public Probe {
 public:
  static constexpr Doc kDoc = "The learned weights.";
  static Schema schema() { return {}; }
  Weights(const Params&, Context&) {}
  void measure(const ProbeInput&, Measurements&) override {}
};

class OtherWeights : public Probe {
 public:
  static constexpr Doc kDoc = "";
  static Schema schema() { return {}; }
  OtherWeights(const Params&, Context&) {}
  void measure(const ProbeInput&, Measurements&) override {}
};

// Declares what the contract test builds it with (tests/contract).
class CheckedWeights : public Weights {
 public:
  static std::map<std::string, Value> test_params() { return {{"tol", 0.5}}; }
  static ContractData contract_data() { return {{"xor-clusters", {{"dim", std::int64_t(4)}}}, {}, {"two-layer", {}}, {}}; }
  using Weights::Weights;
};

class WeightsModel : public Model {
 public:
  static constexpr Doc kDoc = "";
  static Schema schema() { return {}; }
  WeightsModel(const Params&, Context&) {}
  Index outputs() const override { return 1; }
  void init(Rng&) override {}
  void forward(ConstMatRef, MatRef) override {}
  void backward(ConstMatRef, ConstMatRef, VecRef) override {}
};

}  // namespace

TEST_CASE("a pack registering one name twice in one kind is refused at registration") {
  PackBuilder pack;
  pack.add<Weights>("feature-weights");
  CHECK_THROWS_WITH(pack.add<OtherWeights>("feature-weights"),
                    "the pack registers the name 'feature-weights' twice (as a probe and as a probe); a name means one "
                    "component in a pack, whatever its kind: rename one of them in the pack's "
                    "pack.add<...>(\"feature-weights\") calls");
  CHECK(pack.components().size() == 1);
}

TEST_CASE("a pack registering one name in two kinds is refused at registration") {
  PackBuilder pack;
  pack.add<WeightsModel>("feature-weights");
  CHECK_THROWS_WITH(pack.add<Weights>("feature-weights"),
                    Catch::Contains("registers the name 'feature-weights' twice (as a model and as a probe)"));
  CHECK_NOTHROW(pack.add<Weights>("learned-feature-weights"));
  CHECK(pack.components().size() == 2);
  CHECK(pack.components().back().interface_id == Probe::interface_id);
}

TEST_CASE("a component knows its registry name, and its registration its doc, schema and source file") {
  PackBuilder pack;
  pack.add<Weights>("learned-feature-weights");
  const ComponentInfo& info = pack.components().front();
  CHECK(info.doc == std::string(Weights::kDoc.text));
  CHECK_THAT(info.source, Catch::EndsWith("tests/pack_builder_test.cpp"));  // where its kDoc is written
  Context context;
  const auto made = info.create(Params{}, context);
  CHECK(context.name == "learned-feature-weights");  // what its constructor sees
  CHECK(made->name() == "learned-feature-weights");
}

TEST_CASE("a registration carries the contract test's parameters and companions where the component declares them") {
  PackBuilder pack;
  pack.add<Weights>("feature-weights");
  pack.add<CheckedWeights>("checked-weights");
  const ComponentInfo& plain = pack.components().front();
  CHECK(plain.test_params.empty());
  CHECK(plain.contract.distribution.use.empty());
  CHECK(plain.contract.model.use.empty());
  const ComponentInfo& checked = pack.components().back();
  CHECK(checked.test_params.at("tol") == Value(0.5));
  CHECK(checked.contract.distribution.use == "xor-clusters");
  CHECK(checked.contract.distribution.params.at("dim") == Value(std::int64_t(4)));
  CHECK(checked.contract.augment.use.empty());
  CHECK(checked.contract.model.use == "two-layer");
}
