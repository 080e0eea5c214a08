// Temporary file + flush + rename: rename(2) replaces the target atomically on POSIX.
#include "io/atomic_file.hpp"

#include <featurelab/error.hpp>

#include <fstream>

namespace featurelab {

void write_file_atomically(const std::filesystem::path& file, const std::string& text) {
  const std::filesystem::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::out | std::ios::trunc | std::ios::binary);
    if (!out) throw Error(file.string() + ": cannot write (" + tmp.string() + ")");
    out << text;
    out.flush();
    if (!out) throw Error(file.string() + ": write failed (disk full?)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) throw Error(file.string() + ": cannot replace it: " + ec.message());
}

}  // namespace featurelab
