// Reading IDX files (the MNIST / Fashion-MNIST format), gzip-compressed or plain: a big-endian
// header (two zero bytes, a type byte 0x08 = unsigned byte, the number of dimensions) followed by
// one 32-bit big-endian size per dimension and the data.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace featurelab::std_pack {

struct IdxArray {
  std::vector<std::uint32_t> dims;  // e.g. {60000, 28, 28}
  std::vector<std::uint8_t> data;   // product of dims bytes
};

// Throws featurelab::Error naming the file and the defect (missing, truncated, wrong magic, wrong
// element type, sizes that disagree with the data).
IdxArray read_idx(const std::filesystem::path& file);

}  // namespace featurelab::std_pack
