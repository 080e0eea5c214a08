#include <featurelab/product_kernel.hpp>

#include <featurelab/error.hpp>

#include <atomic>
#include <cstdlib>
#include <mutex>

#ifdef FEATURELAB_BLIS
// BLIS's own detection of the CPU (libblis.so.4; Debian ships no header): the sub-configuration whose
// kernels it runs, "generic" where it has none for this CPU. arch_t is an enum, passed as an int.
extern "C" {
int bli_arch_query_id(void);
const char* bli_arch_string(int id);
}
#endif

namespace featurelab {

namespace {

constexpr const char* kVariable = "FEATURELAB_PRODUCT_KERNEL";

// −1 until decided, then the ProductKernel; read without the lock on every product.
std::atomic<int> decided{-1};
std::mutex deciding;
std::string reason;  // guarded by `deciding`, written once with `decided`

struct Choice {
  ProductKernel kernel;
  std::string why;
};

Choice build_choice() {
#if defined(FEATURELAB_BLIS) && defined(FEATURELAB_PRODUCT_KERNEL_BLIS)
  return {ProductKernel::blis, "the build's (-DFEATURELAB_BLAS=blis)"};
#elif defined(FEATURELAB_BLIS)
  const std::string arch = bli_arch_string(bli_arch_query_id());
  if (arch != "generic") return {ProductKernel::blis, "BLIS has kernels for this CPU (" + arch + ")"};
  return {ProductKernel::eigen, "BLIS has no kernels for this CPU (its generic ones are slower than Eigen's)"};
#else
  return {ProductKernel::eigen, "the build has no BLIS (-DFEATURELAB_BLAS=eigen, or libblis4-serial was not installed)"};
#endif
}

// The kernel FEATURELAB_PRODUCT_KERNEL asks for, or the problem with it; neither when it is unset.
struct Requested {
  bool set = false;
  ProductKernel kernel = ProductKernel::eigen;
  std::string problem;
};

Requested requested() {
  Requested r;
  const char* value = std::getenv(kVariable);
  if (!value || !*value) return r;
  r.set = true;
  try {
    r.kernel = parse_product_kernel(value, kVariable);
  } catch (const Error& e) {
    r.problem = e.what();
    return r;
  }
  if (!product_kernel_available(r.kernel)) {
    r.problem = std::string(kVariable) + "=" + value +
                ": this build has no BLIS (built with -DFEATURELAB_BLAS=eigen, or without libblis4-serial installed); "
                "unset it, or build with -DFEATURELAB_BLAS=blis";
  }
  return r;
}

}  // namespace

ProductKernel parse_product_kernel(const std::string& name, const std::string& where) {
  if (name == "eigen") return ProductKernel::eigen;
  if (name == "blis" || name == "blis-serial") return ProductKernel::blis;
  throw Error(where + ": \"" + name + "\" is no product kernel; use eigen or blis");
}

const char* product_kernel_name(ProductKernel kernel) { return kernel == ProductKernel::blis ? "blis-serial" : "eigen"; }

bool product_kernel_available(ProductKernel kernel) {
#ifdef FEATURELAB_BLIS
  (void)kernel;
  return true;
#else
  return kernel == ProductKernel::eigen;
#endif
}

ProductKernel product_kernel() {
  const int known = decided.load(std::memory_order_acquire);
  if (known >= 0) return static_cast<ProductKernel>(known);
  const std::lock_guard<std::mutex> lock(deciding);
  if (decided.load(std::memory_order_relaxed) >= 0) return static_cast<ProductKernel>(decided.load(std::memory_order_relaxed));
  const Requested r = requested();
  Choice choice = build_choice();
  if (r.set && r.problem.empty()) {
    choice = {r.kernel, std::string(kVariable) + "=" + std::getenv(kVariable)};
  } else if (r.set) {
    choice.why += " (" + r.problem + ": ignored)";
  }
  reason = choice.why;
  decided.store(static_cast<int>(choice.kernel), std::memory_order_release);
  return choice.kernel;
}

std::string product_kernel_reason() {
  product_kernel();
  const std::lock_guard<std::mutex> lock(deciding);
  return reason;
}

void check_product_kernel_environment() {
  const Requested r = requested();
  if (!r.problem.empty()) throw Error(r.problem);
}

void set_product_kernel(ProductKernel kernel, const std::string& why) {
  if (!product_kernel_available(kernel)) {
    throw Error(std::string("the product kernel ") + product_kernel_name(kernel) +
                " is not in this build (built with -DFEATURELAB_BLAS=eigen, or without libblis4-serial installed); " +
                "build with -DFEATURELAB_BLAS=blis, or use a build that has it");
  }
  const std::lock_guard<std::mutex> lock(deciding);
  reason = why;
  decided.store(static_cast<int>(kernel), std::memory_order_release);
}

}  // namespace featurelab
