// Fuzz target: an IDX file (Fashion-MNIST's format, plain or gzip) -> the array, or featurelab's
// error naming the defect.
#include "fuzz_common.hpp"

#include "idx_file.hpp"

#include <featurelab/error.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Both names: the loader decides by the content (gzip magic), the name must not matter.
  for (const char* name : {"images-idx3-ubyte", "images-idx3-ubyte.gz"}) {
    const auto file = featurelab::fuzz::write_input(name, data, size);
    try {
      (void)featurelab::std_pack::read_idx(file);
    } catch (const featurelab::Error&) {
    }
  }
  return 0;
}
