// Shared by the libFuzzer targets: the input as a scratch file for loaders that read paths, and the
// rule every target enforces: bad input may only end in featurelab's own
// errors (which the command prints with the file, line and fix); any other exception, a crash or a
// sanitizer report is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace featurelab::fuzz {

// A per-process directory under /dev/shm (or the temp directory) for the input as a file.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path base = std::filesystem::exists("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    auto d = base / ("featurelab-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

inline std::filesystem::path write_input(const std::string& name, const std::uint8_t* data, std::size_t size) {
  const auto file = scratch_dir() / name;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return file;
}

}  // namespace featurelab::fuzz
