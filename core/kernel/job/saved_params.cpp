#include "kernel/job/saved_params.hpp"

#include <featurelab/core/errors.hpp>
#include "kernel/io/atomic_file.hpp"
#include "kernel/io/bounded_read.hpp"
#include "kernel/io/npy_header.hpp"
#include "kernel/io/sha256.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

// NumPy's descr of this build's scalar: little-endian float32 or float64.
constexpr const char* kDescr = sizeof(Scalar) == 4 ? "<f4" : "<f8";
constexpr char kMagic[] = "\x93NUMPY";

std::string npy_file(ConstMatMap block) {
  // Header: magic, version 1.0, a little-endian uint16 length, then a Python dict padded with spaces and
  // ended by '\n' so that the data starts at a multiple of 64 bytes (the .npy format's own rule).
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}, {}), }}", kDescr, block.rows(), block.cols());
  const std::size_t unpadded = 6 + 2 + 2 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string file(kMagic, 6);
  file += '\x01';
  file += '\x00';
  file += static_cast<char>(dict.size() & 0xff);
  file += static_cast<char>((dict.size() >> 8) & 0xff);
  file += dict;
  file.append(reinterpret_cast<const char*>(block.data()), sizeof(Scalar) * static_cast<std::size_t>(block.size()));
  return file;
}

// The rows × cols values of a .npy written as above; throws Error saying what does not match.
std::string npy_values(const std::string& bytes, const fs::path& file, Index rows, Index cols) {
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0) throw Error(file.string() + ": not a NumPy .npy file");
  if (bytes[6] != '\x01') throw Error(file.string() + ": .npy format version " + std::to_string(int(bytes[6])) + ", not 1");
  const std::size_t header = static_cast<unsigned char>(bytes[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
  if (bytes.size() < 10 + header) throw Error(file.string() + ": truncated .npy header");
  NpyHeader parsed;
  try {
    parsed = parse_npy_header(std::string_view(bytes).substr(10, header));
  } catch (const Error& e) {
    throw Error(file.string() + ": " + e.what());
  }
  if (parsed.descr != kDescr) {
    throw Error(file.string() + ": holds other numbers than this build's " + (sizeof(Scalar) == 4 ? "float32" : "float64") +
                " ('descr': '" + parsed.descr + "', not '" + kDescr + "'); evaluate with the build that saved it");
  }
  if (parsed.fortran_order) throw Error(file.string() + ": stored column-major");
  if (parsed.shape != std::vector<long long>{rows, cols}) {
    std::string shape;
    for (const long long d : parsed.shape) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
    throw Error(file.string() + ": shape (" + shape + "), but the model's block is " + std::to_string(rows) + " × " +
                std::to_string(cols) + " (another model or width than the job's?)");
  }
  const std::size_t expected = sizeof(Scalar) * static_cast<std::size_t>(rows * cols);
  if (bytes.size() - 10 - header != expected) {
    throw Error(file.string() + ": " + std::to_string(bytes.size() - 10 - header) + " bytes of values, " + std::to_string(expected) + " expected");
  }
  return bytes.substr(10 + header);
}

}  // namespace

std::string SaveParams::text() const {
  if (!enabled) return "";
  return every > 0 ? "every:" + std::to_string(every) : "final";
}

SaveParams parse_save_params(const std::string& text, const std::string& where) {
  SaveParams s;
  if (text == "final") {
    s.enabled = true;
    return s;
  }
  const std::string prefix = "every:";
  if (text.rfind(prefix, 0) == 0) {
    const std::string n = text.substr(prefix.size());
    if (!n.empty() && n.size() < 12 && n.find_first_not_of("0123456789") == std::string::npos && std::stoll(n) > 0) {
      s.enabled = true;
      s.every = static_cast<Index>(std::stoll(n));
      return s;
    }
  }
  throw ConfigError({{where, "'" + text + "': give final (the last step's parameters) or every:N (every evaluation step "
                             "that is a multiple of N, and the last)"}});
}

std::string saved_step_dir(Index step) { return fmt::format("step{:06d}", step); }

std::map<std::string, std::string> save_parameter_blocks(const Model& model, const fs::path& dir) {
  fs::create_directories(dir);
  std::map<std::string, std::string> hashes;
  for (const ParamBlock& b : model.blocks()) {
    const fs::path file = dir / (b.name + ".npy");
    write_file_atomically(file, npy_file(model.block(b.name)));
    hashes[(dir.filename() / file.filename()).string()] = sha256_of_file(file);
  }
  return hashes;
}

void load_parameter_blocks(Model& model, const fs::path& dir, const std::map<std::string, std::string>& hashes) {
  std::vector<std::pair<std::string, std::string>> values;  // checked first, all of them, then copied in
  for (const ParamBlock& b : model.blocks()) {
    const fs::path file = dir / (b.name + ".npy");
    const std::string key = (dir.filename() / file.filename()).string();
    const auto recorded = hashes.find(key);
    if (recorded == hashes.end()) {
      throw Error(file.string() + ": the job's summary.json records no saved block '" + b.name + "' at this step (saved with --save-params?)");
    }
    if (!fs::exists(file)) throw Error(file.string() + ": missing (the job's summary.json records it)");
    // Read once, whole, only as a regular file of at most what the block can take: a FIFO (which would block) or a
    // link to /dev/zero (which never ends) is refused before a byte is read. The bound: the values in doubles (the
    // widest dtype read) after the longest header of format 1.0 (a 10-byte preamble and 65,535 bytes).
    const auto block = model.block(b.name);
    const auto max_bytes = static_cast<std::uintmax_t>(block.size()) * sizeof(double) + 10 + 65535;
    std::string bytes;
    try {
      bytes = read_bounded_file(file, max_bytes);
    } catch (const Error& e) {
      throw Error(file.string() + ": " + e.what());
    }
    Sha256Stream digest;
    digest.update(bytes);
    if (const std::string actual = digest.hex(); actual != recorded->second) {
      throw Error(file.string() + ": its sha256 is " + actual + ", not the " + recorded->second +
                  " the job recorded: the file was changed or corrupted since");
    }
    std::string numbers = npy_values(bytes, file, block.rows(), block.cols());
    // A job saves only parameters it trained without diverging (a non-finite value stops it first): NaN or an
    // infinity here was put there afterwards, and what the probes measured on it would mean nothing.
    std::size_t non_finite = 0;
    for (std::size_t at = 0; at < numbers.size(); at += sizeof(Scalar)) {
      Scalar value;
      std::memcpy(&value, numbers.data() + at, sizeof(Scalar));
      non_finite += std::isfinite(value) ? 0 : 1;
    }
    if (non_finite > 0) {
      throw Error(fmt::format("{}: {} of its {} values are NaN or infinite; a job saves no such parameters (it stops "
                              "when a value stops being finite), so the file was changed since",
                              file.string(), non_finite, numbers.size() / sizeof(Scalar)));
    }
    values.emplace_back(b.name, std::move(numbers));
  }
  for (const auto& [name, bytes] : values) {
    auto block = model.block(name);
    std::memcpy(block.data(), bytes.data(), bytes.size());
  }
}

std::map<std::string, std::string> recorded_saved_params(const fs::path& job_dir) {
  const fs::path file = job_dir / "summary.json";
  std::ifstream in(file);
  const auto summary = nlohmann::json::parse(in, nullptr, false);
  if (!summary.is_object() || !summary.contains("saved_params")) return {};
  const auto& saved = summary.at("saved_params");
  if (!saved.is_object()) throw Error(file.string() + ": saved_params is not a table of files and their sha256");
  std::map<std::string, std::string> files;
  for (auto it = saved.begin(); it != saved.end(); ++it) {
    const std::string& key = it.key();
    const auto slash = key.find('/');
    const bool well_formed = it.value().is_string() && key.rfind("step", 0) == 0 && slash != std::string::npos && slash > 4 &&
                             slash <= 16 && key.find_first_not_of("0123456789", 4) == slash;
    if (!well_formed) {
      throw Error(file.string() + ": saved_params entry '" + key + "' is not \"step<N>/<block>.npy\": sha256");
    }
    files[key] = it.value().get<std::string>();
  }
  return files;
}

std::set<Index> saved_steps(const std::map<std::string, std::string>& files) {
  std::set<Index> steps;
  for (const auto& [file, hash] : files) steps.insert(std::stoll(file.substr(4, file.find('/') - 4)));
  return steps;
}

std::string saved_steps_text(const std::set<Index>& steps) {
  std::string text;
  for (const Index s : steps) text += (text.empty() ? "" : ", ") + std::to_string(s);
  return text;
}

}  // namespace featurelab
