#include <featurelab/core/launcher_rank.hpp>

#include <cstdlib>

namespace featurelab {

namespace {

std::optional<std::size_t> count_from(const char* variable) {
  const char* text = std::getenv(variable);
  if (text == nullptr || *text == '\0') return std::nullopt;
  const std::string value(text);
  if (value.size() > 9 || value.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return static_cast<std::size_t>(std::stoul(value));
}

}  // namespace

std::optional<LauncherRank> launcher_rank() {
  static const char* const kPairs[][2] = {
      {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, {"PMI_RANK", "PMI_SIZE"}, {"SLURM_PROCID", "SLURM_NTASKS"}};
  for (const auto& pair : kPairs) {
    const auto rank = count_from(pair[0]);
    const auto size = count_from(pair[1]);
    if (rank && size && *size > 0 && *rank < *size) return LauncherRank{*rank, *size, std::string(pair[0]) + "/" + pair[1]};
  }
  return std::nullopt;
}

std::vector<std::size_t> share_of(const std::vector<std::size_t>& indices, const LauncherRank& rank) {
  std::vector<std::size_t> share;
  for (std::size_t i = rank.rank; i < indices.size(); i += rank.size) share.push_back(indices[i]);
  return share;
}

}  // namespace featurelab
