// The header of a NumPy .npy file (format 1.0): a Python dict literal of exactly the keys 'descr', 'fortran_order'
// and 'shape', each once, as NumPy's own reader (numpy.lib.format, read_array_header) accepts it: values read whole,
// never matched as substrings (a string value that merely contains "'descr': '<f4'" is not a descr).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace featurelab {

struct NpyHeader {
  std::string descr;                 // e.g. "<f4"
  bool fortran_order = false;
  std::vector<long long> shape;      // (50, 2) → {50, 2}; () → {}
};

// Parses the dict (trailing spaces and the final newline allowed). Throws Error saying what is wrong.
NpyHeader parse_npy_header(std::string_view dict);

}  // namespace featurelab
