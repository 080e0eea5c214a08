// [[assert]] expressions: a theory prediction checked when the run ends.
//
//   expect = "accuracy.test >= 0.95"
//   expect = "weight-norms.W.fro <= 2 * 0.05 * 3000"
//
//   expect = "feature-learned.both[augment.0.use=midpoint-mixup] > feature-learned.both[augment.0.use=none] + 0.3"
//
// Grammar: comparison := sum OP sum, OP ∈ {>=, <=, >, <, ==, !=}; sum := term (('+'|'-') term)*;
// term := factor (('*'|'/') factor)*; factor := number | metric [selector] | '(' sum ')' | '-' factor;
// selector := '[' key=value (',' key=value)* ']' naming the sweep point to read the metric from
// (the point being checked, with these keys changed); the key `step` reads the metric at that step
// instead of the assertion's `at` ("bias.ratio[step=600] > bias.ratio[step=100]": a trend). Metric names may contain '-', so a binary
// minus needs spaces around it ("a - b").
//
// Model selection: a selector value argmax(METRIC) reads the metric at the value of that key (or
// the step) where METRIC is largest, for the same seed and the other keys unchanged; several keys
// given argmax of one METRIC are chosen jointly, and argmax(METRIC; v1 v2 …) limits the candidates.
// step=argmax(METRIC) chooses among the recorded steps up to the one evaluated (the assertion's `at`,
// a control's step; step 0 at initialisation), so a step=0 control compares untrained networks.
// DomainBed's training-domain validation (Gulrajani & Lopez-Paz 2021, §3) picks the hyperparameter
// and checkpoint of best validation accuracy:
//   "ood-accuracy.ood[lambda=argmax(ood-accuracy.id; 0.01 0.1), step=argmax(ood-accuracy.id)]"
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace featurelab {

struct AssertSpec;

using Selector = std::vector<std::pair<std::string, std::string>>;

// A selector value argmax(METRIC) or argmax(METRIC; v1 v2 …): the criterion and the candidate values
// (empty: every value of the key, or every recorded step).
struct ArgmaxSelection {
  std::string metric;
  std::vector<std::string> candidates;
};

// The selection a selector value asks for, or nothing if it is a plain value; throws
// featurelab::Error for a malformed argmax(…).
std::optional<ArgmaxSelection> parse_argmax(const std::string& value);

// "[k=v, k2=v2]" as written, for messages.
std::string selector_text(const Selector& selector);

class Assertion {
 public:
  // Throws featurelab::Error with the position of the problem.
  static Assertion parse(const std::string& text);

  // Names of the metrics the expression reads, and the selector of each reference.
  const std::vector<std::string>& metrics() const { return metrics_; }
  const std::vector<Selector>& selectors() const { return selectors_; }
  // The comparison: ">=", "<=", ">", "<", "==" or "!=".
  const std::string& op() const { return op_; }
  // Evaluates with the given metric values; returns lhs, rhs and whether the comparison holds.
  struct Outcome {
    double lhs = 0;
    double rhs = 0;
    bool holds = false;
  };
  Outcome evaluate(const std::function<double(const std::string&, const Selector&)>& value_of) const;
  Outcome evaluate(const std::function<double(const std::string&)>& value_of) const;

  struct Node;

 private:
  std::shared_ptr<const Node> lhs_, rhs_;
  std::string op_;
  std::vector<std::string> metrics_;
  std::vector<Selector> selectors_;
};

}  // namespace featurelab
