// What the parity probes read from the icl-sparse-parity distribution's features: the dictionary G (columns:
// features), d, k, the bias γ and the rate p_T of S_2 tasks in the pretraining prompts.
#pragma once

#include <featurelab/probe.hpp>

#include <string>

namespace featurelab::fourier_icl_pack {

struct ParitySetting {
  featurelab::MatD G;  // columns: features
  featurelab::Index d = 0, k = 0;
  double gamma = 0;
  double p_task = 0;
};
// Reads features "setting" and "dictionary"; throws naming `who` when the data is not icl-sparse-parity.
ParitySetting parity_setting(const featurelab::ProbeInput& in, const std::string& who);

}  // namespace featurelab::fourier_icl_pack
