#include <featurelab/data_files.hpp>

#include <algorithm>
#include <mutex>

namespace featurelab {

namespace {

std::mutex& files_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<std::filesystem::path>& files() {
  static std::vector<std::filesystem::path> noted;
  return noted;
}

}  // namespace

void note_data_file(const std::filesystem::path& file) {
  std::error_code ignored;
  const std::filesystem::path absolute = std::filesystem::absolute(file, ignored).lexically_normal();
  const std::lock_guard<std::mutex> lock(files_mutex());
  if (std::find(files().begin(), files().end(), absolute) == files().end()) files().push_back(absolute);
}

std::vector<std::filesystem::path> noted_data_files() {
  const std::lock_guard<std::mutex> lock(files_mutex());
  return files();
}

}  // namespace featurelab
