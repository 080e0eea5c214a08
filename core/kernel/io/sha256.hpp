// SHA-256 of a file's bytes (OpenSSL's EVP), in lowercase hex: the identity of a plugin build, or
// of a data file, that a run records and later compares.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace featurelab {

// A digest fed piece by piece: a job's metrics.jsonl hashed as its lines are written, so summary.json can
// record what the file must hold without reading it back.
class Sha256Stream {
 public:
  Sha256Stream();
  void update(std::string_view bytes);
  // The digest of everything fed so far, in lowercase hex; feeding may go on afterwards.
  std::string hex() const;

 private:
  struct Free {
    void operator()(evp_md_ctx_st* context) const;
  };
  std::unique_ptr<evp_md_ctx_st, Free> context_;
};

// Hashes what an open descriptor holds, from offset 0 to its end, with pread: the descriptor's
// offset is left where it was, so the caller can go on using it (load it, read it). `name` is the
// file's path, for messages. Throws featurelab::Error naming the file when it cannot be read.
std::string sha256_of_descriptor(int fd, const std::string& name);

// Opens and hashes the file. Throws featurelab::Error naming the file when it cannot be read.
std::string sha256_of_file(const std::filesystem::path& file);

}  // namespace featurelab
