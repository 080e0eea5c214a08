// IDX reading through zlib's gz* interface, which also reads uncompressed files transparently.
#include "idx_file.hpp"

#include <featurelab/data_files.hpp>
#include <featurelab/error.hpp>

#include <zlib.h>

#include <algorithm>
#include <memory>

namespace featurelab::std_pack {

IdxArray read_idx(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file)) throw Error(file.string() + ": no such file");
  std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(file.c_str(), "rb"), gzclose);
  if (!in) throw Error(file.string() + ": cannot open");
  note_data_file(file);  // its sha256 goes into the job's summary.json
  // Reads size bytes; `before` and `expected` place them in the whole section for the message.
  auto read_exact = [&](void* buffer, std::size_t size, const char* what, std::uint64_t before = 0, std::uint64_t expected = 0) {
    std::size_t done = 0;
    while (done < size) {
      const auto chunk = static_cast<unsigned>(std::min<std::size_t>(size - done, 1u << 30));
      const int got = gzread(in.get(), static_cast<char*>(buffer) + done, chunk);
      if (got <= 0) {
        throw Error(file.string() + ": truncated or corrupt " + what + " (read " + std::to_string(before + done) + " of " +
                    std::to_string(expected > 0 ? expected : size) + " bytes); reinstall the data set");
      }
      done += static_cast<std::size_t>(got);
    }
  };
  std::uint8_t magic[4];
  read_exact(magic, 4, "header");
  if (magic[0] != 0 || magic[1] != 0) throw Error(file.string() + ": not an IDX file (bad magic number)");
  if (magic[2] != 0x08) {
    throw Error(file.string() + ": IDX element type " + std::to_string(magic[2]) + ", only unsigned bytes (8) are read");
  }
  if (magic[3] == 0 || magic[3] > 4) throw Error(file.string() + ": IDX with " + std::to_string(magic[3]) + " dimensions");
  IdxArray array;
  std::uint64_t total = 1;
  for (int d = 0; d < magic[3]; ++d) {
    std::uint8_t b[4];
    read_exact(b, 4, "header");
    const std::uint32_t size = (std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) | (std::uint32_t(b[2]) << 8) | b[3];
    array.dims.push_back(size);
    total *= size;
    if (total > (std::uint64_t(1) << 34)) throw Error(file.string() + ": IDX sizes claim more than 16 GiB of data");
  }
  // Grown as the data arrives, never sized from the header alone: a corrupt header that claims
  // gigabytes must end in "truncated", not in an allocation the machine cannot make. Chunks double
  // from 64 KiB to 16 MiB, so a short file with a lying header costs little either.
  std::uint64_t chunk = std::uint64_t(1) << 16;
  for (std::uint64_t have = 0; have < total; chunk = std::min(2 * chunk, std::uint64_t(1) << 24)) {
    const std::uint64_t next = std::min(total, have + chunk);
    array.data.resize(static_cast<std::size_t>(next));
    read_exact(array.data.data() + have, static_cast<std::size_t>(next - have), "data", have, total);
    have = next;
  }
  std::uint8_t extra;
  if (gzread(in.get(), &extra, 1) > 0) throw Error(file.string() + ": more data than the IDX header declares");
  return array;
}

}  // namespace featurelab::std_pack
