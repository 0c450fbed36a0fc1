// Where the tests find the program and the source tree: absolute paths of this build, defined in
// one generated source (build/tests/test_paths_<config>.cpp, written by tests/CMakeLists.txt),
// the only test source that names the checkout. No test's compile command carries them, so the
// objects of every other test source are the same in any checkout or clone and ccache (base_dir)
// shares them; a test binary run by hand finds both as under ctest.
#pragma once

namespace sy::test {
extern const char* const kBin;        // the switchyard program of this build
extern const char* const kSourceDir;  // the source tree (configs/, docs/, tb/)
}  // namespace sy::test
