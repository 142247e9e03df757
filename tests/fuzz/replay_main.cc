// A `main` for the fuzz targets when they are not built with libFuzzer: it
// runs LLVMFuzzerTestOneInput once over every file named on the command line
// (directories are walked recursively, in sorted order), so the targets
// build with any compiler and their corpora replay under ctest. As in
// bloaty's tests/fuzz_driver.cc, each input is copied into a buffer of
// exactly its size, so a sanitizer catches a read one byte past the end.
//
// Usage: fuzz_TARGET_replay PATH...   Exit 0 when every input ran (a target
// reports a broken invariant by aborting); 1 when a path cannot be read or
// no input was found.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size);

namespace {

namespace fs = std::filesystem;

bool ReadFile(const fs::path& path, std::vector<char>* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes->assign(std::istreambuf_iterator<char>(in),
                std::istreambuf_iterator<char>());
  return !in.bad();
}

bool Collect(const fs::path& root, std::vector<fs::path>* files) {
  std::error_code ec;
  if (fs::is_regular_file(root, ec)) {
    files->push_back(root);
    return true;
  }
  if (!fs::is_directory(root, ec)) return false;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->is_regular_file(ec)) files->push_back(it->path());
  }
  return !ec;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::vector<fs::path> found;
    if (!Collect(argv[i], &found)) {
      std::fprintf(stderr, "replay: cannot read %s\n", argv[i]);
      return 1;
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  if (files.empty()) {
    std::fprintf(stderr, "replay: no inputs\n");
    return 1;
  }
  for (const fs::path& file : files) {
    std::vector<char> bytes;
    if (!ReadFile(file, &bytes)) {
      std::fprintf(stderr, "replay: cannot read %s\n", file.c_str());
      return 1;
    }
    // An exact-size copy; an empty input gets a null pointer, as libFuzzer
    // may pass.
    std::unique_ptr<std::uint8_t[]> copy;
    if (!bytes.empty()) {
      copy = std::make_unique<std::uint8_t[]>(bytes.size());
      std::copy(bytes.begin(), bytes.end(), copy.get());
    }
    LLVMFuzzerTestOneInput(copy.get(), bytes.size());
  }
  std::printf("replay: %zu inputs ran\n", files.size());
  return 0;
}
