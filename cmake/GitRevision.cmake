# Run at every build (core/CMakeLists.txt, target featurelab-revision): writes OUTPUT, a C++ file that says
# which commit the build was made from and whether the work tree had changes to tracked files, only when that
# differs from what it says already, so an unchanged tree recompiles nothing. Without git or a repository the
# revision is empty ("unknown" in the records).
set(revision "")
set(dirty "false")
if(GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse HEAD WORKING_DIRECTORY "${SOURCE_DIR}"
    OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND "${GIT_EXECUTABLE}" status --porcelain --untracked-files=no WORKING_DIRECTORY "${SOURCE_DIR}"
    OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT changes STREQUAL "")
    set(dirty "true")
  endif()
endif()
set(text "// Generated at build time by cmake/GitRevision.cmake: the commit of this build and whether it had changes.
#include \"kernel/job/build_revision.hpp\"

namespace featurelab {
const char* build_git_revision() { return \"${revision}\"; }
bool build_git_dirty() { return ${dirty}; }
}  // namespace featurelab
")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
