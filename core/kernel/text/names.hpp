// Names from data. Those that reach scripts (an experiment's name, a sweep variant's, a metric's or table's name a
// probe returns): plot scripts (gnuplot), Slurm scripts and data-file comments are line-based, so a newline in a name
// written there becomes a command of its own, and such a name is refused where it comes in. Those that become parts
// of file names (a probe's, a table's, an evaluation's) are words of a few characters, never a path.
#pragma once

#include <string>
#include <string_view>

namespace featurelab {

// Whether `text` holds a byte below 0x20 (newline, carriage return, tab, NUL, escape, …) or DEL.
bool has_control_character(std::string_view text);

// Whether `text` is non-empty and made of ASCII letters, digits and the characters of `also` only.
bool is_word(std::string_view text, std::string_view also);

// `text` for an error message, each control character written as an escape (\n, \r, \t, \x1b), in double quotes.
std::string shown_with_escapes(std::string_view text);

}  // namespace featurelab
