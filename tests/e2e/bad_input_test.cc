// Bad input through the built pstate binary: every kind of broken file
// gets a clear, located error and exit 2 — never a crash, a hang or a
// silent pass. Also: huge but valid values pass, secrets never reach the
// output, the JSON/SARIF outputs have the right shape, colour follows
// NO_COLOR / --color.
//
// Inputs are generated in a temp dir; many inputs are verified in one
// `pstate verify --format json` call (an ASan start costs ~60 ms) and
// each file's line is checked. Every run is under `timeout`.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace pstate_e2e {
namespace {

const fs::path kStates = fs::path(PSTATE_FIXTURES_DIR) / "states";

constexpr const char* kSig = "\"4dabf18193072939515e22adb298388d\"";

/// A pretty-printed state whose stack outputs are `outputs` (JSON text).
std::string StateWithOutputs(const std::string& outputs,
                             const std::string& deployment_extra = "") {
  return "{\n    \"version\": 3,\n    \"deployment\": {\n"
         "        \"manifest\": {\"time\": \"2024-01-01T00:00:00Z\", "
         "\"magic\": \"\", \"version\": \"\"},\n" +
         deployment_extra +
         "        \"resources\": [\n"
         "            {\"urn\": \"urn:pulumi:dev::proj::pulumi:pulumi:Stack::"
         "proj-dev\", \"custom\": false, \"type\": \"pulumi:pulumi:Stack\",\n"
         "             \"outputs\": " +
         outputs + "}\n        ]\n    }\n}\n";
}

/// Verifies `files` in one call; returns each file's result by path and
/// the run. Fails the test if a file has no line.
struct Batch {
  RunResult run;
  std::map<std::string, FileResult> by_file;
};

Batch VerifyAll(const std::vector<fs::path>& files, const fs::path& work,
                int timeout_seconds = 60) {
  std::string args = "verify --format json --max-findings 0";
  for (const fs::path& f : files) args += " " + ShellQuote(f.string());
  Batch b;
  b.run = RunPstate(args, work, "/dev/null", timeout_seconds);
  EXPECT_TRUE(b.run.exited) << "pstate was killed";
  EXPECT_NE(b.run.exit_code, 124) << "pstate timed out";
  EXPECT_FALSE(b.run.sanitizer_report()) << b.run.err.substr(0, 4000);
  for (FileResult& r : ParseJsonLines(b.run.out)) {
    std::string key = r.file;
    b.by_file[key] = std::move(r);
  }
  for (const fs::path& f : files) {
    EXPECT_TRUE(b.by_file.count(f.string()))
        << "no result for " << f << "\nstderr:\n"
        << b.run.err.substr(0, 4000);
  }
  return b;
}

std::string Describe(const FileResult& r) {
  std::string s = r.file + ": errors=" + std::to_string(r.errors) + ":";
  for (const Finding& f : r.findings) {
    s += " " + f.code + "@" + std::to_string(f.line) + ":" +
         std::to_string(f.column);
  }
  return s;
}

/// The single fatal finding of an unreadable file (exit 2), or nullptr.
const Finding* FatalOf(const FileResult& r) {
  const Finding* fatal = nullptr;
  int count = 0;
  for (const Finding& f : r.findings) {
    if (IsFatalCode(f.code)) {
      fatal = &f;
      ++count;
    }
  }
  EXPECT_LE(count, 1) << Describe(r);
  return fatal;
}

/// `r` is unreadable with `code` (any fatal code when empty), located at
/// a real place of `bytes` (the file's content) when `bytes` is given.
void ExpectUnreadable(const FileResult& r, const std::string& code,
                      const std::string* bytes) {
  const Finding* fatal = FatalOf(r);
  ASSERT_NE(fatal, nullptr) << "expected exit 2: " << Describe(r);
  if (!code.empty()) EXPECT_EQ(fatal->code, code) << Describe(r);
  if (bytes) {
    ASSERT_GE(fatal->line, 1) << Describe(r);
    ASSERT_GE(fatal->column, 1) << Describe(r);
    EXPECT_GE(OffsetOf(*bytes, fatal->line, fatal->column), 0)
        << "location is not in the file: " << Describe(r);
  }
}

/// The text output of one unreadable file names it with line:column.
void ExpectTextLocated(const fs::path& file, const fs::path& work,
                       const std::string& code) {
  RunResult r = RunPstate("verify " + ShellQuote(file.string()), work);
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  std::string head = file.string() + ":";
  std::size_t at = r.out.find(head);
  ASSERT_EQ(at, 0u) << r.out;
  std::size_t i = head.size();
  auto digits = [&]() {
    std::size_t n = 0;
    while (i < r.out.size() &&
           std::isdigit(static_cast<unsigned char>(r.out[i]))) {
      ++i;
      ++n;
    }
    return n;
  };
  EXPECT_GT(digits(), 0u) << r.out;
  EXPECT_EQ(r.out[i++], ':') << r.out;
  EXPECT_GT(digits(), 0u) << r.out;
  EXPECT_EQ(r.out.compare(i, 9 + code.size(), ": error[" + code + "]"), 0)
      << r.out;
}

std::string Slurp(const fs::path& p) { return ReadFile(p); }

// ---------------------------------------------------------------------------

TEST(BadInput, TruncatedAtEverySeventhByte) {
  TempDir tmp("truncated");
  // Pretty and compact JSON, every property-value kind, raw multi-byte
  // UTF-8 (cuts land inside characters too), CRLF line ends.
  std::string utf8 = StateWithOutputs(
      "{\"name\": \"Gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80\", "
      "\"n\": [1.5e10, -0, true, false, null]}");
  std::string crlf = utf8;
  for (std::size_t p = 0; (p = crlf.find('\n', p)) != std::string::npos;
       p += 2) {
    crlf.replace(p, 1, "\r\n");
  }
  std::vector<std::pair<std::string, std::string>> sources = {
      {"full", Slurp(kStates / "valid" / "full-export.json")},
      {"compact", Slurp(kStates / "valid" / "checkpoint-compact.json")},
      {"utf8", utf8},
      {"crlf", crlf},
  };
  std::vector<fs::path> files;
  std::map<std::string, std::string> content;
  for (const auto& [name, bytes] : sources) {
    ASSERT_FALSE(bytes.empty()) << name;
    std::size_t complete = bytes.rfind('}') + 1;  // shorter is incomplete
    for (std::size_t n = 0; n < complete; n += 7) {
      fs::path f = tmp.path() / (name + "-" + std::to_string(n) + ".json");
      WriteFile(f, bytes.substr(0, n));
      files.push_back(f);
      content[f.string()] = bytes.substr(0, n);
    }
  }
  Batch b = VerifyAll(files, tmp.path());
  EXPECT_EQ(b.run.exit_code, 2);
  for (const fs::path& f : files) {
    auto it = b.by_file.find(f.string());
    if (it == b.by_file.end()) continue;
    ExpectUnreadable(it->second, "", &content[f.string()]);
  }
  // A sample alone, in text: "<file>:<line>:<column>: error[...]".
  for (std::size_t i = 0; i < files.size(); i += 40) {
    const std::string& bytes = content[files[i].string()];
    std::string code = bytes.find_first_not_of(" \r\n\t") == std::string::npos
                           ? "json-syntax"
                           : "";
    if (!code.empty() || true) {
      RunResult r =
          RunPstate("verify " + ShellQuote(files[i].string()), tmp.path());
      EXPECT_EQ(r.exit_code, 2) << files[i];
      EXPECT_EQ(r.out.rfind(files[i].string() + ":", 0), 0u) << r.out;
    }
  }
}

TEST(BadInput, EmptyAndBlank) {
  TempDir tmp("empty");
  std::vector<std::string> inputs = {"", " ", "\n\n\n", "\t\r\n ",
                                     "\xef\xbb\xbf"};
  std::vector<fs::path> files;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    fs::path f = tmp.path() / ("blank-" + std::to_string(i) + ".json");
    WriteFile(f, inputs[i]);
    files.push_back(f);
  }
  Batch b = VerifyAll(files, tmp.path());
  EXPECT_EQ(b.run.exit_code, 2);
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto it = b.by_file.find(files[i].string());
    if (it == b.by_file.end()) continue;
    ExpectUnreadable(it->second, "json-syntax", &inputs[i]);
  }
  ExpectTextLocated(files[0], tmp.path(), "json-syntax");
}

TEST(BadInput, TrailingGarbage) {
  TempDir tmp("trailing");
  std::string state = Slurp(kStates / "valid" / "minimal.json");
  std::vector<std::string> tails = {
      "}", "x",          "{}",   std::string(1, '\0'), "\xff", "//", ",",
      "]", "\n\n  null", "\"\"", "{\"version\":3}"};
  std::vector<fs::path> files;
  std::vector<std::string> bytes;
  for (std::size_t i = 0; i < tails.size(); ++i) {
    fs::path f = tmp.path() / ("tail-" + std::to_string(i) + ".json");
    bytes.push_back(state + tails[i]);
    WriteFile(f, bytes.back());
    files.push_back(f);
  }
  Batch b = VerifyAll(files, tmp.path());
  EXPECT_EQ(b.run.exit_code, 2);
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto it = b.by_file.find(files[i].string());
    if (it == b.by_file.end()) continue;
    ExpectUnreadable(it->second, "json-syntax", &bytes[i]);
    const Finding* f = FatalOf(it->second);
    if (f) {  // located in the garbage, after the document
      EXPECT_GE(OffsetOf(bytes[i], f->line, f->column),
                static_cast<std::int64_t>(state.size()))
          << Describe(it->second);
    }
  }
  ExpectTextLocated(files[1], tmp.path(), "json-syntax");
}

TEST(BadInput, InvalidUtf8IsLocatedAtTheByte) {
  TempDir tmp("utf8");
  // Each is placed inside a string value; the finding must point at the
  // first byte of the invalid sequence.
  struct Bad {
    std::string bytes;
    std::size_t bad_at;  ///< offset of the invalid sequence within `bytes`
  };
  std::vector<Bad> bad = {
      {"\xff", 0},                  // never valid
      {"\x80", 0},                  // lone continuation byte
      {"ok\xc0\xaf", 2},            // overlong '/'
      {"\xed\xa0\x80", 0},          // UTF-16 surrogate
      {"\xf4\x90\x80\x80", 0},      // above U+10FFFF
      {"\xe2\x82", 0},              // cut short by the closing quote
      {"\xf8\x88\x80\x80\x80", 0},  // 5-byte form
  };
  std::vector<fs::path> files;
  std::vector<std::string> contents;
  std::vector<std::size_t> expected;
  for (std::size_t i = 0; i < bad.size(); ++i) {
    std::string head = StateWithOutputs("{\"s\": \"");
    head = head.substr(0, head.find("{\"s\": \"") + 7);
    std::string doc = StateWithOutputs("{\"s\": \"" + bad[i].bytes + "\"}");
    fs::path f = tmp.path() / ("utf8-" + std::to_string(i) + ".json");
    WriteFile(f, doc);
    files.push_back(f);
    contents.push_back(doc);
    expected.push_back(head.size() + bad[i].bad_at);
  }
  // In a key, and in the URN.
  {
    std::string doc = StateWithOutputs("{\"k\xff\": 1}");
    fs::path f = tmp.path() / "utf8-key.json";
    WriteFile(f, doc);
    files.push_back(f);
    contents.push_back(doc);
    expected.push_back(doc.find('\xff'));
  }
  Batch b = VerifyAll(files, tmp.path());
  EXPECT_EQ(b.run.exit_code, 2);
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto it = b.by_file.find(files[i].string());
    if (it == b.by_file.end()) continue;
    ExpectUnreadable(it->second, "json-invalid-utf8", &contents[i]);
    const Finding* f = FatalOf(it->second);
    if (f) {
      EXPECT_EQ(OffsetOf(contents[i], f->line, f->column),
                static_cast<std::int64_t>(expected[i]))
          << Describe(it->second);
    }
  }
  // Outside strings an invalid byte is a syntax error.
  fs::path outside = tmp.path() / "utf8-outside.json";
  WriteFile(outside, StateWithOutputs("{\"s\": \xff}"));
  ExpectTextLocated(outside, tmp.path(), "json-syntax");
  ExpectTextLocated(files[0], tmp.path(), "json-invalid-utf8");
}

TEST(BadInput, NestingOneHundredThousandDeep) {
  TempDir tmp("deep");
  const std::size_t kDepth = 100000;
  std::vector<fs::path> files;
  auto add = [&](const std::string& name, const std::string& doc) {
    fs::path f = tmp.path() / name;
    WriteFile(f, doc);
    files.push_back(f);
  };
  add("arrays.json", StateWithOutputs("{\"v\": " + std::string(kDepth, '[') +
                                      std::string(kDepth, ']') + "}"));
  std::string objects;
  for (std::size_t i = 0; i < kDepth; ++i) objects += "{\"a\":";
  objects += "1" + std::string(kDepth, '}');
  add("objects.json", StateWithOutputs("{\"v\": " + objects + "}"));
  // Unclosed, as in JSONTestSuite's n_structure_100000_opening_arrays.
  add("unclosed.json", StateWithOutputs("{\"v\": " + std::string(kDepth, '[')));
  // As an unknown envelope member, and as the whole document.
  add("envelope.json", "{\"x\": " + std::string(kDepth, '[') +
                           std::string(kDepth, ']') + ", " +
                           Slurp(kStates / "valid" / "minimal.json").substr(1));
  add("document.json", std::string(kDepth, '[') + std::string(kDepth, ']'));
  Batch b = VerifyAll(files, tmp.path(), 30);
  EXPECT_EQ(b.run.exit_code, 2);
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto it = b.by_file.find(files[i].string());
    if (it == b.by_file.end()) continue;
    std::string bytes = Slurp(files[i]);
    // The whole-document array is rejected for what it is.
    std::string code = files[i].filename() == "document.json" ? "not-a-state"
                                                              : "json-too-deep";
    ExpectUnreadable(it->second, code, &bytes);
  }
  ExpectTextLocated(files[0], tmp.path(), "json-too-deep");

  // Deep nesting inside a secret's plaintext: reported, not a crash.
  std::string inner = std::string(kDepth, '[') + std::string(kDepth, ']');
  std::string secret = std::string("{\"p\": {") + kSig +
                       ": \"1b47061264138c4ac30d75fd1eb44270\", "
                       "\"plaintext\": \"" +
                       inner + "\"}}";
  fs::path f = tmp.path() / "secret.json";
  WriteFile(f, StateWithOutputs(secret));
  RunResult r = RunPstate("verify " + ShellQuote(f.string()), tmp.path());
  EXPECT_TRUE(r.exited);
  EXPECT_FALSE(r.sanitizer_report()) << r.err.substr(0, 4000);
  EXPECT_LE(r.exit_code, 1) << r.out;
}

TEST(BadInput, TenMegabyteStrings) {
  TempDir tmp("large");
  const std::size_t kSize = 10u << 20;
  std::vector<fs::path> ok;
  auto add = [&](std::vector<fs::path>& to, const std::string& name,
                 const std::string& doc) {
    fs::path f = tmp.path() / name;
    WriteFile(f, doc);
    to.push_back(f);
  };
  add(ok, "plain.json",
      StateWithOutputs("{\"v\": \"" + std::string(kSize, 'a') + "\"}"));
  std::string escaped;
  while (escaped.size() < kSize)
    escaped += "\\u00e9\\n\\\"\xc3\xa9\\ud83d\\ude00";
  add(ok, "escaped.json", StateWithOutputs("{\"v\": \"" + escaped + "\"}"));
  add(ok, "key.json",
      StateWithOutputs("{\"" + std::string(kSize, 'k') + "\": 1}"));
  // A 10 MB secret plaintext: the JSON text of a 10 MB string.
  add(ok, "secret.json",
      StateWithOutputs(std::string("{\"p\": {") + kSig +
                       ": \"1b47061264138c4ac30d75fd1eb44270\", "
                       "\"plaintext\": \"\\\"" +
                       std::string(kSize, 's') + "\\\"\"}}"));
  Batch b = VerifyAll(ok, tmp.path(), 60);
  EXPECT_EQ(b.run.exit_code, 0) << b.run.out.substr(0, 2000);
  for (const fs::path& f : ok) {
    auto it = b.by_file.find(f.string());
    if (it == b.by_file.end()) continue;
    EXPECT_EQ(it->second.errors, 0) << Describe(it->second);
    EXPECT_EQ(it->second.findings.size(), 0u) << Describe(it->second);
  }
  // Unterminated: exit 2 at the end of the input.
  std::vector<fs::path> bad;
  add(bad, "unterminated.json",
      StateWithOutputs("{\"v\": \"" + std::string(kSize, 'a'))
          .substr(0, kSize + 300));
  Batch u = VerifyAll(bad, tmp.path(), 60);
  EXPECT_EQ(u.run.exit_code, 2);
  if (u.by_file.count(bad[0].string())) {
    std::string bytes = Slurp(bad[0]);
    ExpectUnreadable(u.by_file[bad[0].string()], "json-syntax", &bytes);
  }
}

TEST(BadInput, NumbersBeyondTwoToThe64) {
  TempDir tmp("numbers");
  // Valid JSON numbers of any size are fine as property values.
  fs::path values = tmp.path() / "values.json";
  WriteFile(values,
            StateWithOutputs("{\"a\": 18446744073709551616, \"b\": "
                             "-18446744073709551617, \"c\": 1e400, \"d\": "
                             "-1E-400, \"e\": 123456789012345678901234567890."
                             "123456789e+123456789, \"f\": " +
                             std::string(5000, '9') + "}"));
  RunResult r = RunPstate("verify " + ShellQuote(values.string()), tmp.path());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // As the version they are not a version Pulumi reads.
  std::string minimal = Slurp(kStates / "valid" / "minimal.json");
  std::vector<fs::path> files;
  std::vector<std::string> contents;
  for (std::string v : {"18446744073709551616", "-18446744073709551617",
                        "1e400", "3.0", "-1", "99999999999999999999999999"}) {
    std::string doc = minimal;
    doc.replace(doc.find("\"version\": 3"), 12, "\"version\": " + v);
    fs::path f =
        tmp.path() / ("version-" + std::to_string(files.size()) + ".json");
    WriteFile(f, doc);
    files.push_back(f);
    contents.push_back(doc);
  }
  Batch b = VerifyAll(files, tmp.path());
  EXPECT_EQ(b.run.exit_code, 2);
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto it = b.by_file.find(files[i].string());
    if (it == b.by_file.end()) continue;
    ExpectUnreadable(it->second, "version-unsupported", &contents[i]);
  }
  ExpectTextLocated(files[0], tmp.path(), "version-unsupported");
}

TEST(BadInput, NotAStateDocuments) {
  TempDir tmp("notastate");
  std::string minimal = Slurp(kStates / "valid" / "minimal.json");
  std::vector<std::string> docs = {
      "[" + minimal + "]",
      "[]",
      "\"state\"",
      "42",
      "-1",
      "null",
      "true",
      "{}",
      "{\"resources\": []}",
      "{\"deployment\": {}, \"checkpoint\": {}}",  // no version
  };
  std::vector<fs::path> files;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    fs::path f = tmp.path() / ("doc-" + std::to_string(i) + ".json");
    WriteFile(f, docs[i]);
    files.push_back(f);
  }
  Batch b = VerifyAll(files, tmp.path());
  EXPECT_EQ(b.run.exit_code, 2);
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto it = b.by_file.find(files[i].string());
    if (it == b.by_file.end()) continue;
    ExpectUnreadable(
        it->second,
        i + 1 == docs.size() ? "version-unsupported" : "not-a-state", &docs[i]);
  }
  ExpectTextLocated(files[0], tmp.path(), "not-a-state");
}

TEST(BadInput, CompressedInputCutShort) {
  TempDir tmp("compressed");
  // Big enough that some cuts fail mid-stream, after data was read.
  std::string big = StateWithOutputs(
      "{\"v\": \"" + std::string(3u << 20, 'x') + "\", \"w\": [" +
      [] {
        std::string s;
        for (int i = 0; i < 20000; ++i)
          s += (i ? "," : "") + std::to_string(i * 7919);
        return s;
      }() +
      "]}");
  fs::path plain = tmp.path() / "state.json";
  WriteFile(plain, big);
  std::vector<fs::path> files;
  for (const char* tool : {"gzip", "zstd"}) {
    fs::path packed = tmp.path() / (std::string("state.") + tool);
    std::string cmd = std::string(tool) +
                      (std::string(tool) == "gzip" ? " -n" : " -q") + " -c " +
                      ShellQuote(plain.string()) + " > " +
                      ShellQuote(packed.string());
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::string bytes = Slurp(packed);
    // Whole: verifies fine.
    files.push_back(packed);
    // Cut short: in the magic, the header, the data, the trailer.
    std::vector<std::size_t> cuts = {1, 2, 3, 4, 5, 9, 10, 11, 20, 100};
    for (std::size_t n = 1000; n < bytes.size(); n += bytes.size() / 7)
      cuts.push_back(n);
    for (std::size_t back : {1u, 2u, 4u, 7u, 8u, 9u})
      cuts.push_back(bytes.size() - back);
    // Followed by bytes that are not another member/frame.
    for (const std::string& junk :
         {std::string("junk\n"), std::string(4, '\0')}) {
      fs::path f = tmp.path() / (std::string("cut-") + tool + "-garbage-" +
                                 std::to_string(junk.size()));
      WriteFile(f, bytes + junk);
      files.push_back(f);
    }
    for (std::size_t n : cuts) {
      fs::path f =
          tmp.path() / (std::string("cut-") + tool + "-" + std::to_string(n));
      WriteFile(f, bytes.substr(0, n));
      files.push_back(f);
    }
  }
  Batch b = VerifyAll(files, tmp.path(), 120);
  EXPECT_EQ(b.run.exit_code, 2);
  for (const fs::path& f : files) {
    auto it = b.by_file.find(f.string());
    if (it == b.by_file.end()) continue;
    if (f.filename().string().rfind("cut-", 0) != 0) {
      EXPECT_EQ(it->second.errors, 0) << Describe(it->second);
      continue;
    }
    // Too short to carry the magic: read as plain bytes, a syntax error.
    // Otherwise an io-error (cut short, or data after the stream).
    const Finding* fatal = FatalOf(it->second);
    ASSERT_NE(fatal, nullptr) << "cut input accepted: " << Describe(it->second);
    EXPECT_TRUE(fatal->code == "io-error" || fatal->code == "json-syntax")
        << Describe(it->second);
  }
  // The message names the file and says what is wrong.
  for (const char* tool : {"gzip", "zstd"}) {
    fs::path f = tmp.path() / (std::string("cut-") + tool + "-100");
    RunResult r = RunPstate("verify " + ShellQuote(f.string()), tmp.path());
    EXPECT_EQ(r.exit_code, 2);
    // The file is named once, at the start of the line.
    EXPECT_EQ(r.out.rfind(f.string() + ": error[io-error]: cannot decompress " +
                              tool + " input: ",
                          0),
              0u)
        << r.out;
    EXPECT_NE(r.out.find("runcated"), std::string::npos) << r.out;
  }
}

TEST(BadInput, StandardInput) {
  TempDir tmp("stdin");
  fs::path bad = tmp.path() / "bad.json";
  WriteFile(bad, "{\"version\": 3, \"deployment\": {");
  RunResult r = RunPstate("verify -", tmp.path(), bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out.rfind("<stdin>:1:31: error[json-syntax]: ", 0), 0u) << r.out;
  fs::path packed = tmp.path() / "cut.gz";
  std::string cmd =
      "gzip -n -c " +
      ShellQuote((kStates / "valid" / "full-export.json").string()) +
      " | head -c 200 > " + ShellQuote(packed.string());
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  r = RunPstate("verify -", tmp.path(), packed.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(
      r.out.rfind("<stdin>: error[io-error]: cannot decompress gzip input", 0),
      0u)
      << r.out;
  // stdin among files.
  r = RunPstate(
      "verify " + ShellQuote((kStates / "valid" / "minimal.json").string()) +
          " - " + ShellQuote((kStates / "valid" / "v4-features.json").string()),
      tmp.path(), (kStates / "valid" / "full-export.json.zst").string());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(
      r.out.find("\n<stdin>: 0 errors, 0 warnings, 0 notes in 4 resources\n"),
      std::string::npos)
      << r.out;
}

// ---------------------------------------------------------------------------

/// A state holding secrets in every form verify looks into, each with a
/// problem so that findings are reported right next to them.
TEST(Secrets, NeverInTheOutput) {
  TempDir tmp("secrets");
  const std::string secret_sig = "\"1b47061264138c4ac30d75fd1eb44270\"";
  // The signature key as written inside a plaintext JSON string.
  const std::string kEscSig = "\\\"4dabf18193072939515e22adb298388d\\\"";
  auto secret = [&](const std::string& field, const std::string& text) {
    return std::string("{") + kSig + ": " + secret_sig + ", \"" + field +
           "\": \"" + text + "\"}";
  };
  // Plaintexts are JSON texts, written escaped inside the JSON string.
  std::vector<std::string> values = {
      "PlainSecret01",  "PlainSecret02",  "PlainSecret03",  "PlainSecret04",
      "PlainSecret05",  "PlainSecret06",  "PlainSecret07",  "PlainSecret08",
      "CipherSecret09", "CipherSecret10", "ConfigSecret11", "PlainSecret12"};
  std::string outputs =
      "{\n"
      // Not a JSON text (a bare word).
      "  \"a\": " +
      secret("plaintext", "PlainSecret01 and more") +
      ",\n"
      // A JSON text with a syntax error after the secret.
      "  \"b\": " +
      secret("plaintext", "[\\\"PlainSecret02\\\", }") +
      ",\n"
      // An unknown signature whose value is the secret.
      "  \"c\": " +
      secret("plaintext",
             std::string("{") + kEscSig + ": \\\"PlainSecret03\\\"}") +
      ",\n"
      // A dangling resource reference naming the secret.
      "  \"d\": " +
      secret("plaintext", std::string("{") + kEscSig +
                              ": \\\"5cf8f73096256a8f31e491e813e4eb8e\\\", "
                              "\\\"urn\\\": \\\"PlainSecret04\\\"}") +
      ",\n"
      // A nested secret whose inner text is broken.
      "  \"e\": " +
      secret("plaintext", std::string("{") + kEscSig +
                              ": \\\"1b47061264138c4ac30d75fd1eb44270\\\", "
                              "\\\"ciphertext\\\": \\\"PlainSecret05 {\\\"}") +
      ",\n"
      // Bad special float / byte string / asset carrying the secret.
      "  \"f\": " +
      secret("plaintext", std::string("{") + kEscSig +
                              ": \\\"8ad145fe-0d11-4827-bfd7-1abcbf086f5c\\\", "
                              "\\\"value\\\": \\\"PlainSecret06\\\"}") +
      ",\n"
      "  \"g\": " +
      secret("plaintext", std::string("{") + kEscSig +
                              ": \\\"803fd3297a5875dc03ca845dda5d2a98\\\", "
                              "\\\"value\\\": \\\"PlainSecret07!\\\"}") +
      ",\n"
      // A key inside the plaintext (the pointer must stop at the string).
      "  \"k\": " +
      secret("plaintext", std::string("{\\\"PlainSecret12\\\": {") + kEscSig +
                              ": \\\"8ad145fe-0d11-4827-bfd7-1abcbf086f5c\\\", "
                              "\\\"value\\\": 7}}") +
      ",\n"
      // Both fields.
      "  \"h\": {" +
      std::string(kSig) + ": " + secret_sig +
      ", \"plaintext\": \"\\\"PlainSecret08\\\"\", \"ciphertext\": "
      "\"PlainSecret08\"},\n"
      // Malformed ciphertexts for the passphrase provider.
      "  \"i\": " +
      secret("ciphertext", "v1:CipherSecret09") +
      ",\n"
      "  \"j\": " +
      secret("ciphertext", "v2:AAAAAAAAAAAAAAAA:CipherSecret10AA") +
      "\n"
      "}";
  std::string doc = StateWithOutputs(
      outputs,
      "        \"secrets_providers\": {\"type\": \"passphrase\", \"state\": "
      "{\"salt\": \"v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQH"
      "qC5mMRIQ==\"}},\n");
  fs::path f = tmp.path() / "secrets.json";
  WriteFile(f, doc);
  // Secure config values in a checkpoint.
  fs::path cp = tmp.path() / "config.json";
  WriteFile(cp,
            "{\"version\":3,\"checkpoint\":{\"stack\":\"dev\",\"config\":{"
            "\"p:a\":{\"secure\":\"ConfigSecret11\"},\"p:b\":{\"secure\":5}},"
            "\"latest\":{\"manifest\":{\"time\":\"2024-01-01T00:00:00Z\","
            "\"magic\":\"\",\"version\":\"\"},\"secrets_providers\":{\"type\":"
            "\"passphrase\",\"state\":{\"salt\":\"v1:x\"}}}}}");
  std::string args = ShellQuote(f.string()) + " " + ShellQuote(cp.string());
  std::string all;
  for (const char* format : {"text", "json", "sarif"}) {
    RunResult r = RunPstate(
        std::string("verify --max-findings 0 --format ") + format + " " + args,
        tmp.path());
    EXPECT_EQ(r.exit_code, 1) << format << "\n" << r.out << r.err;
    EXPECT_FALSE(r.sanitizer_report()) << r.err;
    all += r.out + r.err;
    if (std::string(format) == "text") {
      // The problems were found (so the test looks where secrets are).
      for (const char* code :
           {"secret-plaintext-invalid", "sig-unknown", "resource-ref-dangling",
            "float-invalid", "bytes-invalid", "secret-invalid",
            "secret-ciphertext-malformed", "config-secure-invalid"}) {
        EXPECT_NE(r.out.find(std::string("[") + code + "]"), std::string::npos)
            << code << "\n"
            << r.out;
      }
    }
  }
  for (const std::string& v : values) {
    EXPECT_EQ(all.find(v), std::string::npos) << "secret " << v << " printed:\n"
                                              << all;
  }
  EXPECT_EQ(all.find("Secret0"), std::string::npos);
  EXPECT_EQ(all.find("Secret1"), std::string::npos);
}

// ---------------------------------------------------------------------------

std::string Python(const std::string& script, const fs::path& input,
                   const fs::path& work, int* exit_code) {
  fs::path py = work / "check.py";
  WriteFile(py, script);
  fs::path out = work / ".py.out";
  std::string cmd = "python3 " + ShellQuote(py.string()) + " " +
                    ShellQuote(input.string()) + " > " +
                    ShellQuote(out.string()) + " 2>&1";
  int status = std::system(cmd.c_str());
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return ReadFile(out);
}

bool HavePython() {
  return std::system("python3 -c 'import json' >/dev/null 2>&1") == 0;
}

TEST(Output, JsonLinesOneObjectPerFile) {
  if (!HavePython()) GTEST_SKIP() << "python3 not available";
  TempDir tmp("jsonl");
  std::vector<std::string> files = {
      (kStates / "valid" / "full-export.json").string(),
      (kStates / "invalid" / "036-dependency-missing.json").string(),
      (kStates / "invalid" / "005-invalid-utf8.json").string(),
      (kStates / "invalid" / "001-empty.json").string(),
      "does-not-exist.json",
      (kStates / "invalid" / "048-secret-ciphertext-malformed.json").string(),
  };
  std::string args = "verify --format json";
  for (const std::string& f : files) args += " " + ShellQuote(f);
  RunResult r = RunPstate(args, tmp.path());
  EXPECT_EQ(r.exit_code, 2);
  fs::path out = tmp.path() / "out.jsonl";
  WriteFile(out, r.out);
  std::string expected_files;
  for (const std::string& f : files) expected_files += "'" + f + "',";
  int code = 0;
  std::string msg = Python(
      "import json, sys\n"
      "want = [" +
          expected_files +
          "]\n"
          "lines = open(sys.argv[1], encoding='utf-8').read().split('\\n')\n"
          "assert lines[-1] == '', 'output must end with a newline'\n"
          "lines = lines[:-1]\n"
          "assert len(lines) == len(want), (len(lines), len(want))\n"
          "sev = {'error', 'warning', 'note'}\n"
          "for line, name in zip(lines, want):\n"
          "    o = json.loads(line)\n"
          "    assert set(o) == {'file', 'findings', 'summary'}, o.keys()\n"
          "    assert o['file'] == name, (o['file'], name)\n"
          "    s = o['summary']\n"
          "    assert set(s) == {'errors', 'warnings', 'notes', 'resources', "
          "'omitted', 'suppressed', 'by_code'}, s\n"
          "    counts = {k: 0 for k in sev}\n"
          "    for f in o['findings']:\n"
          "        assert set(f) == {'code', 'severity', 'message', 'pointer', "
          "'line', 'column', 'urn', 'fingerprint'}, f\n"
          "        assert f['severity'] in sev and f['code'] and f['message']\n"
          "        assert f['pointer'] == '' or f['pointer'].startswith('/'), "
          "f\n"
          "        assert (f['line'] is None) == (f['column'] is None), f\n"
          "        assert f['line'] is None or (f['line'] >= 1 and f['column'] "
          ">= 1), f\n"
          "        counts[f['severity']] += 1\n"
          "    assert counts['error'] == s['errors'] and counts['warning'] == "
          "s['warnings'] and counts['note'] == s['notes'], (counts, s)\n"
          "    by_code = {}\n"
          "    for f in o['findings']:\n"
          "        by_code[f['code']] = by_code.get(f['code'], 0) + 1\n"
          "    assert by_code == s['by_code'], (by_code, s['by_code'])\n"
          "    assert all(len(f['fingerprint']) == 32 for f in o['findings']), "
          "o\n"
          "print('ok')\n",
      out, tmp.path(), &code);
  EXPECT_EQ(code, 0) << msg << "\n" << r.out;
}

TEST(Output, SarifShape) {
  if (!HavePython()) GTEST_SKIP() << "python3 not available";
  TempDir tmp("sarif");
  std::vector<std::string> files = {
      (kStates / "valid" / "full-export.json").string(),
      (kStates / "invalid" / "036-dependency-missing.json").string(),
      (kStates / "invalid" / "057-secrets-provider-missing.json").string(),
      (kStates / "invalid" / "002-truncated.json").string(),
      (kStates / "invalid" / "017-field-unknown.json").string(),
      "-",
  };
  std::string args = "verify --format sarif";
  for (const std::string& f : files) args += " " + ShellQuote(f);
  RunResult r =
      RunPstate(args, tmp.path(),
                (kStates / "invalid" / "031-parent-type-chain.json").string());
  EXPECT_EQ(r.exit_code, 2);
  fs::path out = tmp.path() / "out.sarif";
  WriteFile(out, r.out);
  int code = 0;
  std::string msg = Python(
      "import json, sys\n"
      "d = json.load(open(sys.argv[1], encoding='utf-8'))\n"
      "assert d['version'] == '2.1.0'\n"
      "assert d['$schema'].endswith('sarif-2.1.0.json') or "
      "'sarif-schema-2.1.0' in d['$schema']\n"
      "assert isinstance(d['runs'], list) and len(d['runs']) == 1\n"
      "run = d['runs'][0]\n"
      "drv = run['tool']['driver']\n"
      "assert drv['name'] == 'pstate' and isinstance(drv.get('version'), str)\n"
      "rules = drv['rules']\n"
      "ids = [x['id'] for x in rules]\n"
      "assert len(ids) == len(set(ids)), 'rule ids must be unique'\n"
      "for x in rules:\n"
      "    assert x['shortDescription']['text']\n"
      "    assert x['defaultConfiguration']['level'] in ('error', 'warning', "
      "'note')\n"
      "res = run['results']\n"
      "assert res, 'expected results'\n"
      "uris = set()\n"
      "for x in res:\n"
      "    assert x['ruleId'] in ids, x['ruleId']\n"
      "    assert rules[x['ruleIndex']]['id'] == x['ruleId'], x\n"
      "    assert x['level'] in ('error', 'warning', 'note')\n"
      "    assert x['message']['text']\n"
      "    locs = x['locations']\n"
      "    assert len(locs) == 1\n"
      "    pl = locs[0]['physicalLocation']\n"
      "    uri = pl['artifactLocation']['uri']\n"
      "    assert uri and ' ' not in uri, uri\n"
      "    uris.add(uri)\n"
      "    reg = pl['region']\n"
      "    assert reg['startLine'] >= 1\n"
      "    assert 'startColumn' not in reg or reg['startColumn'] >= 1\n"
      "    for ll in locs[0].get('logicalLocations', []):\n"
      "        assert ll['fullyQualifiedName'].startswith('/')\n"
      "codes = {x['ruleId'] for x in res}\n"
      "for c in ('dependency-missing', 'secrets-provider-missing', "
      "'json-syntax', 'field-unknown', 'parent-type-chain'):\n"
      "    assert c in codes, (c, codes)\n"
      "assert 'stdin' in uris, uris\n"
      "print('ok')\n",
      out, tmp.path(), &code);
  EXPECT_EQ(code, 0) << msg << "\n" << r.out.substr(0, 3000);
}

// ---------------------------------------------------------------------------

/// Colour on a terminal (via script(1)): on by default, off with NO_COLOR
/// or TERM=dumb or --color never; --color always wins over NO_COLOR.
TEST(Output, ColorFollowsNoColorAndFlag) {
  if (std::system("script --version >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "script(1) not available";
  }
  TempDir tmp("color");
  std::string file =
      (kStates / "invalid" / "029-urn-stack-mismatch.json").string();
  auto run = [&](const std::string& env, const std::string& flag) {
    fs::path out = tmp.path() / "tty.out";
    std::string inner = env + " " + ShellQuote(PSTATE_BINARY) + " verify " +
                        flag + " " + ShellQuote(file);
    std::string cmd = "env -u NO_COLOR TERM=xterm timeout 20 script -qec " +
                      ShellQuote(inner) + " /dev/null > " +
                      ShellQuote(out.string()) + " 2>&1 < /dev/null";
    int status = std::system(cmd.c_str());
    EXPECT_TRUE(WIFEXITED(status));
    std::string text = ReadFile(out);
    EXPECT_NE(text.find("urn-stack-mismatch"), std::string::npos) << cmd << "\n"
                                                                  << text;
    return text.find('\033') != std::string::npos;
  };
  EXPECT_TRUE(run("", ""));
  EXPECT_FALSE(run("NO_COLOR=1", ""));
  EXPECT_TRUE(run("NO_COLOR=", ""));  // empty NO_COLOR does not count
  EXPECT_FALSE(run("TERM=dumb", ""));
  EXPECT_FALSE(run("", "--color never"));
  EXPECT_TRUE(run("NO_COLOR=1", "--color always"));
  // Not a terminal: no colour unless asked.
  RunResult r = RunPstate("verify " + ShellQuote(file), tmp.path());
  EXPECT_EQ(r.out.find('\033'), std::string::npos);
  r = RunPstate("verify --color always " + ShellQuote(file), tmp.path());
  EXPECT_NE(r.out.find('\033'), std::string::npos);
  r = RunPstate("verify --format json --color always " + ShellQuote(file),
                tmp.path());
  EXPECT_EQ(r.out.find('\033'), std::string::npos) << "colour in JSON output";
}

}  // namespace
}  // namespace pstate_e2e

namespace pstate_e2e {
namespace {

/// A state with `n` resources, each with a duplicate key (one finding each).
std::string ManyFindings(int n) {
  std::string s = R"({"version":3,"deployment":{"resources":[)";
  for (int i = 0; i < n; ++i) {
    if (i > 0) s += ',';
    s += R"({"urn":"urn:pulumi:s::p::t:m:R::r)" + std::to_string(i) +
         R"(","type":"t:m:R","custom":true,"custom":true})";
  }
  return s + "]}}";
}

// `pstate verify … | head -1`: the reader going away ends the command with
// the status it would have had, not 141 (SIGPIPE), and nothing on stderr.
TEST(BrokenOutput, ClosedPipeExitsWithTheUsualStatus) {
  TempDir dir("broken-pipe");
  WriteFile(dir.path() / "s.json", ManyFindings(50000));
  std::string command = "set -o pipefail; " + ShellQuote(PSTATE_BINARY) +
                        " verify " + "--max-findings 0 " +
                        ShellQuote((dir.path() / "s.json").string()) + " 2> " +
                        ShellQuote((dir.path() / "err").string()) +
                        " | head -c 1 >/dev/null";
  int status = std::system(("bash -c " + ShellQuote(command)).c_str());
  ASSERT_TRUE(WIFEXITED(status));
  RunResult unpiped = RunPstate(
      "verify --max-findings 0 " + ShellQuote((dir.path() / "s.json").string()),
      dir.path());
  ASSERT_TRUE(unpiped.exited);
  EXPECT_EQ(WEXITSTATUS(status), unpiped.exit_code);
  EXPECT_NE(WEXITSTATUS(status), 141 & 0xff);
  EXPECT_EQ(ReadFile(dir.path() / "err"), "");
}

// Runs `pstate ARGS STATE > /dev/full` on a state with `findings`
// findings; sets the exit status and returns stderr.
std::string RunToFullDisk(const std::string& args, int findings,
                          int* exit_code) {
  TempDir dir("full-disk");
  WriteFile(dir.path() / "s.json", ManyFindings(findings));
  std::string command = ShellQuote(PSTATE_BINARY) + " " + args + " " +
                        ShellQuote((dir.path() / "s.json").string()) +
                        " > /dev/full 2> " +
                        ShellQuote((dir.path() / "err").string());
  int status = std::system(("bash -c " + ShellQuote(command)).c_str());
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return ReadFile(dir.path() / "err");
}

// A report that cannot be written (a full disk) is a failure: exit 2, with
// the reason the failed write gave, not a guess.
TEST(BrokenOutput, FullDiskIsExitTwo) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  int code = 0;
  std::string err = RunToFullDisk("verify --max-findings 0", 2000, &code);
  EXPECT_EQ(code, 2);
  EXPECT_EQ(err,
            "pstate: error: cannot write to standard output: No space left "
            "on device\n");
}

// scan's report to a full disk: the same exit and reason.
TEST(BrokenOutput, FullDiskScanNamesTheReason) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  int code = 0;
  std::string err = RunToFullDisk("scan", 10, &code);
  EXPECT_EQ(code, 2);
  EXPECT_EQ(err,
            "pstate: error: cannot write to standard output: No space left "
            "on device\n");
}

}  // namespace
}  // namespace pstate_e2e
