#include "io/encoding.h"

namespace pstate::io {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

constexpr std::string_view kUtf16Fix =
    "; Pulumi reads only UTF-8. Windows PowerShell 5.1 writes UTF-16 with "
    "`>`: export with `pulumi stack export --file stack.json` instead, or "
    "convert it with `iconv -f UTF-16 -t UTF-8`";

}  // namespace

std::optional<std::string> ForeignEncoding(std::string_view head) {
  using namespace std::string_view_literals;
  if (StartsWith(head, "\xEF\xBB\xBF"sv)) {
    return "the input starts with a UTF-8 byte-order mark (EF BB BF), which "
           "Pulumi rejects too; remove it (`sed -i '1s/^\\xEF\\xBB\\xBF//' "
           "FILE`) or export with `pulumi stack export --file stack.json`";
  }
  if (StartsWith(head, "\xFF\xFE\0\0"sv) ||
      StartsWith(head, "\0\0\xFE\xFF"sv)) {
    return "the input is UTF-32 (it starts with a UTF-32 byte-order mark); "
           "Pulumi reads only UTF-8: convert it with "
           "`iconv -f UTF-32 -t UTF-8`";
  }
  if (StartsWith(head, "\xFF\xFE"sv)) {
    return "the input is UTF-16LE (it starts with the byte-order mark FF FE)" +
           std::string(kUtf16Fix);
  }
  if (StartsWith(head, "\xFE\xFF"sv)) {
    return "the input is UTF-16BE (it starts with the byte-order mark FE FF)" +
           std::string(kUtf16Fix);
  }
  // ASCII JSON in UTF-16 without a mark: every other byte is NUL.
  if (head.size() >= 4 && head[0] != '\0' && head[1] == '\0' &&
      head[2] != '\0' && head[3] == '\0') {
    return "the input looks like UTF-16LE (NUL bytes between the characters)" +
           std::string(kUtf16Fix);
  }
  if (head.size() >= 4 && head[0] == '\0' && head[1] != '\0' &&
      head[2] == '\0' && head[3] != '\0') {
    return "the input looks like UTF-16BE (NUL bytes between the characters)" +
           std::string(kUtf16Fix);
  }
  return std::nullopt;
}

}  // namespace pstate::io
