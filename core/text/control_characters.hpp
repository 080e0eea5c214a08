// Names that reach scripts: an experiment's name, a sweep variant's, a metric's or table's name a probe returns. Plot
// scripts (gnuplot), Slurm scripts and data-file comments are line-based, so a newline in a name written there
// becomes a command of its own. Every such name is refused where it comes in when it holds a control character.
#pragma once

#include <string>
#include <string_view>

namespace featurelab {

// Whether `text` holds a byte below 0x20 (newline, carriage return, tab, NUL, escape, …) or DEL.
bool has_control_character(std::string_view text);

// `text` for an error message, each control character written as an escape (\n, \r, \t, \x1b), in double quotes.
std::string shown_with_escapes(std::string_view text);

}  // namespace featurelab
