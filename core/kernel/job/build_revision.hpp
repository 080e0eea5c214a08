// The commit this build of featurelab was made from, taken at build time (cmake/GitRevision.cmake), not at
// configure time: a rebuild after a commit or an edit records the new state.
#pragma once

namespace featurelab {

// The full commit hash; empty when the build was made outside a git work tree.
const char* build_git_revision();
// Whether tracked files differed from that commit when the build was made.
bool build_git_dirty();

}  // namespace featurelab
