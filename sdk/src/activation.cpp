// Activation values and derivatives as fused Eigen array expressions.
#include <featurelab/activation.hpp>

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab {

const std::vector<std::string>& Activation::names() {
  static const std::vector<std::string> kNames{"relu", "leaky-relu", "smoothed-relu", "poly", "identity"};
  return kNames;
}

void Activation::declare(Schema& s) {
  s.string("activation", "relu",
           "hidden activation: relu, leaky-relu, smoothed-relu (polynomially smoothed ReLU, Chidambaram "
           "et al. Def. 4.2), poly (u^power), identity, or a pack's activation (featurelab list activation)");
  s.real("leaky_slope", 0.01, "leaky-relu: slope for negative inputs").min(0);
  s.real("smooth_alpha", 8.0, "smoothed-relu: the power α of the polynomial piece").min(2);
  s.real("smooth_rho", 0.1, "smoothed-relu: the threshold ρ where it becomes linear").above(0);
  s.integer("power", 2, "poly: the power p of u^p").min(1);
}

Activation::Activation(const Params& params, const Context& context) : Activation(params, nullptr) {
  if (kind_ != Kind::Pack) return;
  const std::string& name = params.str("activation");
  std::string builtin;
  for (const auto& n : names()) builtin += (builtin.empty() ? "" : ", ") + n;
  if (!context.make_activation) {
    throw Error("activation '" + name + "' is not built in (" + builtin + ") and no pack's activation can be made here");
  }
  try {
    custom_ = context.make_activation(name);
  } catch (const std::exception& e) {
    throw Error("activation '" + name + "' is not built in (" + builtin + "): " + e.what());
  }
  if (!custom_) throw Error("activation '" + name + "': its factory returned nothing");
}

Activation::Activation(const Params& params) : Activation(params, nullptr) {
  if (kind_ == Kind::Pack) {
    std::string builtin;
    for (const auto& n : names()) builtin += (builtin.empty() ? "" : ", ") + n;
    throw Error("activation '" + name_ + "' is not built in (" + builtin + ")");
  }
}

void Activation::refuse_fusing() const {
  throw Error("activation '" + name_ + "' is a pack's: it computes whole blocks and cannot be fused into a "
              "model's own loop; this model takes the built-in activations only");
}

Activation::Activation(const Params& params, std::nullptr_t)
    : name_(params.str("activation")),
      slope_(static_cast<Scalar>(params.real("leaky_slope"))),
      alpha_(static_cast<Scalar>(params.real("smooth_alpha"))),
      rho_(static_cast<Scalar>(params.real("smooth_rho"))),
      power_(static_cast<int>(params.integer("power"))) {
  if (name_ == "relu") kind_ = Kind::Relu;
  else if (name_ == "leaky-relu") kind_ = Kind::LeakyRelu;
  else if (name_ == "smoothed-relu") kind_ = Kind::SmoothedRelu;
  else if (name_ == "poly") kind_ = Kind::Poly;
  else if (name_ == "identity") kind_ = Kind::Identity;
  else kind_ = Kind::Pack;
}

void ActivationFunction::value(ConstMatRef Z, MatRef H) const {
  Mat D(Z.rows(), Z.cols());
  apply(Z, H, D);
}

void ActivationFunction::derivative(ConstMatRef Z, MatRef D) const {
  Mat H(Z.rows(), Z.cols());
  apply(Z, H, D);
}

namespace {
// One pass per row of a kernel over Z, storing what `store` keeps of each {φ, φ'} (both, or one:
// the other is computed in registers and dropped). No scratch memory: safe from parallel loops.
template <class Kernel, class Store>
void rows_of(const Kernel& kernel, ConstMatRef Z, Store store) {
  for (Index i = 0; i < Z.rows(); ++i) {
    const Scalar* __restrict z = Z.row(i).data();
    for (Index e = 0; e < Z.cols(); ++e) store(i, e, kernel(z[e]));
  }
}
}  // namespace

void Activation::apply(ConstMatRef Z, MatRef H, MatRef D) const {
  if (custom_) return custom_->apply(Z, H, D);
  visit([&](const auto& kernel) {
    rows_of(kernel, Z, [&](Index i, Index e, activation_kernel::ValueSlope v) {
      H(i, e) = v.value;
      D(i, e) = v.slope;
    });
  });
}

void Activation::value(ConstMatRef Z, MatRef H) const {
  if (custom_) return custom_->value(Z, H);
  visit([&](const auto& kernel) {
    rows_of(kernel, Z, [&](Index i, Index e, activation_kernel::ValueSlope v) { H(i, e) = v.value; });
  });
}

void Activation::derivative(ConstMatRef Z, MatRef D) const {
  if (custom_) return custom_->derivative(Z, D);
  visit([&](const auto& kernel) {
    rows_of(kernel, Z, [&](Index i, Index e, activation_kernel::ValueSlope v) { D(i, e) = v.slope; });
  });
}

double Activation::value(double u) const {
  Mat Z(1, 1), H(1, 1), D(1, 1);
  Z(0, 0) = static_cast<Scalar>(u);
  apply(Z, H, D);
  return static_cast<double>(H(0, 0));
}

double Activation::derivative(double u) const {
  Mat Z(1, 1), H(1, 1), D(1, 1);
  Z(0, 0) = static_cast<Scalar>(u);
  apply(Z, H, D);
  return static_cast<double>(D(0, 0));
}

}  // namespace featurelab
