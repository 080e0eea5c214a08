#include "kernel/io/npy_header.hpp"

#include <featurelab/error.hpp>

#include <cctype>
#include <limits>

namespace featurelab {

namespace {

// A cursor over the dict's text; every failure names what was expected where.
class HeaderReader {
 public:
  explicit HeaderReader(std::string_view text) : text_(text) {}

  void skip_spaces() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n')) ++at_;
  }
  bool take(char c) {
    skip_spaces();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c, const char* what) {
    if (!take(c)) fail(std::string("expected ") + what);
  }
  // A Python string literal in ' or " quotes, without escapes (NumPy writes none).
  std::string string_literal() {
    skip_spaces();
    if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) fail("expected a quoted string");
    const char quote = text_[at_++];
    const std::size_t start = at_;
    while (at_ < text_.size() && text_[at_] != quote) {
      if (text_[at_] == '\\' || text_[at_] == '\n') fail("an escape or line break in a string");
      ++at_;
    }
    if (at_ >= text_.size()) fail("a string without its closing quote");
    return std::string(text_.substr(start, at_++ - start));
  }
  bool boolean_literal() {
    skip_spaces();
    for (const auto& [word, value] : {std::pair<std::string_view, bool>{"True", true}, {"False", false}}) {
      if (text_.substr(at_, word.size()) == word) {
        at_ += word.size();
        return value;
      }
    }
    fail("expected True or False");
  }
  // (R, C), (N,) or (): non-negative integers.
  std::vector<long long> shape_tuple() {
    expect('(', "a tuple for 'shape'");
    std::vector<long long> dims;
    while (!take(')')) {
      skip_spaces();
      if (at_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[at_]))) fail("expected a dimension");
      long long value = 0;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
        const int digit = text_[at_++] - '0';
        if (value > (std::numeric_limits<long long>::max() - digit) / 10) fail("a dimension too large");
        value = value * 10 + digit;
      }
      dims.push_back(value);
      if (!take(',')) {
        expect(')', "',' or ')' in 'shape'");
        if (dims.size() == 1) fail("a one-element tuple needs its comma, (N,)");
        break;
      }
    }
    return dims;
  }
  bool at_end() {
    skip_spaces();
    return at_ == text_.size();
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(".npy header: " + what + " at character " + std::to_string(at_ + 1) + " of " + std::string(text_));
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
};

}  // namespace

NpyHeader parse_npy_header(std::string_view dict) {
  HeaderReader in(dict);
  NpyHeader header;
  bool seen_descr = false, seen_order = false, seen_shape = false;
  in.expect('{', "'{'");
  while (!in.take('}')) {
    const std::string key = in.string_literal();
    in.expect(':', "':' after a key");
    bool* seen = key == "descr" ? &seen_descr : key == "fortran_order" ? &seen_order : key == "shape" ? &seen_shape : nullptr;
    if (!seen) in.fail("the key '" + key + "', which a .npy header does not have");
    if (*seen) in.fail("the key '" + key + "' a second time");
    *seen = true;
    if (key == "descr") {
      header.descr = in.string_literal();
    } else if (key == "fortran_order") {
      header.fortran_order = in.boolean_literal();
    } else {
      header.shape = in.shape_tuple();
    }
    if (!in.take(',')) {
      in.expect('}', "',' or '}'");
      break;
    }
  }
  if (!in.at_end()) in.fail("text after the dict");
  if (!seen_descr || !seen_order || !seen_shape) in.fail("a dict without 'descr', 'fortran_order' and 'shape' all three");
  return header;
}

}  // namespace featurelab
