#include "parity_setting.hpp"

#include <featurelab/error.hpp>

namespace featurelab::fourier_icl_pack {

ParitySetting parity_setting(const ProbeInput& in, const std::string& who) {
  constexpr const char* kFix = "use data.use = \"icl-sparse-parity\", which exposes it";
  ParitySetting s;
  const Mat& setting = require_feature(in.features, who, "setting", kFix, 1, 4);
  s.d = static_cast<Index>(setting(0, 0));
  s.k = static_cast<Index>(setting(0, 1));
  s.gamma = setting(0, 2);
  s.p_task = setting(0, 3);
  s.G = require_feature(in.features, who, "dictionary", kFix).cast<double>().transpose();
  return s;
}

}  // namespace featurelab::fourier_icl_pack
