#include "kernel/text/names.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace featurelab {

namespace {

bool is_control(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7f;
}

}  // namespace

bool has_control_character(std::string_view text) { return std::any_of(text.begin(), text.end(), is_control); }

bool is_word(std::string_view text, std::string_view also) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [also](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || also.find(c) != std::string_view::npos;
  });
}

std::string shown_with_escapes(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (is_control(c)) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace featurelab
