#include "condition_number.hpp"
#include "least_squares.hpp"
#include "prompt_layout.hpp"

#include <featurelab/error.hpp>

namespace featurelab::representation_theory_pack {

void ConditionNumber::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const auto prompts = read_prompts(in.test, who, false);
  if (prompts.empty()) throw Error(who + " measures the test prompts; set data.test >= 1");
  const auto count = static_cast<Index>(prompts.size());
  Table table;
  table.values.resize(count, 3);
  table.col_names = {"kappa", "lambda_min", "lambda_max"};
  for (Index s = 0; s < count; ++s) {
    const GramSpectrum spectrum = gram_spectrum(prompts[static_cast<std::size_t>(s)].X());
    table.values.row(s) << spectrum.kappa(), spectrum.lambda_min, spectrum.lambda_max;
    table.row_names.push_back("prompt " + std::to_string(s));
  }
  out.scalar("kappa", table.values.col(0).mean());
  out.scalar("kappa_min", table.values.col(0).minCoeff());
  out.scalar("kappa_max", table.values.col(0).maxCoeff());
  out.scalar("lambda_min", table.values.col(1).mean());
  out.scalar("lambda_max", table.values.col(2).mean());
  out.table("kappa", std::move(table));
}

}  // namespace featurelab::representation_theory_pack
