#include "looped_linear_transformer.hpp"
#include "least_squares.hpp"

#include <featurelab/error.hpp>

namespace featurelab::representation_theory_pack {

namespace {

template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The causal mask of Def. 8.6 for n examples: (n+1)×(n+1), ones in the last row's first n entries.
template <class T>
RowMajor<T> causal_mask(Index n) {
  RowMajor<T> mask = RowMajor<T>::Zero(n + 1, n + 1);
  mask.row(n).head(n).setOnes();
  return mask;
}

// Def. 8.6 literally: the whole (n+1)×(n+1) score matrix, masked by a Hadamard product, times Z P.
template <class T>
RowMajor<T> masked_linear_attention(const RowMajor<T>& Z, const RowMajor<T>& Q, const RowMajor<T>& P,
                                    const RowMajor<T>& mask) {
  const RowMajor<T> scores = mask.cwiseProduct(Z * Q * Z.transpose());
  return scores * Z * P;
}

}  // namespace

Schema LoopedLinearTransformer::schema() {
  Schema s;
  s.integer("loops", 200, "T: how many times the attention layer is applied (the chapter: 200)").min(1);
  s.choice("step_size", "inv-lambda-max", {"inv-lambda-max", "constant"},
           "η: 1/λ_max(XᵀX) of each prompt (the chapter's η = 1/L), or the constant `eta`");
  s.real("eta", 0.01, "the residual step η when step_size = \"constant\"").above(0);
  s.real("perturb", 0.0, "std of Gaussian noise added to Q = I and P = diag(I, 0) at init (0 = the construction)").min(0);
  s.choice("precision", "float64", {"float64", "float32"},
           "arithmetic of the loops: float64 (the chapter's checks) or float32 (to show its error floor)");
  return s;
}

LoopedLinearTransformer::LoopedLinearTransformer(const Params& params, Context& context)
    : shape_(representation_theory_pack::prompt_shape(context.data.shape, context.data.dim, context.name)),
      loops_(params.integer("loops")),
      constant_step_(params.str("step_size") == "constant"),
      single_precision_(params.str("precision") == "float32"),
      eta_(params.real("eta")),
      perturb_(params.real("perturb")) {
  const Index k = shape_.d + 1;
  Q_ = declare_block("Q", k, k, false);  // query-key product, Def. 8.6
  P_ = declare_block("P", k, k, false);  // value-output product
  allocate_parameters();
  construct();
}

void LoopedLinearTransformer::construct() {
  const Index d = shape_.d;
  block(Q_).setIdentity();
  MatMap P = block(P_);
  P.setZero();
  P.topLeftCorner(d, d).setIdentity();  // P = diag(I_d, 0): the label column is never written
}

void LoopedLinearTransformer::init(Rng& rng) {
  construct();
  if (perturb_ > 0) {
    MatMap Q = block(Q_), P = block(P_);
    for (Index i = 0; i < Q.size(); ++i) Q.data()[i] += static_cast<Scalar>(perturb_ * rng.normal());
    for (Index i = 0; i < P.size(); ++i) P.data()[i] += static_cast<Scalar>(perturb_ * rng.normal());
  }
}

void LoopedLinearTransformer::check_prompt(const MatD& Z) const {
  if (Z.rows() != shape_.n + 1 || Z.cols() != shape_.d + 1) {
    throw Error("looped-linear-transformer: a prompt must be " + std::to_string(shape_.n + 1) + "×" +
                std::to_string(shape_.d + 1) + " (the model was built for n = " + std::to_string(shape_.n) +
                ", d = " + std::to_string(shape_.d) + "), got " + std::to_string(Z.rows()) + "×" +
                std::to_string(Z.cols()));
  }
}

MatD LoopedLinearTransformer::attention(const MatD& Z) const {
  check_prompt(Z);
  return masked_linear_attention<double>(Z, block(Q_).cast<double>(), block(P_).cast<double>(),
                                         causal_mask<double>(shape_.n));
}

double LoopedLinearTransformer::step_size(const MatD& Z0) const {
  if (constant_step_) return eta_;
  return 1.0 / gram_spectrum(Z0.topLeftCorner(shape_.n, shape_.d)).lambda_max;
}

template <class T>
LoopedLinearTransformer::Trace LoopedLinearTransformer::unroll_in(const MatD& Z0, double eta) const {
  const Index n = shape_.n, d = shape_.d;
  const RowMajor<T> Q = block(Q_).cast<T>(), P = block(P_).cast<T>(), mask = causal_mask<T>(n);
  const T step = static_cast<T>(eta);
  RowMajor<T> Z = Z0.cast<T>();
  Trace trace;
  trace.q.resize(loops_ + 1, d);
  trace.q.row(0) = Z.row(n).head(d).template cast<double>();
  for (Index t = 1; t <= loops_; ++t) {
    const RowMajor<T> update = masked_linear_attention<T>(Z, Q, P, mask);
    Z -= step * update;  // the residual connection with weight η (Def. 8.7)
    trace.q.row(t) = Z.row(n).head(d).template cast<double>();
  }
  trace.Z = Z.template cast<double>();
  return trace;
}

LoopedLinearTransformer::Trace LoopedLinearTransformer::unroll(const MatD& Z0) const {
  check_prompt(Z0);
  const double eta = step_size(Z0);
  return single_precision_ ? unroll_in<float>(Z0, eta) : unroll_in<double>(Z0, eta);
}

void LoopedLinearTransformer::forward(ConstMatRef X, MatRef out) {
  for (Index i = 0; i < X.rows(); ++i) {  // prompts are independent matrices: one unrolled pass each
    const Trace trace = unroll(prompt_matrix(X.row(i).data(), shape_));
    out.row(i) = (-trace.Z.row(shape_.n).head(shape_.d)).cast<Scalar>();
  }
}

void LoopedLinearTransformer::backward(ConstMatRef, ConstMatRef, VecRef) {
  throw Error("looped-linear-transformer has no trainable parameters (Q and P are Lemma 8.13's construction); run it "
              "with train.steps = 0");
}

const LoopedLinearTransformer& as_looped_transformer(const Model& model, const std::string& who) {
  const auto* looped = dynamic_cast<const LoopedLinearTransformer*>(&model);
  if (!looped) throw Error(who + " reads the loops of a looped transformer; set model.use = \"looped-linear-transformer\"");
  return *looped;
}

}  // namespace featurelab::representation_theory_pack
