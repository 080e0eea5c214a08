// Writing a file so that readers (and a later --resume) see either the old or the whole new
// content, never a torn one: write a temporary file next to it, then rename.
#pragma once

#include <filesystem>
#include <string>

namespace featurelab {

// Throws featurelab::Error naming the file and the reason (the errno text: "No space left on
// device") when it cannot be written; the temporary file is removed then, and the old content,
// if any, stays.
void write_file_atomically(const std::filesystem::path& file, const std::string& text);

}  // namespace featurelab
