#include "kernel/job/memory_budget.hpp"

#include <featurelab/types.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <sys/resource.h>
#include <unistd.h>

namespace featurelab {

double machine_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? double(pages) * double(page) : 0.0;
}

double process_memory_budget_bytes() {
  double budget = machine_memory_bytes();
  rlimit limit{};
  if (::getrlimit(RLIMIT_DATA, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const double data = static_cast<double>(limit.rlim_cur);
    budget = budget > 0 ? std::min(budget, data) : data;
  }
  return budget;
}

std::string dataset_memory_problem(double train, double test, double dim) {
  // The sample matrices alone, in doubles so that absurd sizes overflow nothing; labels, targets
  // and the model come on top, hence the 20 % margin.
  const double bytes = (train + test) * dim * double(sizeof(Scalar));
  const double machine = machine_memory_bytes();
  if (machine <= 0 || bytes <= 0.8 * machine) return {};
  constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
  return fmt::format("data: {:.0f} train + {:.0f} test samples of dimension {:.0f} need {:.1f} GiB for the samples "
                     "alone, the machine has {:.1f} GiB; lower data.train / data.test (or the dimension)",
                     train, test, dim, bytes / GiB, machine / GiB);
}

}  // namespace featurelab
