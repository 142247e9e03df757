// Sample states shared by the reader's and verify's unit tests, and the
// helpers that locate text in them.
#ifndef PSTATE_TESTS_UNIT_TESTING_STATE_SAMPLES_H_
#define PSTATE_TESTS_UNIT_TESTING_STATE_SAMPLES_H_

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

namespace pstate::testing {

/// "@offset" of the first occurrence of `needle` (after `from`).
inline std::string At(const std::string& text, const std::string& needle,
                      std::size_t from = 0) {
  std::size_t pos = text.find(needle, from);
  EXPECT_NE(pos, std::string::npos) << needle;
  return "@" + std::to_string(pos);
}

/// 1-based "line:column" of the first occurrence of `needle`.
inline std::string LineCol(const std::string& text, const std::string& needle,
                           std::size_t from = 0) {
  std::size_t pos = text.find(needle, from);
  EXPECT_NE(pos, std::string::npos) << needle;
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < pos; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

/// An export with every kind of envelope member, escapes, a duplicate key,
/// unknown members and features: for window-size replays.
inline const std::string kBigState =
    "{\n"
    "    \"version\": 4,\n"
    "    \"deployment\": {\n"
    "        \"manifest\": {\n"
    "            \"time\": \"2024-01-02T03:04:05.123Z\",\n"
    "            \"magic\": \"\",\n"
    "            \"version\": \"\"\n"
    "        },\n"
    "        \"secrets_providers\": {\"type\": \"b64\"},\n"
    "        \"resources\": [\n"
    "            {\n"
    "                \"urn\": "
    "\"urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev\",\n"
    "                \"custom\": false,\n"
    "                \"type\": \"pulumi:pulumi:Stack\",\n"
    "                \"outputs\": {\"text\": \"caf\xC3\xA9 \\u00e9 \\\"q\\\" "
    "\xF0\x9F\x98\x80\", \"n\": 12345678901234567890}\n"
    "            },\n"
    "            {\"urn\": \"urn:pulumi:dev::p::a:b:C::x\", \"urn\": "
    "\"dup\"},\n"
    "            {\"urn\": \"urn:pulumi:dev::p::a:b:C::y\", \"inputs\": "
    "{\"list\": "
    "[1, 2, 3, [4, [5, {\"deep\": true}]]]}}\n"
    "        ],\n"
    "        \"unknownInDeployment\": {\"a\": [1, 2, 3]},\n"
    "        \"p\\u0065nding_operations\": [],\n"
    "        \"metadata\": {},\n"
    "        \"extensions\": {\"e\\u0031\": {\"name\": \"n\"}, \"e2\": null}\n"
    "    },\n"
    "    \"anotherUnknownAtTheRoot\": \"some long text to make the window move "
    "along\",\n"
    "    \"features\": [\"taint\", \"byteString\", \"zzz\"]\n"
    "}\n";

/// A state over 8 MiB (the reader reports progress every 8 MiB read):
/// 9000 resources of type t:m:R named r0..r8999, each with a 1 KiB output.
inline std::string BigState() {
  std::string text = "{\"version\":3,\"deployment\":{\"resources\":[";
  const std::string pad(1024, 'x');
  for (int i = 0; i < 9000; ++i) {
    text += (i ? "," : "") +
            std::string("{\"urn\":\"urn:pulumi:s::p::t:m:R::r") +
            std::to_string(i) +
            "\",\"custom\":false,\"type\":\"t:m:R\",\"outputs\":{\"x\":\"" +
            pad + "\"}}";
  }
  return text + "]}}";
}

}  // namespace pstate::testing

#endif  // PSTATE_TESTS_UNIT_TESTING_STATE_SAMPLES_H_
