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
  s.choice("activation", "relu", names(),
           "hidden activation: relu, leaky-relu, smoothed-relu (polynomially smoothed ReLU, Chidambaram "
           "et al. Def. 4.2), poly (u^power), identity");
  s.real("leaky_slope", 0.01, "leaky-relu: slope for negative inputs").min(0);
  s.real("smooth_alpha", 8.0, "smoothed-relu: the power α of the polynomial piece").min(2);
  s.real("smooth_rho", 0.1, "smoothed-relu: the threshold ρ where it becomes linear").above(0);
  s.integer("power", 2, "poly: the power p of u^p").min(1);
}

Activation::Activation(const Params& params)
    : slope_(static_cast<Scalar>(params.real("leaky_slope"))),
      alpha_(static_cast<Scalar>(params.real("smooth_alpha"))),
      rho_(static_cast<Scalar>(params.real("smooth_rho"))),
      power_(static_cast<int>(params.integer("power"))) {
  const std::string& name = params.str("activation");
  if (name == "relu") kind_ = Kind::Relu;
  else if (name == "leaky-relu") kind_ = Kind::LeakyRelu;
  else if (name == "smoothed-relu") kind_ = Kind::SmoothedRelu;
  else if (name == "poly") kind_ = Kind::Poly;
  else kind_ = Kind::Identity;
}

void Activation::apply(ConstMatRef Z, MatRef H, MatRef D) const {
  const auto z = Z.array();
  switch (kind_) {
    case Kind::Relu:
      H.array() = z.max(Scalar(0));
      D.array() = (z > Scalar(0)).template cast<Scalar>();
      break;
    case Kind::LeakyRelu:
      H.array() = (z > Scalar(0)).select(z, slope_ * z);
      D.array() = (z > Scalar(0)).select(Scalar(1), Scalar(slope_) + Scalar(0) * z);
      break;
    case Kind::SmoothedRelu: {
      // On [0, ρ]: u^α/(α ρ^{α−1}) and (u/ρ)^{α−1}; above ρ: u − (1 − 1/α)ρ and 1.
      // An integral α (the paper's 8) takes repeated squaring instead of pow(): ~10× faster.
      D.array() = z.max(Scalar(0)).min(rho_) / rho_;  // r = clip(u)/ρ ∈ [0, 1]
      const Scalar e = alpha_ - Scalar(1);
      const int n = static_cast<int>(e);
      if (static_cast<Scalar>(n) == e && n >= 1 && n <= 64) {
        H.array() = D.array();  // H: running power r^n by binary exponentiation, D keeps r^(2^j)
        int bits = n - 1;
        square_.resize(D.rows(), D.cols());
        square_ = D;
        while (bits > 0) {
          if (bits & 1) H.array() *= square_.array();
          bits >>= 1;
          if (bits > 0) square_.array() = square_.array().square();
        }
        D = H;  // r^(α−1)
      } else {
        D.array() = D.array().pow(e);
      }
      // H = ρ·r·r^(α−1)/α below ρ, the linear piece above.
      H.array() = (z >= rho_).select(z - (Scalar(1) - Scalar(1) / alpha_) * rho_,
                                     z.max(Scalar(0)).min(rho_) * D.array() / alpha_);
      D.array() = (z >= rho_).select(Scalar(1) + Scalar(0) * z, D.array());
      break;
    }
    case Kind::Poly:
      H.array() = z.pow(Scalar(power_));
      D.array() = Scalar(power_) * z.pow(Scalar(power_ - 1));
      break;
    case Kind::Identity:
      H = Z;
      D.setOnes();
      break;
  }
}

void Activation::value(ConstMatRef Z, MatRef H) const {
  const auto z = Z.array();
  switch (kind_) {
    case Kind::Relu: H.array() = z.max(Scalar(0)); return;
    case Kind::LeakyRelu: H.array() = (z > Scalar(0)).select(z, slope_ * z); return;
    case Kind::Identity: H = Z; return;
    default:
      other_.resize(Z.rows(), Z.cols());
      apply(Z, H, other_);
  }
}

void Activation::derivative(ConstMatRef Z, MatRef D) const {
  const auto z = Z.array();
  switch (kind_) {
    case Kind::Relu: D.array() = (z > Scalar(0)).template cast<Scalar>(); return;
    case Kind::LeakyRelu: D.array() = (z > Scalar(0)).select(Scalar(1), Scalar(slope_) + Scalar(0) * z); return;
    case Kind::Identity: D.setOnes(); return;
    default:
      other_.resize(Z.rows(), Z.cols());
      apply(Z, other_, D);
  }
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
