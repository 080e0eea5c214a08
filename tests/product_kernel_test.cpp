// featurelab/product_kernel.hpp: which kernel runs the blocked products, why, and that the choice takes effect:
// both kernels compute the products, and round them differently (so a run must not mix them).
#include "execution/run_builds.hpp"
#include "random_matrices.hpp"

#include <featurelab/core/errors.hpp>

#include <featurelab/error.hpp>
#include <featurelab/parallel_product.hpp>
#include <featurelab/product_kernel.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include <unistd.h>

using namespace featurelab;

using featurelab::testing_inputs::random_matrix;

TEST_CASE("product kernel: the process's kernel is named, and why") {
  const ProductKernel kernel = product_kernel();
  const std::string name = product_kernel_name(kernel);
  CHECK((name == "eigen" || name == "blis-serial"));
  CHECK(product_kernel_available(kernel));
  CHECK_FALSE(product_kernel_reason().empty());
  CHECK(product_kernel_available(ProductKernel::eigen));
}

TEST_CASE("product kernel: names, and the refusals") {
  CHECK(parse_product_kernel("eigen", "here") == ProductKernel::eigen);
  CHECK(parse_product_kernel("blis", "here") == ProductKernel::blis);
  CHECK(parse_product_kernel("blis-serial", "here") == ProductKernel::blis);
  CHECK_THROWS_WITH(parse_product_kernel("mkl", "FEATURELAB_PRODUCT_KERNEL"),
                    Catch::Contains("FEATURELAB_PRODUCT_KERNEL") && Catch::Contains("\"mkl\"") &&
                        Catch::Contains("eigen or blis"));
  ::setenv("FEATURELAB_PRODUCT_KERNEL", "mkl", 1);
  CHECK_THROWS_WITH(check_product_kernel_environment(), Catch::Contains("\"mkl\" is no product kernel"));
  ::unsetenv("FEATURELAB_PRODUCT_KERNEL");
  CHECK_NOTHROW(check_product_kernel_environment());
  if (!product_kernel_available(ProductKernel::blis)) {
    CHECK_THROWS_WITH(set_product_kernel(ProductKernel::blis, "test"), Catch::Contains("-DFEATURELAB_BLAS=blis"));
    ::setenv("FEATURELAB_PRODUCT_KERNEL", "blis", 1);
    CHECK_THROWS_WITH(check_product_kernel_environment(), Catch::Contains("this build has no BLIS"));
    ::unsetenv("FEATURELAB_PRODUCT_KERNEL");
  }
}

TEST_CASE("product kernel: set for this process, and it takes effect") {
  ::unsetenv("FEATURELAB_PRODUCT_KERNEL");
  const ProductKernel before = product_kernel();
  // A shape BLIS takes in both layouts (parallel_product.hpp's blas_block): Z = X·Wᵀ and ∇W = Gᵀ·X.
  const Mat X = random_matrix(600, 500, 1), W = random_matrix(300, 500, 2), G = random_matrix(600, 300, 3);
  const auto products = [&] {
    Mat Z(600, 300), dW(300, 500);
    parallel_product_rows(Z, X, W.transpose());
    parallel_product_cols(dW, G.transpose(), X);
    return std::make_pair(Z, dW);
  };
  set_product_kernel(ProductKernel::eigen, "test");
  CHECK(product_kernel() == ProductKernel::eigen);
  CHECK(product_kernel_reason() == "test");
  CHECK(std::getenv("FEATURELAB_PRODUCT_KERNEL") == nullptr);  // the user's variable, never this process's
  const auto eigen = products();
  if (product_kernel_available(ProductKernel::blis)) {
    set_product_kernel(ProductKernel::blis, "test");
    const auto blis = products();
    const double scale = 500.0 * X.cwiseAbs().maxCoeff() * W.cwiseAbs().maxCoeff();
    CHECK((blis.first - eigen.first).cwiseAbs().maxCoeff() / scale < (kDouble ? 1e-13 : 1e-5));
    CHECK((blis.second - eigen.second).cwiseAbs().maxCoeff() / scale < (kDouble ? 1e-13 : 1e-5));
    // Other roundings: the switch reached the products (with Eigen's kernel in both, this fails).
    CHECK(blis.first != eigen.first);
    CHECK(blis.second != eigen.second);
  }
  set_product_kernel(before, "test");
}

// A process that takes up several runs (a Python session, a host of one's own) follows each run's record, and only
// the user's FEATURELAB_PRODUCT_KERNEL refuses one.
TEST_CASE("product kernel: each run taken up uses its recorded kernel, and the user's variable refuses another") {
  ::unsetenv("FEATURELAB_PRODUCT_KERNEL");
  const ProductKernel before = product_kernel();
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("product-kernel-test-" + std::to_string(::getpid()));
  const auto run_recording = [&](const std::string& name, const std::string& kernel) {
    fs::create_directories(root / name);
    std::ofstream(root / name / "manifest.json") << R"({"packs": [], "product_kernel": {"kernel": ")" << kernel << R"(", "why": "test"}})";
    return root / name;
  };
  const fs::path eigen_run = run_recording("eigen", "eigen"), blis_run = run_recording("blis", "blis-serial");
  const fs::path old_run = root / "old";
  fs::create_directories(old_run);
  std::ofstream(old_run / "manifest.json") << R"({"packs": []})";

  use_recorded_product_kernel(eigen_run);
  CHECK(product_kernel() == ProductKernel::eigen);
  CHECK_THAT(product_kernel_reason(), Catch::Contains("the run's") && Catch::Contains("manifest.json"));
  use_recorded_product_kernel(old_run);  // recorded by an earlier version: nothing changes
  CHECK(product_kernel() == ProductKernel::eigen);
  if (product_kernel_available(ProductKernel::blis)) {
    use_recorded_product_kernel(blis_run);
    CHECK(product_kernel() == ProductKernel::blis);
    use_recorded_product_kernel(eigen_run);
    CHECK(product_kernel() == ProductKernel::eigen);
    ::setenv("FEATURELAB_PRODUCT_KERNEL", "eigen", 1);
    CHECK_THROWS_AS(use_recorded_product_kernel(blis_run), ConfigError);
    ::unsetenv("FEATURELAB_PRODUCT_KERNEL");
  } else {
    CHECK_THROWS_AS(use_recorded_product_kernel(blis_run), ConfigError);
  }
  set_product_kernel(before, "test");
  fs::remove_all(root);
}
