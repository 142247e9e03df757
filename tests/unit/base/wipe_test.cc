#include "base/wipe.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pstate {
namespace {

TEST(WipeTest, ZeroesStringsVectorsAndRawBytes) {
  std::string s = "hunter2";
  Wipe(s);
  EXPECT_EQ(s, std::string(7, '\0'));
  std::vector<unsigned char> key = {1, 2, 3, 4};
  Wipe(key);
  EXPECT_EQ(key, (std::vector<unsigned char>{0, 0, 0, 0}));
  char raw[3] = {'a', 'b', 'c'};
  Wipe(raw, sizeof raw);
  EXPECT_EQ(raw[0] | raw[1] | raw[2], 0);
  std::string empty;
  Wipe(empty);  // no-op
  Wipe(nullptr, 0);
  EXPECT_TRUE(empty.empty());
}

}  // namespace
}  // namespace pstate
