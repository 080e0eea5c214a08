// Did-you-mean: the closest known name to a misspelt one.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace featurelab {

std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `wrong`, if it is close enough to be a plausible typo.
std::optional<std::string> closest_name(const std::string& wrong,
                                        const std::vector<std::string>& candidates);

}  // namespace featurelab
