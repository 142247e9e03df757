// F12: Value::size is 32 bits. A string longer than 4 GiB must be refused
// with a located error, never stored with its length cut to the low bits.
//
// The 4 GiB string is not allocated: one small chunk of memory is mapped
// thousands of times side by side, so the parser scans 4 GiB of address
// space backed by a few MiB.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "json/parser.h"
#include "json/value.h"

namespace pstate::json {
namespace {

#if defined(__SANITIZE_ADDRESS__)
#define PSTATE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PSTATE_SANITIZED 1
#endif
#endif

#ifndef PSTATE_SANITIZED
constexpr std::size_t kChunk = 2u << 20;

/// A memfd of one chunk whose bytes are made by `fill`.
int ChunkFile(const char* name, char body, char first, char last) {
  int fd = ::memfd_create(name, 0);
  if (fd < 0) return -1;
  if (::ftruncate(fd, static_cast<off_t>(kChunk)) != 0) return -1;
  void* p = ::mmap(nullptr, kChunk, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return -1;
  auto* c = static_cast<char*>(p);
  std::memset(c, body, kChunk);
  if (first != 0) c[0] = first;
  if (last != 0) {
    c[kChunk / 2] = last;  // the closing quote, then zero padding
    std::memset(c + kChunk / 2 + 1, 0, kChunk / 2 - 1);
  }
  ::munmap(p, kChunk);
  return fd;
}
#endif

TEST(ValueSizeLimitTest, StringOverFourGibibytesIsALocatedError) {
#ifdef PSTATE_SANITIZED
  GTEST_SKIP() << "4 GiB of shadow memory under AddressSanitizer";
#else
  const std::size_t middle = (std::size_t{4} << 30) / kChunk + 1;
  const std::size_t total = (middle + 2) * kChunk;
  int head = ChunkFile("head", 'A', '"', 0);
  int body = ChunkFile("body", 'A', 0, 0);
  int tail = ChunkFile("tail", 'A', 0, '"');
  ASSERT_GE(head, 0);
  ASSERT_GE(body, 0);
  ASSERT_GE(tail, 0);
  void* region = ::mmap(nullptr, total, PROT_NONE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(region, MAP_FAILED);
  auto* base = static_cast<char*>(region);
  auto map_at = [&](std::size_t index, int fd) {
    return ::mmap(base + index * kChunk, kChunk, PROT_READ,
                  MAP_SHARED | MAP_FIXED, fd, 0) != MAP_FAILED;
  };
  ASSERT_TRUE(map_at(0, head));
  for (std::size_t i = 1; i <= middle; ++i) ASSERT_TRUE(map_at(i, body));
  ASSERT_TRUE(map_at(middle + 1, tail));
  const char* end = base + (middle + 1) * kChunk + kChunk / 2 + 1;
  const std::uint64_t length =
      static_cast<std::uint64_t>(end - base) - 2;  // between the quotes
  ASSERT_GT(length, std::uint64_t{0xFFFFFFFFu});

  Parser parser;
  Arena arena;
  Value value;
  const char* stop = nullptr;
  ParseStatus status =
      parser.Parse(base, end, /*at_eof=*/true, 1000, arena, &value, &stop);
  EXPECT_EQ(status, ParseStatus::kError);
  if (status == ParseStatus::kError) {
    EXPECT_EQ(parser.error().offset, 1000u);  // at the opening quote
    EXPECT_NE(parser.error().message.find(std::to_string(length)),
              std::string::npos)
        << parser.error().message;
  } else {
    ADD_FAILURE() << "a string of " << length
                  << " bytes was accepted with size " << value.size;
  }
  ::munmap(region, total);
  ::close(head);
  ::close(body);
  ::close(tail);
#endif
}

}  // namespace
}  // namespace pstate::json
