// PackBuilder::add refuses a name registered twice in one pack, in one kind or across kinds: a
// pipeline's use = "name" and a probe's metric prefix must mean one component.
#include <featurelab/pack.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;

namespace {

class Weights : public Probe {
 public:
  Weights(const Params&, Context&) {}
  void measure(const ProbeInput&, Measurements&) override {}
};

class OtherWeights : public Probe {
 public:
  OtherWeights(const Params&, Context&) {}
  void measure(const ProbeInput&, Measurements&) override {}
};

class WeightsModel : public Model {
 public:
  WeightsModel(const Params&, Context&) {}
  Index outputs() const override { return 1; }
  void init(Rng&) override {}
  void forward(ConstMatRef, MatRef) override {}
  void backward(ConstMatRef, ConstMatRef, VecRef) override {}
};

}  // namespace

TEST_CASE("a pack registering one name twice in one kind is refused at registration") {
  PackBuilder pack;
  pack.add<Weights>("feature-weights", "", Schema{});
  CHECK_THROWS_WITH(pack.add<OtherWeights>("feature-weights", "", Schema{}),
                    "the pack registers the name 'feature-weights' twice (as a probe and as a probe); a name means one "
                    "component in a pack, whatever its kind: rename one of them in the pack's "
                    "pack.add<...>(\"feature-weights\", ...) calls");
  CHECK(pack.components().size() == 1);
}

TEST_CASE("a pack registering one name in two kinds is refused at registration") {
  PackBuilder pack;
  pack.add<WeightsModel>("feature-weights", "", Schema{});
  CHECK_THROWS_WITH(pack.add<Weights>("feature-weights", "", Schema{}),
                    Catch::Contains("registers the name 'feature-weights' twice (as a model and as a probe)"));
  CHECK_NOTHROW(pack.add<Weights>("learned-feature-weights", "", Schema{}));
  CHECK(pack.components().size() == 2);
  CHECK(pack.components().back().interface_id == Probe::interface_id);
}
