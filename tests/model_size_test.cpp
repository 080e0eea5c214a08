// A model's parameter layout refuses sizes whose count or bytes overflow, before allocating: an
// overflowed rows × cols (width 2^62 with dimension 3) once allocated a small θ that the model then
// wrote far past (a segmentation fault in the plugin).
#include <featurelab/error.hpp>
#include <featurelab/model.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

using namespace featurelab;

namespace {

// Declares the blocks it is given, as a model's constructor does.
class BlocksOfSize : public Model {
 public:
  explicit BlocksOfSize(const std::vector<std::pair<Index, Index>>& shapes) {
    char name[] = "A";
    for (const auto& [rows, cols] : shapes) {
      declare_block(name, rows, cols, true);
      ++name[0];
    }
    allocate_parameters();
  }
  Index outputs() const override { return 1; }
  void init(Rng&) override {}
  void forward(ConstMatRef, MatRef) override {}
  void backward(ConstMatRef, ConstMatRef, VecRef) override {}
};

constexpr Index kTwoTo62 = Index{1} << 62;
constexpr Index kTwoTo61 = Index{1} << 61;

}  // namespace

TEST_CASE("a block whose rows times cols overflows is refused naming the block and its shape") {
  CHECK_THROWS_AS(BlocksOfSize({{kTwoTo62, 3}}), Error);
  CHECK_THROWS_WITH(BlocksOfSize({{kTwoTo62, 3}}),
                    Catch::Contains("block 'A' of 4611686018427387904 × 3 parameters overflows the largest parameter "
                                    "count") &&
                        Catch::Contains("reduce its size"));
  // Every pair that once crashed the std two-layer model: the product overflows, or its bytes do.
  for (auto [rows, cols] : {std::pair{kTwoTo62, Index{2}}, std::pair{Index{6148914691236517206}, Index{2}},
                            std::pair{Index{3074457345618258603}, Index{5}}, std::pair{kTwoTo61, Index{7}},
                            std::pair{kTwoTo61, Index{3}}}) {
    CHECK_THROWS_WITH(BlocksOfSize({{rows, cols}}), Catch::Contains("overflows the largest parameter count"));
  }
  CHECK_THROWS_WITH(BlocksOfSize({{-1, 3}}), Catch::Contains("negative size"));
}

TEST_CASE("blocks that fit alone but not together are refused before anything is allocated") {
  const Index half = std::numeric_limits<Index>::max() / static_cast<Index>(sizeof(Scalar)) / 2 + 1;
  CHECK_THROWS_WITH(BlocksOfSize({{half, 1}, {half, 1}}),
                    Catch::Contains("its blocks hold more parameters than the largest parameter count") &&
                        Catch::Contains("block 'B'"));
}

TEST_CASE("ordinary blocks are laid out as before") {
  BlocksOfSize model({{3, 4}, {1, 5}});
  CHECK(model.parameters().size() == 17);
  CHECK(model.trainable_size() == 17);
  REQUIRE(model.find_block("B"));
  CHECK(model.find_block("B")->offset == 12);
}
