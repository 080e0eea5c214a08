// The rotation (inverse mapping with bilinear interpolation) and the domains by angle.
#include "rotated_mnist_distribution.hpp"

#include <cmath>

namespace featurelab::std_pack {

namespace {

constexpr Index kSide = 28;

DataSpec rotated_spec() {
  DataSpec s;
  s.dim = kSide * kSide;
  s.classes = 10;
  s.shape.dims = {1, kSide, kSide};
  s.meta = {"domain", "digit"};
  return s;
}

// img (28×28, row-major) rotated counter-clockwise by `degrees` about its centre into out, bilinear, zeros where
// the source falls outside the image.
void rotate_digit(const Scalar* img, double degrees, Scalar* out) {
  // Output pixel (x, y), y down, offset (u, v) from the centre c = 13.5, reads the source at the offset rotated
  // back: a counter-clockwise turn on screen maps (u, v) to (u cos θ + v sin θ, −u sin θ + v cos θ).
  const double theta = degrees * M_PI / 180, c = std::cos(theta), s = std::sin(theta);
  const double centre = (kSide - 1) / 2.0;
  auto pixel = [&](Index x, Index y) -> double {
    return x < 0 || y < 0 || x >= kSide || y >= kSide ? 0.0 : double(img[y * kSide + x]);
  };
  for (Index y = 0; y < kSide; ++y) {
    for (Index x = 0; x < kSide; ++x) {
      const double u = double(x) - centre, v = double(y) - centre;
      const double sx = centre + u * c - v * s, sy = centre + u * s + v * c;
      const double fx = std::floor(sx), fy = std::floor(sy), ax = sx - fx, ay = sy - fy;
      const auto x0 = static_cast<Index>(fx), y0 = static_cast<Index>(fy);
      const double value = (1 - ay) * ((1 - ax) * pixel(x0, y0) + ax * pixel(x0 + 1, y0)) +
                           ay * ((1 - ax) * pixel(x0, y0 + 1) + ax * pixel(x0 + 1, y0 + 1));
      out[y * kSide + x] = static_cast<Scalar>(value);
    }
  }
}

}  // namespace

Schema RotatedMnistDistribution::schema() {
  Schema s;
  add_common_params(s);
  s.reals("angles", {0, 15, 30, 45, 60, 75}, "the domains' rotation angles in degrees (DomainBed's six)").non_empty();
  return s;
}

double RotatedMnistDistribution::dimension(const Params&) { return kSide * kSide; }

RotatedMnistDistribution::RotatedMnistDistribution(const Params& params, Context& context)
    : MnistDomainsDistribution(params, context, static_cast<Index>(params.reals("angles").size()), rotated_spec(),
                               [angles = params.reals("angles")](const Rendered& in, Rng&, Scalar* row,
                                                                 std::int32_t& label) {
                                 rotate_digit(in.pixels, angles[static_cast<std::size_t>(in.domain)], row);
                                 label = in.digit;
                               }) {}

}  // namespace featurelab::std_pack
