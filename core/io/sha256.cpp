// One EVP digest context per call, fed in blocks of 1 MiB.
#include "io/sha256.hpp"

#include <featurelab/error.hpp>

#include <openssl/evp.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <unistd.h>
#include <vector>

namespace featurelab {

std::string sha256_of_descriptor(int fd, const std::string& name) {
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1) {
    throw Error(name + ": cannot hash it: OpenSSL's SHA-256 is unavailable");
  }
  std::vector<unsigned char> block(std::size_t(1) << 20);
  off_t offset = 0;
  for (;;) {
    const ssize_t n = ::pread(fd, block.data(), block.size(), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(name + ": cannot read it to hash it: " + std::strerror(errno));
    if (n == 0) break;
    EVP_DigestUpdate(context.get(), block.data(), static_cast<std::size_t>(n));
    offset += n;
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(context.get(), digest, &size);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xf];
  }
  return hex;
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
