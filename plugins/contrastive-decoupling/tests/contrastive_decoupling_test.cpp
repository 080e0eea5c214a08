// The contrastive-decoupling pack on its own: see the test cases below.
#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;

TEST_CASE("contrastive-decoupling loads") {
  testing::Harness h(CONTRASTIVE_DECOUPLING_PLUGIN);
  SUCCEED();
}
