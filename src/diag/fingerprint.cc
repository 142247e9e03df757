#include "diag/fingerprint.h"

#include <cstdint>
#include <optional>

#include "base/ascii.h"
#include "base/hex.h"
#include "base/sha256.h"
#include "io/input.h"
#include "json/document.h"

namespace pstate::diag {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

bool IsWordByte(char c) {
  return ascii::IsAlnum(c) || c == '_' || c == '-' || c == '.' || c == ':' ||
         c == '+' || c == '/';
}

std::string LineName(std::string_view name, std::size_t line) {
  return std::string(name) + ":" + std::to_string(line);
}

}  // namespace

std::string LogicalIdentity(std::string_view path) {
  if (path == io::kStdinName || path == "-") return "stdin";
  std::size_t slash = path.find_last_of('/');
  std::string_view base =
      slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::string_view suffix : {".bak", ".gz", ".zst", ".json"}) {
      if (base.size() > suffix.size() && EndsWith(base, suffix)) {
        base.remove_suffix(suffix.size());
        changed = true;
      }
    }
  }
  return std::string(base);
}

std::string NormalizeMessage(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  std::size_t i = 0;
  while (i < message.size()) {
    char c = message[i];
    if (c == '"' || c == '\'') {
      // A quoted value: its contents are data, not the finding's kind.
      std::size_t close = message.find(c, i + 1);
      if (close != std::string_view::npos) {
        out.push_back(c);
        out.push_back(c);
        i = close + 1;
        continue;
      }
    }
    if (IsWordByte(c)) {
      std::size_t end = i;
      bool digit = false;
      while (end < message.size() && IsWordByte(message[end])) {
        digit |= ascii::IsDigit(message[end]);
        ++end;
      }
      if (digit) {
        out.push_back('#');
      } else {
        out.append(message.substr(i, end - i));
      }
      i = end;
      continue;
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

std::string_view ResourceRelativePointer(std::string_view pointer) {
  for (std::string_view prefix :
       {"/deployment/resources/", "/checkpoint/latest/resources/",
        "/latest/resources/"}) {
    if (pointer.substr(0, prefix.size()) != prefix) continue;
    std::string_view rest = pointer.substr(prefix.size());
    std::size_t slash = rest.find('/');
    std::string_view index =
        slash == std::string_view::npos ? rest : rest.substr(0, slash);
    if (!ascii::AllDigits(index)) return pointer;
    return slash == std::string_view::npos ? std::string_view()
                                           : rest.substr(slash + 1);
  }
  return pointer;
}

std::string Fingerprint(const Finding& finding, std::string_view identity,
                        std::string_view file) {
  std::string input = "pstate-fingerprint/1";
  input.push_back('\0');
  input.append(finding.code_name());
  input.push_back('\0');
  if (finding.urn.empty()) {
    input.append(identity);
    input.push_back('\0');
    input.append(finding.pointer);
  } else {
    input.append(finding.urn);
    input.push_back('\0');
    input.append(ResourceRelativePointer(finding.pointer));
  }
  input.push_back('\0');
  std::string message = finding.message;
  if (!file.empty()) {
    for (std::size_t at = message.find(file); at != std::string::npos;
         at = message.find(file, at)) {
      message.erase(at, file.size());
    }
  }
  input.append(NormalizeMessage(message));
  std::optional<Sha256::Digest> digest = Sha256::Of(input);
  if (!digest) return std::string(32, '0');  // out of memory: never seen
  return HexEncode(std::span<const std::uint8_t>(digest->data(), 16));
}

}  // namespace pstate::diag

// The API's (pstate/pstate.h).
namespace pstate {

using diag::LineName;

bool FindingFilter::Admits(const Finding& finding) const {
  if (!only.empty() && only.count(finding.code) == 0) return false;
  if (skip.count(finding.code) != 0) return false;
  return fingerprints.count(finding.fingerprint) == 0;
}

Result<std::vector<std::string>> ParseBaseline(std::string_view text,
                                               std::string_view name) {
  std::vector<std::string> out;
  auto take = [&out](const json::Value* fp) {
    if (fp != nullptr && fp->is_string()) out.push_back(fp->Str());
  };
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return out;  // an empty report
  // SARIF: one document with "runs".
  {
    auto doc = json::Document::Parse(std::string(text));
    if (doc.ok() && doc->root().is_object() &&
        doc->root().Find("runs") != nullptr) {
      const json::Value* runs = doc->root().Find("runs");
      if (!runs->is_array()) {
        return Result<std::vector<std::string>>(
            Errc::kFormat, std::string(name) + ": \"runs\" is not an array");
      }
      for (const json::Value& run : runs->array()) {
        const json::Value* results = run.Find("results");
        if (results == nullptr || !results->is_array()) continue;
        for (const json::Value& result : results->array()) {
          const json::Value* pf = result.Find("partialFingerprints");
          if (pf != nullptr && pf->is_object()) take(pf->Find("pstate/v1"));
        }
      }
      return out;
    }
  }
  // JSON Lines from --format json: one object per input per line.
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
      if (end == text.size()) break;
      continue;
    }
    json::DocumentError error;
    auto doc = json::Document::Parse(std::string(line), 64, &error);
    if (!doc.ok()) {
      return Result<std::vector<std::string>>(
          Errc::kSyntax,
          LineName(name, line_no) + ":" + std::to_string(error.at.column) +
              ": not a pstate JSON or SARIF report: " + error.message);
    }
    const json::Value* findings =
        doc->root().is_object() ? doc->root().Find("findings") : nullptr;
    if (findings == nullptr || !findings->is_array()) {
      return Result<std::vector<std::string>>(
          Errc::kFormat, LineName(name, line_no) +
                             ": not a pstate report line (no \"findings\" "
                             "array; use a --format json or sarif report)");
    }
    for (const json::Value& f : findings->array()) {
      if (f.is_object()) take(f.Find("fingerprint"));
    }
    if (end == text.size()) break;
  }
  return out;
}

Result<std::vector<std::string>> ParseIgnoreFile(std::string_view text,
                                                 std::string_view name) {
  std::vector<std::string> out;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    std::size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    std::size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) continue;
    std::size_t e = line.find_last_not_of(" \t\r");
    std::string_view fp = line.substr(b, e - b + 1);
    if (!IsLowerHex(fp, 32)) {
      return Result<std::vector<std::string>>(
          Errc::kFormat,
          LineName(name, line_no) + ":" + std::to_string(b + 1) +
              ": expected a fingerprint (32 lowercase hex digits) and an "
              "optional # comment");
    }
    out.emplace_back(fp);
  }
  return out;
}

}  // namespace pstate
