// Label noise and colour flips drawn from the job's data stream, once per digit.
#include "colored_mnist_distribution.hpp"

#include <algorithm>

namespace featurelab::std_pack {

namespace {

constexpr Index kPixels = 28 * 28;

DataSpec colored_spec() {
  DataSpec s;
  s.dim = 2 * kPixels;
  s.classes = 2;
  s.shape.dims = {2, 28, 28};
  s.meta = {"domain", "digit"};
  return s;
}

}  // namespace

Schema ColoredMnistDistribution::schema() {
  Schema s;
  add_common_params(s);
  s.reals("color_flip", {0.1, 0.2, 0.9}, "each domain's probability e that the colour disagrees with the label "
                                        "(DomainBed's +90 %, +80 %, −90 %)").non_empty().range(0, 1);
  s.real("label_noise", 0.25, "the probability that the label disagrees with the digit's class (digit < 5)")
      .range(0, 1);
  return s;
}

double ColoredMnistDistribution::dimension(const Params&) { return 2 * kPixels; }

ColoredMnistDistribution::ColoredMnistDistribution(const Params& params, Context& context)
    : MnistDomainsDistribution(
          params, context, static_cast<Index>(params.reals("color_flip").size()), colored_spec(),
          [flips = params.reals("color_flip"), noise = params.real("label_noise")](
              const Rendered& in, Rng& rng, Scalar* row, std::int32_t& label) {
            label = (in.digit < 5) != rng.bernoulli(noise) ? 1 : 0;
            const int color = (label == 1) != rng.bernoulli(flips[static_cast<std::size_t>(in.domain)]) ? 1 : 0;
            std::fill(row, row + 2 * kPixels, Scalar(0));
            std::copy(in.pixels, in.pixels + kPixels, row + color * kPixels);
          }) {}

}  // namespace featurelab::std_pack
