// Which kernel computes the blocks of the blocked products (parallel_product.hpp) in this process.
//
// A build linked with Debian's serial BLIS (-DFEATURELAB_BLAS=auto, the default, links it where it is installed;
// -DFEATURELAB_BLAS=blis requires it) chooses when the process first multiplies: BLIS where BLIS has kernels of its
// own for this CPU (its detection, bli_arch_query_id: zen3, haswell, skx, …; 1.2–1.8× Eigen's product at the
// packs' large shapes), Eigen's where BLIS would fall back to its generic kernel (4× slower than Eigen's on a
// Zen 5: bench/README.md, rounds 5 and 23). -DFEATURELAB_BLAS=blis always takes BLIS, a build without BLIS always
// Eigen. The environment variable FEATURELAB_PRODUCT_KERNEL = eigen | blis overrides the choice.
//
// The two kernels round differently, so the choice is part of what a job computed: the run records it
// (manifest.json, and each job's provenance), and a run taken up again, a job of a prepared run or `featurelab
// eval` use the recorded kernel (one run never mixes two). Which blocks BLIS takes is decided by their shape
// alone (parallel_product.hpp): the bits never depend on the thread count.
#pragma once

#include <string>

namespace featurelab {

enum class ProductKernel { eigen, blis };

// This process's kernel: set_product_kernel's, else FEATURELAB_PRODUCT_KERNEL's, else the build's choice above.
// Decided once, never throws (it is asked inside parallel regions): an unusable FEATURELAB_PRODUCT_KERNEL is
// reported by check_product_kernel_environment, which a command calls first.
ProductKernel product_kernel();

// "eigen" or "blis-serial" (the build fingerprint's names).
const char* product_kernel_name(ProductKernel kernel);
// Why this process runs its kernel, for the records: "BLIS has kernels for this CPU (zen3)", ….
std::string product_kernel_reason();
// Whether this build can run `kernel` (BLIS: linked).
bool product_kernel_available(ProductKernel kernel);

// Throws featurelab::Error when FEATURELAB_PRODUCT_KERNEL names no kernel, or one this build cannot run.
void check_product_kernel_environment();

// Sets this process's kernel (the workers it forks inherit it); `why` is recorded. Throws featurelab::Error for a
// kernel this build cannot run. Call it before the products it should reach.
void set_product_kernel(ProductKernel kernel, const std::string& why);

// The kernel a name ("eigen", "blis" or "blis-serial") stands for; throws featurelab::Error for any other.
ProductKernel parse_product_kernel(const std::string& name, const std::string& where);

}  // namespace featurelab
