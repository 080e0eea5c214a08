// One EVP digest context per stream; files fed in blocks of 1 MiB.
#include "kernel/io/sha256.hpp"

#include <featurelab/error.hpp>

#include <openssl/evp.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace featurelab {

void Sha256Stream::Free::operator()(evp_md_ctx_st* context) const { EVP_MD_CTX_free(context); }

Sha256Stream::Sha256Stream() : context_(EVP_MD_CTX_new()) {
  if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1) {
    throw Error("cannot hash: OpenSSL's SHA-256 is unavailable");
  }
}

void Sha256Stream::update(std::string_view bytes) {
  if (!bytes.empty()) EVP_DigestUpdate(context_.get(), bytes.data(), bytes.size());
}

std::string Sha256Stream::hex() const {
  // Finished on a copy, so the stream can be fed on.
  const std::unique_ptr<EVP_MD_CTX, Free> copy(EVP_MD_CTX_new());
  if (!copy || EVP_MD_CTX_copy_ex(copy.get(), context_.get()) != 1) throw Error("cannot hash: out of memory in OpenSSL");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(copy.get(), digest, &size);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xf];
  }
  return hex;
}

std::string sha256_of_descriptor(int fd, const std::string& name) {
  Sha256Stream digest;
  std::vector<char> block(std::size_t(1) << 20);
  off_t offset = 0;
  for (;;) {
    const ssize_t n = ::pread(fd, block.data(), block.size(), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(name + ": cannot read it to hash it: " + std::strerror(errno));
    if (n == 0) break;
    digest.update({block.data(), static_cast<std::size_t>(n)});
    offset += n;
  }
  return digest.hex();
}

std::string sha256_of_file(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(file.string() + ": cannot open it to hash it: " + std::strerror(errno));
  try {
    std::string hex = sha256_of_descriptor(fd, file.string());
    ::close(fd);
    return hex;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

}  // namespace featurelab
