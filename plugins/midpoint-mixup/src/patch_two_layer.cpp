// Patch CNN: Z = X_patches Wᵀ ((n·P)×(k·m)), one GEMM each way; the readout sums blocks.
#include "patch_two_layer.hpp"

#include "patch_products.hpp"

#include <featurelab/error.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/parallel_product.hpp>
#include <featurelab/threads.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::midpoint_mixup_pack {

namespace {
Params activation_params(const Params& params, int classes) {
  Params p;
  // The unclipped variant is the pack's own kernel (below); the built-in smoothed ReLU carries α and ρ.
  const std::string name = params.str("activation");
  p.set("activation", name == "smoothed-relu-unclipped" ? std::string("smoothed-relu") : name);
  p.set("leaky_slope", 0.0);
  p.set("smooth_alpha", params.real("alpha"));
  p.set("smooth_rho", params.real_or_auto("rho").value_or(1.0 / classes));
  p.set("power", std::int64_t(1));
  return p;
}
}  // namespace

Schema PatchTwoLayer::schema() {
  Schema s;
  s.integer("neurons", 10, "filters per class m").min(1);
  s.choice("activation", "smoothed-relu", {"smoothed-relu", "smoothed-relu-unclipped", "relu", "identity"},
           "ReLU~ (the paper's), ReLU~ without its zero branch (u^α/(α ρ^{α−1}) for every u < ρ: the authors' "
           "released PolyReLU, x²/(2ρ) > 0 for negative x at α = 2; integral α only), plain ReLU, or identity (with "
           "neurons = 1: the patch-sum linear classifier h^y(x) = Σ_p <w_y, x^(p)> of Prop. 4.4)");
  s.real("alpha", 8.0, "α: power of the smoothed ReLU's polynomial piece").min(2);
  s.real("rho", Automatic{"1/k"}, "ρ: where the smoothed ReLU turns linear").above(0);
  s.real("init_std", Automatic{"1/sqrt(d) (Xavier as stated: N(0, I/d)), or as init says"}, "std of the filters").above(0);
  s.choice("init", "paper", {"paper", "xavier-conv"},
           "paper: N(0, I/d) (or init_std); xavier-conv: std sqrt(2/(d + k·m·d)), torch's xavier_normal_ on the "
           "authors' (k·m)×1×h×h convolution weight (0.0497 at k = 3, m = 3, d = 81)");
  s.choice("patch_layout", "whole", {"whole", "strips"},
           "whole: each filter reads whole data patches (the paper's network); strips: the authors' released code, "
           "which reshapes a point's P patches of h×h (P = q², d = h²) in C order into one qh×qh image and reads it "
           "with an h×h convolution of stride h, so each filter sees h/q-row strips of q data patches");
  s.real("warm_start", 0.0, "A_total: set <w_{y,r}, v_{y,l}> = A_total/m for every class and filter (one "
                            "feature learned, the situation of Claims B.22-B.24); 0 = a plain random init").min(0);
  s.integer("warm_feature", 1, "l: the feature the warm start puts in").range(1, 2);
  return s;
}

PatchTwoLayer::PatchTwoLayer(const Params& params, Context& context)
    : activation_(activation_params(params, context.data.classes)),
      classes_(context.data.classes),
      neurons_(params.integer("neurons")),
      init_std_(params.real_or_auto("init_std")),
      xavier_conv_(params.str("init") == "xavier-conv"),
      warm_start_(params.real("warm_start")),
      warm_feature_(static_cast<int>(params.integer("warm_feature"))),
      features_(context.features) {
  if (context.data.shape.dims.size() != 2) {
    throw Error("patch-two-layer needs patch data (shape P×d, e.g. distribution multiview-patches); this data "
                "has no patch shape");
  }
  patches_ = context.data.shape.dims[0];
  dim_ = context.data.shape.dims[1];
  const auto& counts = context.data.shape.patch_counts;
  if (!counts.empty() && static_cast<Index>(counts.size()) != patches_) {
    throw Error("the data's patch counts name " + std::to_string(counts.size()) + " patches, its shape " +
                std::to_string(patches_) + " (a distribution bug)");
  }
  counts_.assign(counts.begin(), counts.end());
  if (xavier_conv_ && init_std_) {
    throw Error("init = \"xavier-conv\" sets the filters' std itself; drop init_std, or set init = \"paper\"");
  }
  if (params.str("activation") == "smoothed-relu-unclipped") {
    const double alpha = params.real("alpha");
    if (alpha != std::floor(alpha) || alpha > 17) {
      throw Error("activation = \"smoothed-relu-unclipped\" needs an integral alpha up to 17 (alpha = " +
                  std::to_string(alpha) + "): u^alpha of a negative u is not real otherwise");
    }
    unclipped_.emplace(static_cast<int>(alpha),
                       static_cast<Scalar>(params.real_or_auto("rho").value_or(1.0 / context.data.classes)));
  }
  if (params.str("patch_layout") == "strips") build_strip_layout();
  W_ = declare_block("W", classes_ * neurons_, dim_, true);
  allocate_parameters();
}

void PatchTwoLayer::build_strip_layout() {
  // The authors' point is an array of P patches of h×h, reshaped in C order to one S×S image (S = qh);
  // their convolution (kernel = stride = h) reads block (I, J) of it. Position (I·q + J)·d + ρ·h + c of
  // our patch-major row is image pixel (I·h + ρ, J·h + c), i.e. the data's flat index (I·h + ρ)·S + J·h + c.
  const auto root = [](Index v) {
    Index r = static_cast<Index>(std::lround(std::sqrt(static_cast<double>(v))));
    return r * r == v ? r : Index(0);
  };
  const Index q = root(patches_), h = root(dim_);
  if (q == 0 || h == 0) {
    throw Error("patch_layout = \"strips\" needs a square number of patches and a square patch dimension (the "
                "authors' image of q×q patches of h×h); this data has " + std::to_string(patches_) + " patches of " +
                std::to_string(dim_) + "; use patch_layout = \"whole\"");
  }
  if (!counts_.empty()) {
    throw Error("patch_layout = \"strips\" mixes patches, so a patch stored once with a count cannot stand for "
                "several: set the data's collapse_noise = false");
  }
  if (warm_start_ > 0) {
    throw Error("warm_start sets the filters along whole-patch features, which patch_layout = \"strips\" never "
                "shows them; use one or the other");
  }
  const Index S = q * h;
  strip_source_.resize(static_cast<std::size_t>(patches_ * dim_));
  for (Index I = 0; I < q; ++I) {
    for (Index J = 0; J < q; ++J) {
      for (Index row = 0; row < h; ++row) {
        for (Index col = 0; col < h; ++col) {
          strip_source_[static_cast<std::size_t>((I * q + J) * dim_ + row * h + col)] = (I * h + row) * S + J * h + col;
        }
      }
    }
  }
}

void PatchTwoLayer::init(Rng& rng) {
  MatMap W = block(W_);
  const double d = static_cast<double>(dim_), km = static_cast<double>(classes_ * neurons_);
  rng.fill_normal(W, init_std_ ? *init_std_ : xavier_conv_ ? std::sqrt(2.0 / (d + km * d)) : 1.0 / std::sqrt(d));
  if (warm_start_ <= 0) return;
  // The feature vectors v_{y,l}, 2k×d.
  const Mat& views = require_feature(features_, described() + " (warm_start > 0)", "views",
                                     "use a multi-view distribution (simple-multiview, multiview-patches)", 2 * classes_, dim_);
  // Each filter's component along v_{y,l} is set to A_total/m; the others stay random.
  const auto target = static_cast<Scalar>(warm_start_ / static_cast<double>(neurons_));
  for (Index y = 0; y < classes_; ++y) {
    const auto v = views.row(2 * y + warm_feature_ - 1);
    for (Index r = 0; r < neurons_; ++r) {
      auto w = W.row(y * neurons_ + r);
      w += (target - w.dot(v)) * v;
    }
  }
}

ConstMatMap PatchTwoLayer::patch_rows(ConstMatRef X) {
  if (!strip_source_.empty()) {  // gathered into the convolution's blocks
    packed_.resize(X.rows(), X.cols());
    parallel_over_chunks(X.rows(), [&](Index, Index first, Index last) {
      for (Index i = first; i < last; ++i) {
        for (std::size_t t = 0; t < strip_source_.size(); ++t) packed_(i, static_cast<Index>(t)) = X(i, strip_source_[t]);
      }
    });
    return ConstMatMap(packed_.data(), X.rows() * patches_, dim_);
  }
  if (X.outerStride() == X.cols()) return ConstMatMap(X.data(), X.rows() * patches_, dim_);
  packed_ = X;  // a strided view: pack it once
  return ConstMatMap(packed_.data(), X.rows() * patches_, dim_);
}

void PatchTwoLayer::forward(ConstMatRef X, MatRef out) {
  full_activations(X);
  readout(X.rows(), out);
}

void PatchTwoLayer::full_activations(ConstMatRef X) {
  const ConstMatMap Xp = patch_rows(X);
  Z_.resize(Xp.rows(), classes_ * neurons_);
  parallel_product_rows(Z_, Xp, block(W_).transpose());
  activations(Z_);
}

void PatchTwoLayer::activations(ConstMatRef Z) {
  H_.resize(Z.rows(), Z.cols());
  D_.resize(Z.rows(), Z.cols());
  parallel_over_chunks(Z.rows(), [&](Index, Index first, Index last) {
    apply_activation(Z.middleRows(first, last - first), H_.middleRows(first, last - first),
                     D_.middleRows(first, last - first));
    if (counts_.empty()) return;
    for (Index row = first; row < last; ++row) {  // row = sample·P + patch
      const Scalar c = count(row % patches_);
      H_.row(row) *= c;
      D_.row(row) *= c;
    }
  });
}

void PatchTwoLayer::apply_activation(ConstMatRef Z, MatRef H, MatRef D) const {
  if (!unclipped_) {
    activation_.apply(Z, H, D);
    return;
  }
  for (Index r = 0; r < Z.rows(); ++r) {
    for (Index c = 0; c < Z.cols(); ++c) {
      const activation_kernel::ValueSlope v = (*unclipped_)(Z(r, c));
      H(r, c) = v.value;
      D(r, c) = v.slope;
    }
  }
}

void PatchTwoLayer::size_chunk_filters() {
  chunk_filters_.resize(static_cast<std::size_t>(parallel_chunks));
  for (auto& v : chunk_filters_) v.resize(classes_ * neurons_);
}

void PatchTwoLayer::readout(Index n, MatRef out) {
  // Sum each sample's P patches (contiguous rows of km values: vectorised), then each class's m
  // filters.
  size_chunk_filters();
  parallel_over_chunks(n, [&](Index chunk, Index first, Index last) {
    RowVec& sums = chunk_filters_[static_cast<std::size_t>(chunk)];
    for (Index i = first; i < last; ++i) {
      sums.noalias() = H_.middleRows(i * patches_, patches_).colwise().sum();
      out.row(i) = ConstMatMap(sums.data(), classes_, neurons_).rowwise().sum().transpose();
    }
  });
}

void PatchTwoLayer::patch_gradient(ConstMatRef dout, MatRef G) {
  // dg^y/dz_{(i,p),(y,r)} = ReLU~'(z): every patch row of sample i is D's row times dout(i, y)
  // repeated over class y's m filters.
  size_chunk_filters();
  parallel_over_chunks(dout.rows(), [&](Index chunk, Index first, Index last) {
    RowVec& scale = chunk_filters_[static_cast<std::size_t>(chunk)];
    for (Index i = first; i < last; ++i) {
      MatMap(scale.data(), classes_, neurons_) = dout.row(i).transpose().replicate(1, neurons_);
      G.middleRows(i * patches_, patches_).array() = D_.middleRows(i * patches_, patches_).array().rowwise() * scale.array();
    }
  });
}

void PatchTwoLayer::patch_gradient(ConstMatRef dout) {
  G_.resize(D_.rows(), D_.cols());
  patch_gradient(dout, G_);
}

void PatchTwoLayer::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  patch_gradient(dout);
  parallel_product_cols(grad_block(grad, W_), G_.transpose(), patch_rows(X));
}

bool PatchTwoLayer::fused_step(const Batch& batch, const SeparableLoss& loss, VecRef grad, Scalar& value) {
  if (!activation_.fusable() || !block_info(W_).trainable) return false;
  // Rows of km filters padded to ldw, whole vector strips (patch_products.hpp); the padding stays 0.
  const Index km = classes_ * neurons_, ldw = patch::padded_width(km), n = batch.n;
  const Index block_samples = std::clamp<Index>(kFusedBlockFloats / (patches_ * ldw), 1, 64);
  fused_chunks_.resize(static_cast<std::size_t>(parallel_chunks));
  for (auto& c : fused_chunks_) {
    c.Z.resize(block_samples * patches_, ldw);
    c.sums.resize(block_samples, km);
    c.out.resize(block_samples, classes_);
    c.dout.resize(block_samples, classes_);
    c.grad.resize(dim_, ldw);
  }
  filters_transposed_.resize(dim_, ldw);
  filters_transposed_.leftCols(km) = block(W_).transpose();
  filters_transposed_.rightCols(ldw - km).setZero();
  const ConstMatMap Xp = patch_rows(batch.X());
  parallel_over_chunks(n, [&](Index chunk, Index first, Index last) {
    FusedChunk& c = fused_chunks_[static_cast<std::size_t>(chunk)];
    c.grad.setZero();
    c.loss = 0;
    for (Index begin = first; begin < last; begin += block_samples) {
      const Index samples = std::min(block_samples, last - begin), rows = samples * patches_;
      const Scalar* Xb = Xp.row(begin * patches_).data();  // read here, and again below while in cache
      patch::times_transpose(Xb, rows, dim_, filters_transposed_.data(), ldw, c.Z.data());
      // φ summed over each sample's patches into sums, φ' written over Z.
      c.sums.topRows(samples).setZero();
      visit_activation([&](const auto& kernel) {
        for (Index s = 0; s < samples; ++s) {
          Scalar* __restrict sums = c.sums.row(s).data();
          for (Index p = 0; p < patches_; ++p) {
            Scalar* __restrict z = c.Z.row(s * patches_ + p).data();
            const Scalar weight = count(p);
            for (Index e = 0; e < km; ++e) {
              const activation_kernel::ValueSlope v = kernel(z[e]);
              sums[e] += weight * v.value;
              z[e] = weight * v.slope;
            }
          }
        }
      });
      for (Index s = 0; s < samples; ++s) {
        c.out.row(s) = ConstMatMap(c.sums.row(s).data(), classes_, neurons_).rowwise().sum().transpose();
      }
      c.loss += loss.row_block(c.out.topRows(samples), batch, begin, n, c.dout.topRows(samples));
      // The patch gradient φ'(z)·dout(i, y) of filter (y, r), in place, then ∇Wᵀ += Xᵀ G.
      for (Index s = 0; s < samples; ++s) {
        MatMap scale(c.sums.row(s).data(), classes_, neurons_);  // the sums are spent: reused
        scale = c.dout.row(s).transpose().replicate(1, neurons_);
        c.Z.middleRows(s * patches_, patches_).leftCols(km).array().rowwise() *= c.sums.row(s).array();
      }
      patch::add_transpose_times(Xb, rows, dim_, c.Z.data(), ldw, c.grad.data());
    }
  });
  // The chunks' sums in chunk order: the same bits on any number of threads.
  auto dW = grad_block(grad, W_);
  dW = fused_chunks_[0].grad.leftCols(km).transpose();
  double total = fused_chunks_[0].loss;
  for (std::size_t c = 1; c < fused_chunks_.size(); ++c) {
    dW += fused_chunks_[c].grad.leftCols(km).transpose();
    total += fused_chunks_[c].loss;
  }
  value = static_cast<Scalar>(total / static_cast<double>(n));
  return true;
}

void PatchTwoLayer::input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) {
  patch_gradient(dout);
  Mat dXp = G_ * block(W_);  // (n·P)×d
  const MatMap flat(dXp.data(), X.rows(), patches_ * dim_);
  if (strip_source_.empty()) {
    dX = flat;
    return;
  }
  for (Index i = 0; i < X.rows(); ++i) {  // back from the convolution's blocks to the data's layout
    for (std::size_t t = 0; t < strip_source_.size(); ++t) dX(i, strip_source_[t]) = flat(i, static_cast<Index>(t));
  }
}

void PatchTwoLayer::preactivations(ConstMatRef X, MatRef Z) {
  // Z viewed as (n·P)×(k·m) is exactly the forward pass's first GEMM.
  parallel_product_rows(MatMap(Z.data(), X.rows() * patches_, classes_ * neurons_), patch_rows(X), block(W_).transpose());
}

void PatchTwoLayer::head(ConstMatRef Z, MatRef out) {
  // Called once per block of mixed pairs by the exact losses: no copy of Z, buffers reused.
  const Index n = Z.rows(), km = classes_ * neurons_;
  activations(ConstMatMap(Z.data(), n * patches_, km));
  readout(n, out);
}

void PatchTwoLayer::head_backward(ConstMatRef dout, MatRef dZ) {
  MatMap G(dZ.data(), dout.rows() * patches_, classes_ * neurons_);
  patch_gradient(dout, G);
}

void PatchTwoLayer::mixed_head(const Eigen::Ref<const RowVec>& anchor, Scalar mu, ConstMatRef partners, MatRef out,
                               MixedScratch& scratch) {
  // One pass per mix: its pre-activations are formed in registers, φ summed over the patches into
  // one accumulator per filter, φ' kept for mixed_head_backward.
  const Index b = partners.rows(), km = classes_ * neurons_, width = patches_ * km;
  // Only ever grown: the last block of a triangle is shorter, and a resize would reallocate.
  if (scratch.slopes.rows() < b || scratch.slopes.cols() != width) scratch.slopes.resize(b, width);
  scratch.sums.resize(km);
  visit_activation([&](const auto& kernel) {
    for (Index r = 0; r < b; ++r) {
      const Scalar* __restrict a = anchor.data();
      const Scalar* __restrict z = partners.row(r).data();
      Scalar* __restrict d = scratch.slopes.row(r).data();
      Scalar* __restrict sums = scratch.sums.data();
      std::fill(sums, sums + km, Scalar(0));
      for (Index p = 0; p < patches_; ++p) {
        const Index at = p * km;
        const Scalar weight = count(p);
        for (Index e = 0; e < km; ++e) {
          const activation_kernel::ValueSlope v = kernel(a[at + e] + mu * z[at + e]);
          d[at + e] = weight * v.slope;
          sums[e] += weight * v.value;
        }
      }
      out.row(r) = ConstMatMap(sums, classes_, neurons_).rowwise().sum().transpose();
    }
  });
}

void PatchTwoLayer::mixed_head_backward(ConstMatRef dout, Scalar mu, MatRef partner_dZ, Eigen::Ref<RowVec> anchor_dZ,
                                        MixedScratch& scratch) {
  // g = dout(y)·φ' for every patch and filter of each mix, added to both of its points.
  const Index km = classes_ * neurons_;
  scratch.scale.resize(km);
  for (Index r = 0; r < dout.rows(); ++r) {
    MatMap(scratch.scale.data(), classes_, neurons_) = dout.row(r).transpose().replicate(1, neurons_);
    const Scalar* __restrict scale = scratch.scale.data();
    const Scalar* __restrict d = scratch.slopes.row(r).data();
    Scalar* __restrict partner = partner_dZ.row(r).data();
    Scalar* __restrict anchor = anchor_dZ.data();
    for (Index p = 0; p < patches_; ++p) {
      const Index at = p * km;
      for (Index e = 0; e < km; ++e) {
        const Scalar g = scale[e] * d[at + e];
        partner[at + e] += mu * g;
        anchor[at + e] += g;
      }
    }
  }
}

void PatchTwoLayer::preactivation_backward(ConstMatRef X, ConstMatRef dZ, VecRef grad) {
  const ConstMatMap G(dZ.data(), X.rows() * patches_, classes_ * neurons_);
  parallel_product_cols(grad_block(grad, W_), G.transpose(), patch_rows(X));
}

std::vector<HookSpec> PatchTwoLayer::hook_points() const {
  return {{"filters.pre", "(n·P)×(k·m)", "<w_{y,r}, x^(p)> for every patch and filter"},
          {"filters.post", "(n·P)×(k·m)", "ReLU~ of filters.pre (per stored patch, not weighed by patch counts)"}};
}

void PatchTwoLayer::hook(const std::string& name, ConstMatRef X, Mat& out) {
  if (name != "filters.pre" && name != "filters.post") Model::hook(name, X, out);
  Z_.resize(X.rows() * patches_, classes_ * neurons_);
  Z_.noalias() = patch_rows(X) * block(W_).transpose();
  if (name == "filters.pre") {
    out = Z_;
    return;
  }
  out.resize(Z_.rows(), Z_.cols());
  D_.resize(Z_.rows(), Z_.cols());
  apply_activation(Z_, out, D_);
}

}  // namespace featurelab::midpoint_mixup_pack
