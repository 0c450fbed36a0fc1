// Replays files through the fuzz target (fuzz_config.cpp) without libFuzzer: every file named,
// and every file of every directory named (sorted, not recursive). A crash, an exception other
// than ConfigError or a failed property ends the process (the CTest test fails); so does an input
// that takes longer than --max-seconds (by hand; no limit by default: CTest asserts no times).
// Prints a summary with the slowest input.
//   switchyard_fuzz_replay [--max-seconds S] CORPUS_DIR_OR_FILE...
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  double max_seconds = 0;  // 0: no limit (CTest asserts no time; see its timeout)
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--max-seconds" && i + 1 < argc) {
      max_seconds = std::atof(argv[++i]);
      continue;
    }
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      std::vector<fs::path> in;
      for (const auto& e : fs::directory_iterator(a))
        if (e.is_regular_file()) in.push_back(e.path());
      std::sort(in.begin(), in.end());
      files.insert(files.end(), in.begin(), in.end());
    } else if (fs::is_regular_file(a, ec)) {
      files.push_back(a);
    } else {
      std::fprintf(stderr, "switchyard_fuzz_replay: no such file or directory: %s\n", a.c_str());
      return 1;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: switchyard_fuzz_replay [--max-seconds S] CORPUS...\n");
    return 1;
  }
  const auto start = std::chrono::steady_clock::now();
  double slowest = 0;
  std::string slowest_file;
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto t0 = std::chrono::steady_clock::now();
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s > slowest) {
      slowest = s;
      slowest_file = f.string();
    }
    if (max_seconds > 0 && s > max_seconds) {
      std::fprintf(stderr, "switchyard_fuzz_replay: %s took %.1f s (more than %.1f s)\n", f.c_str(),
                   s, max_seconds);
      return 1;
    }
  }
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("switchyard_fuzz_replay: %zu inputs in %.2f s, none crashed (slowest %.3f s: %s)\n",
              files.size(), total, slowest, slowest_file.c_str());
  return 0;
}
