#include "engine/boundary.h"

#include <gtest/gtest.h>

#include <string>

namespace pstate::engine {
namespace {

using state::ScanStatus;

struct Scan {
  ScanStatus status;
  std::size_t length = 0;  ///< bytes of the value, when kOk
};

/// Scans `text` from its start, with the padding the scanner may read.
Scan ScanText(const std::string& text, bool at_eof = true) {
  std::string padded = text + std::string(64, '\0');
  const char* stop = nullptr;
  ScanStatus st =
      FindValueEnd(padded.data(), padded.data() + text.size(), at_eof, &stop);
  Scan out{st};
  if (st == ScanStatus::kOk) {
    out.length = static_cast<std::size_t>(stop - padded.data());
  }
  return out;
}

void ExpectValue(const std::string& value, const std::string& after) {
  Scan s = ScanText(value + after);
  ASSERT_EQ(s.status, ScanStatus::kOk) << value;
  EXPECT_EQ(s.length, value.size()) << value;
}

TEST(FindValueEnd, ObjectsAndArrays) {
  ExpectValue("{}", ",{}");
  ExpectValue("[]", "]");
  ExpectValue(R"({"a": [1, {"b": []}], "c": {}})", "\n  ,");
  ExpectValue(R"([[[[]]], {"x": [[]]}])", "]}");
}

TEST(FindValueEnd, BracketsAndQuotesInsideStrings) {
  ExpectValue(R"({"a": "}]{[", "b": "]"})", ",");
  ExpectValue(R"({"a": "say \"}\" then \\", "b": 1})", "]");
  ExpectValue(R"({"\"}": "\\\"]"})", ",");
  ExpectValue(R"(["\\", "\\\\", "\\\""])", ",");
  ExpectValue(R"({"u": "\u005d\u007d"})", ",");
}

TEST(FindValueEnd, LongValuesCrossManyBlocks) {
  std::string big = "{\"k\": \"" + std::string(1000, 'x') + "\\\"" +
                    std::string(37, '}') + "\", \"l\": [" +
                    std::string(500, ' ') + "]}";
  ExpectValue(big, ",");
}

TEST(FindValueEnd, StringsAndScalars) {
  ExpectValue(R"("a\"b")", ",");
  ExpectValue("null", ",");
  ExpectValue("-12.5e3", "]");
  ExpectValue("true", " ,");
  ExpectValue("1", "\n");
  EXPECT_EQ(ScanText("123", /*at_eof=*/true).length, 3u);
}

TEST(FindValueEnd, TruncatedValuesNeedMoreOrFail) {
  for (const char* text :
       {R"({"a": [1, 2)", R"({"a": "}])", R"(["\)", R"("abc)", "12"}) {
    EXPECT_EQ(ScanText(text, /*at_eof=*/false).status, ScanStatus::kIncomplete)
        << text;
  }
  for (const char* text : {R"({"a": [1, 2)", R"({"a": "}])", R"(["\)"}) {
    EXPECT_EQ(ScanText(text, /*at_eof=*/true).status, ScanStatus::kError)
        << text;
  }
  EXPECT_EQ(ScanText("", /*at_eof=*/false).status, ScanStatus::kIncomplete);
  EXPECT_EQ(ScanText("", /*at_eof=*/true).status, ScanStatus::kError);
}

TEST(FindValueEnd, NoValueStartIsAnError) {
  for (const char* text : {",", "]", "}", ":", " {}"}) {
    EXPECT_EQ(ScanText(text).status, ScanStatus::kError) << text;
  }
}

}  // namespace
}  // namespace pstate::engine
