// conv2d's kernels for 8 output channels (two positions, or two taps, a register: correlate_paired and
// add_tap_gradients_paired) give the bits of the general kernels (correlate, add_tap_gradients) at the shapes
// conv-net meets (its first convolution, its second's input gradient) and at the edges: an odd last position, a
// filter row with an odd number of taps, strides, more pairs than one tile. Where the paired kernels are not
// compiled (no AVX-512, or double) they are the general ones and this checks nothing new.
#include "../src/layers/conv2d_kernels.hpp"

#include <featurelab/rng.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

using namespace featurelab;
namespace kernels = featurelab::std_pack::conv2d_kernels;

namespace {

std::vector<Scalar> normal_values(Index count, std::uint64_t seed) {
  Mat m(1, count);
  Rng rng(seed);
  rng.fill_normal(m);
  return {m.data(), m.data() + count};
}

bool same_bits(const std::vector<Scalar>& a, const std::vector<Scalar>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Scalar)) == 0;
}

struct Shape {
  Index channels, kernel, stride, padded_height, padded_width;
};

kernels::Geometry geometry(const Shape& s) {
  return {s.channels,
          s.kernel,
          s.stride,
          s.padded_width * s.channels,
          (s.padded_height - s.kernel) / s.stride + 1,
          (s.padded_width - s.kernel) / s.stride + 1};
}

}  // namespace

TEST_CASE("conv2d kernels: 8 channels two positions or two taps a register give the general kernels' bits") {
  const Shape shapes[] = {
      {2, 3, 1, 30, 30},   // conv-net's first convolution (2×28×28, same padding)
      {16, 3, 1, 18, 18},  // its second's input gradient: the spread 16-channel gradient
      {1, 3, 1, 30, 30},   // filter rows of 3 taps: a tap left over from the pairs
      {3, 5, 2, 17, 15},   // stride 2, an odd output width (an odd last position)
      {4, 3, 1, 34, 34},   // 32 positions a row: more pairs than one tile
  };
  for (const Shape& shape : shapes) {
    const kernels::Geometry g = geometry(shape);
    CAPTURE(shape.channels, shape.kernel, shape.stride, g.out_height, g.out_width);
    const Index values = shape.padded_height * shape.padded_width * shape.channels, taps = g.kernel * g.run();
    const Index positions = g.out_height * g.out_width;
    const std::vector<Scalar> image = normal_values(values, 1), T = normal_values(taps * 8, 2), bias = normal_values(8, 3);
    const std::vector<Scalar> G = normal_values(positions * 8, 4), start = normal_values(taps * 8, 5);

    std::vector<Scalar> dup(2 * values), T2(taps * 16), bias2(16), G2(positions * 16);
    kernels::pair_up(image.data(), values, g.step(), dup.data());
    kernels::twice(T.data(), taps, T2.data());
    kernels::twice(bias.data(), 1, bias2.data());
    kernels::twice(G.data(), positions, G2.data());

    std::vector<Scalar> general(positions * 8), paired(positions * 8);
    kernels::correlate(image.data(), g, T.data(), 8, bias.data(), general.data(), 8);
    kernels::correlate_paired(image.data(), dup.data(), g, T.data(), T2.data(), bias.data(), bias2.data(), paired.data());
    CHECK(same_bits(paired, general));
    kernels::correlate(image.data(), g, T.data(), 8, nullptr, general.data(), 8);
    kernels::correlate_paired(image.data(), dup.data(), g, T.data(), T2.data(), nullptr, nullptr, paired.data());
    CHECK(same_bits(paired, general));

    std::vector<Scalar> dT_general = start, dT_paired = start;
    kernels::add_tap_gradients(image.data(), g, G.data(), 8, dT_general.data());
    kernels::add_tap_gradients_paired(image.data(), g, G.data(), G2.data(), dT_paired.data());
    CHECK(same_bits(dT_paired, dT_general));
  }
}

TEST_CASE("conv2d kernels: the bias gradient's sums inside the filter gradient's tiles give add_column_sums' bits") {
  // Output channels: a half register, two half registers' worth, one strip, two strips, two strips and one, and
  // 8 (the paired kernel); filter rows shorter than a tile (the sums alone) and longer.
  const Index outputs[] = {3, 8, 16, 24, 32, 40};
  const Shape shapes[] = {{1, 3, 1, 12, 12}, {8, 3, 1, 16, 16}, {16, 5, 2, 17, 15}};
  for (const Shape& shape : shapes) {
    for (const Index cols : outputs) {
      const kernels::Geometry g = geometry(shape);
      CAPTURE(shape.channels, shape.kernel, shape.stride, cols);
      const Index width = kernels::strip_width(cols), positions = g.out_height * g.out_width;
      const Index values = shape.padded_height * shape.padded_width * shape.channels, taps = g.kernel * g.run();
      const std::vector<Scalar> image = normal_values(values, 11), start = normal_values(taps * width, 12);
      std::vector<Scalar> G = normal_values(positions * width, 13);
      for (Index p = 0; p < positions; ++p) std::fill(G.begin() + p * width + cols, G.begin() + (p + 1) * width, Scalar(0));
      const std::vector<Scalar> sums_start = normal_values(width, 14);

      std::vector<Scalar> dT_alone = start, sums_alone = sums_start;
      kernels::add_tap_gradients(image.data(), g, G.data(), cols, dT_alone.data());
      kernels::add_column_sums(G.data(), positions, cols, sums_alone.data());
      std::vector<Scalar> dT_fused = start, sums_fused = sums_start;
      kernels::add_tap_gradients(image.data(), g, G.data(), cols, dT_fused.data(), sums_fused.data());
      CHECK(same_bits(dT_fused, dT_alone));
      CHECK(same_bits(sums_fused, sums_alone));
      CHECK_FALSE(same_bits(sums_fused, sums_start));  // the sums were added at all

      if (cols != 8) continue;
      std::vector<Scalar> G2(positions * 16);
      kernels::twice(G.data(), positions, G2.data());
      std::vector<Scalar> dT_paired = start, sums_paired = sums_start;
      kernels::add_tap_gradients_paired(image.data(), g, G.data(), G2.data(), dT_paired.data(), sums_paired.data());
      CHECK(same_bits(dT_paired, dT_alone));
      CHECK(same_bits(sums_paired, sums_alone));
    }
  }
}

TEST_CASE("conv2d kernels: tiles with the input step as a constant give the runtime step's bits") {
  // Input steps 8, 16 and 32 (the constants) at stride 1, and 16 as stride 2 × 8 channels.
  const Shape shapes[] = {{8, 3, 1, 16, 16}, {16, 3, 1, 18, 18}, {32, 3, 1, 9, 9}, {8, 3, 2, 17, 17}};
  for (const Shape& shape : shapes) {
    for (const Index cols : {Index(8), Index(16), Index(40)}) {
      const kernels::Geometry g = geometry(shape);
      CAPTURE(shape.channels, shape.stride, cols);
      const Index width = kernels::strip_width(cols), positions = g.out_height * g.out_width, taps = g.kernel * g.run();
      const Index values = shape.padded_height * shape.padded_width * shape.channels;
      const std::vector<Scalar> image = normal_values(values, 21), T = normal_values(taps * width, 22), bias = normal_values(width, 23);
      std::vector<Scalar> constant(positions * cols), runtime(positions * cols);
      kernels::correlate(image.data(), g, T.data(), cols, bias.data(), constant.data(), cols);
      if (kernels::lanes_for(cols) == std_pack::kLanes) {
        kernels::detail::correlate_lanes_stepped<std_pack::kLanes, 0>(image.data(), g, T.data(), cols, bias.data(), runtime.data(), cols);
      } else {
        kernels::detail::correlate_lanes_stepped<std_pack::kHalfLanes, 0>(image.data(), g, T.data(), cols, bias.data(), runtime.data(),
                                                                         cols);
      }
      CHECK(same_bits(constant, runtime));
    }
  }
}
