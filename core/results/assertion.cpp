// Recursive-descent parser and evaluator for assertion expressions.
#include "results/assertion.hpp"

#include <featurelab/error.hpp>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace featurelab {

struct Assertion::Node {
  char kind = 'n';  // 'n' number, 'm' metric, '+', '-', '*', '/', 'u' (unary minus)
  double number = 0;
  std::string metric;
  Selector selector;
  std::shared_ptr<const Node> a, b;
};

namespace {

using NodePtr = std::shared_ptr<const Assertion::Node>;

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  struct Refs {
    std::vector<std::string> metrics;
    std::vector<Selector> selectors;
  };

  NodePtr sum(Refs& metrics) {
    NodePtr left = term(metrics);
    for (;;) {
      skip();
      // A binary minus needs a space before it; "a-b" is one metric name.
      if (peek() == '+' || (peek() == '-' && pos_ > 0 && std::isspace(static_cast<unsigned char>(s_[pos_ - 1])))) {
        const char op = s_[pos_++];
        left = binary(op, left, term(metrics));
      } else {
        return left;
      }
    }
  }

  std::string comparison() {
    skip();
    for (const char* op : {">=", "<=", "==", "!=", ">", "<"}) {
      if (s_.compare(pos_, std::string(op).size(), op) == 0) {
        pos_ += std::string(op).size();
        return op;
      }
    }
    fail("expected a comparison (>=, <=, >, <, ==, !=)");
  }

  void end() {
    skip();
    if (pos_ != s_.size()) fail("unexpected text");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error("in \"" + s_ + "\" at column " + std::to_string(pos_ + 1) + ": " + what +
                "; write e.g. \"accuracy.test >= 0.9\"");
  }

 private:
  NodePtr term(Refs& metrics) {
    NodePtr left = factor(metrics);
    for (;;) {
      skip();
      if (peek() == '*' || peek() == '/') {
        const char op = s_[pos_++];
        left = binary(op, left, factor(metrics));
      } else {
        return left;
      }
    }
  }

  NodePtr factor(Refs& metrics) {
    skip();
    auto node = std::make_shared<Assertion::Node>();
    const char c = peek();
    if (c == '(') {
      ++pos_;
      NodePtr inner = sum(metrics);
      skip();
      if (peek() != ')') fail("expected ')'");
      ++pos_;
      return inner;
    }
    if (c == '-') {
      ++pos_;
      node->kind = 'u';
      node->a = factor(metrics);
      return node;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* begin = s_.c_str() + pos_;
      char* end = nullptr;
      node->number = std::strtod(begin, &end);
      if (end == begin) fail("expected a number");
      pos_ += static_cast<std::size_t>(end - begin);
      return node;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                  std::string("_.-:=").find(s_[pos_]) != std::string::npos)) {
        ++pos_;
      }
      node->kind = 'm';
      node->metric = s_.substr(start, pos_ - start);
      if (peek() == '[') node->selector = selector();
      metrics.metrics.push_back(node->metric);
      metrics.selectors.push_back(node->selector);
      return node;
    }
    fail(c == '\0' ? "expression ends too early" : std::string("unexpected '") + c + "'");
  }

  // [key=value, key=value]
  Selector selector() {
    ++pos_;
    Selector out;
    for (;;) {
      skip();
      const std::size_t start = pos_;
      while (pos_ < s_.size() && s_[pos_] != '=' && s_[pos_] != ']' && s_[pos_] != ',') ++pos_;
      std::string key = s_.substr(start, pos_ - start);
      while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back()))) key.pop_back();
      if (key.empty() || peek() != '=') fail("expected key=value in the selector");
      ++pos_;
      skip();
      const std::size_t vstart = pos_;
      while (pos_ < s_.size() && s_[pos_] != ']' && s_[pos_] != ',') ++pos_;
      std::string value = s_.substr(vstart, pos_ - vstart);
      while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.pop_back();
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      if (value.empty()) fail("expected a value after '" + key + "=' in the selector");
      try {
        parse_argmax(value);
      } catch (const Error& e) {
        fail(e.what());
      }
      out.emplace_back(key, value);
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return out;
      }
      fail("expected ']' to close the selector");
    }
  }

  static NodePtr binary(char op, NodePtr a, NodePtr b) {
    auto node = std::make_shared<Assertion::Node>();
    node->kind = op;
    node->a = std::move(a);
    node->b = std::move(b);
    return node;
  }

  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }

  const std::string& s_;
  std::size_t pos_ = 0;
};

using Lookup = std::function<double(const std::string&, const Selector&)>;

double eval(const Assertion::Node& n, const Lookup& value_of) {
  switch (n.kind) {
    case 'n': return n.number;
    case 'm': return value_of(n.metric, n.selector);
    case 'u': return -eval(*n.a, value_of);
    case '+': return eval(*n.a, value_of) + eval(*n.b, value_of);
    case '-': return eval(*n.a, value_of) - eval(*n.b, value_of);
    case '*': return eval(*n.a, value_of) * eval(*n.b, value_of);
    case '/': return eval(*n.a, value_of) / eval(*n.b, value_of);
    default: return std::nan("");
  }
}

}  // namespace

std::optional<ArgmaxSelection> parse_argmax(const std::string& value) {
  const std::string head = "argmax(";
  if (value.compare(0, head.size(), head) != 0) return std::nullopt;
  const auto fix = "; write argmax(METRIC) or argmax(METRIC; value value …), e.g. argmax(ood-accuracy.id)";
  if (value.back() != ')') throw Error("'" + value + "' does not end with ')'" + fix);
  std::string inside = value.substr(head.size(), value.size() - head.size() - 1);
  ArgmaxSelection out;
  const auto semicolon = inside.find(';');
  std::istringstream metric(inside.substr(0, semicolon));
  metric >> out.metric;
  std::string extra;
  if (out.metric.empty() || (metric >> extra)) throw Error("'" + value + "' names no single metric" + fix);
  if (semicolon != std::string::npos) {
    std::istringstream rest(inside.substr(semicolon + 1));
    for (std::string v; rest >> v;) out.candidates.push_back(v);
    if (out.candidates.empty()) throw Error("'" + value + "' lists no candidates after ';'" + fix);
  }
  return out;
}

std::string selector_text(const Selector& selector) {
  std::string out;
  for (const auto& [k, v] : selector) out += (out.empty() ? "[" : ", ") + k + "=" + v;
  return out + "]";
}

Assertion Assertion::parse(const std::string& text) {
  Assertion a;
  Parser parser(text);
  Parser::Refs refs;
  a.lhs_ = parser.sum(refs);
  a.op_ = parser.comparison();
  a.rhs_ = parser.sum(refs);
  parser.end();
  a.metrics_ = refs.metrics;
  a.selectors_ = refs.selectors;
  return a;
}

Assertion::Outcome Assertion::evaluate(const std::function<double(const std::string&)>& value_of) const {
  return evaluate([&value_of](const std::string& metric, const Selector&) { return value_of(metric); });
}

Assertion::Outcome Assertion::evaluate(const Lookup& value_of) const {
  Outcome o;
  o.lhs = eval(*lhs_, value_of);
  o.rhs = eval(*rhs_, value_of);
  if (std::isnan(o.lhs) || std::isnan(o.rhs)) return o;  // NaN never satisfies a prediction
  if (op_ == ">=") o.holds = o.lhs >= o.rhs;
  if (op_ == "<=") o.holds = o.lhs <= o.rhs;
  if (op_ == ">") o.holds = o.lhs > o.rhs;
  if (op_ == "<") o.holds = o.lhs < o.rhs;
  if (op_ == "==") o.holds = o.lhs == o.rhs;
  if (op_ == "!=") o.holds = o.lhs != o.rhs;
  return o;
}

}  // namespace featurelab
