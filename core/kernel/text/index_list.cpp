#include <featurelab/core/index_list.hpp>

#include <featurelab/core/errors.hpp>

#include <algorithm>
#include <set>

namespace featurelab {

namespace {

bool parse_number(const std::string& text, std::size_t& out) {
  if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos) return false;
  out = std::stoull(text);
  return true;
}

}  // namespace

std::vector<std::size_t> parse_index_list(const std::string& text, std::size_t count, const std::string& where) {
  const auto refuse = [&](const std::string& why) -> ConfigError {
    return ConfigError({{where, "'" + text + "': " + why + "; write indices as 0-4,7,9-12 (this run's jobs are 0 to " +
                                    std::to_string(count == 0 ? 0 : count - 1) + ")"}});
  };
  std::vector<std::size_t> indices;
  std::set<std::size_t> seen;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, comma - start);
    const std::size_t dash = part.find('-');
    std::size_t first = 0, last = 0;
    if (dash == std::string::npos ? !parse_number(part, first)
                                  : !parse_number(part.substr(0, dash), first) || !parse_number(part.substr(dash + 1), last)) {
      throw refuse(part.empty() ? "an empty entry" : "'" + part + "' is not an index or a range A-B");
    }
    if (dash == std::string::npos) last = first;
    if (last < first) throw refuse("the range " + part + " runs backwards");
    if (last >= count) throw refuse("index " + std::to_string(last) + " is out of range");
    for (std::size_t i = first; i <= last; ++i) {
      if (seen.insert(i).second) indices.push_back(i);
    }
    start = comma + 1;
  }
  return indices;
}

std::string format_index_list(std::vector<std::size_t> indices) {
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  std::string out;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(indices[i]);
    if (j > i) out += "-" + std::to_string(indices[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace featurelab
