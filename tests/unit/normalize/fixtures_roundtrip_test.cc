// Every state under fixtures/ (including fixtures/pulumi-testdata, Pulumi's
// own test states) normalized in each layout: the output normalizes to
// itself, holds the same data as the input (numbers by value, Go's zero
// values standing for absent omitempty fields), and verifies with the same
// number of errors when the input was valid.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "diag/report.h"
#include "io/input.h"
#include "io/output.h"
#include "json/document.h"
#include "json/number.h"
#include "normalize/go_text.h"
#include "normalize/normalizer.h"
#include "verify/verifier.h"

namespace pstate::normalize {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  bool readable = false;
  std::string text;
};

using Opener = std::unique_ptr<io::InputStream> (*)(const std::string&);

Outcome NormalizeBytes(Opener open, const std::string& source, Layout layout) {
  Outcome out;
  for (Mode mode : {Mode::kStream, Mode::kSpool}) {
    io::StringOutput sink;
    Options options;
    options.layout = layout;
    Normalizer n(sink, options, mode);
    diag::Report report("<t>");
    Status s = state::Read(*open(source), n, report);
    if (!s.ok() && n.needs_reorder()) continue;
    out.readable = s.ok();
    out.text = sink.str();
    return out;
  }
  return out;
}

std::unique_ptr<io::InputStream> OpenPath(const std::string& path) {
  auto in = io::OpenInput(path);
  return in.ok() ? std::move(*in) : io::MemoryInput("");
}

std::unique_ptr<io::InputStream> OpenText(const std::string& text) {
  return io::MemoryInput(text);
}

/// Verify's errors, except an empty plugin type: a plugin without "type"
/// (fixtures/inspect/envelope-changed.json spells it "kind") gets Go's zero
/// value "" when normalized, as Pulumi's own re-marshalling writes it
/// (PluginInfoV1.Kind has no omitempty), and verify rejects "" there.
std::uint64_t Errors(std::unique_ptr<io::InputStream> in) {
  verify::Verifier v;
  diag::Report report("<t>");
  (void)state::Read(*in, v, report);
  std::uint64_t errors = 0;
  for (const diag::Finding& f : report.findings()) {
    if (f.severity != diag::Severity::kError) continue;
    if (f.code == diag::Code::kManifestPlugin &&
        f.message.find("plugin type \"\"") != std::string::npos) {
      continue;
    }
    ++errors;
  }
  return errors;
}

bool GoEmpty(const json::Value& v) {
  switch (v.type) {
    case json::Type::kNull:
    case json::Type::kFalse: return true;
    case json::Type::kNumber: return json::NumbersEqual(v.raw(), "0");
    case json::Type::kString:
    case json::Type::kArray:
    case json::Type::kObject: return v.size == 0;
    default: return false;
  }
}

std::string Lower(std::string s) {
  for (char& c : s) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return s;
}

/// Same data: what the normalizer may change is spelling, order, Go's
/// zero values for absent fields, the case of struct keys, dropped
/// duplicates (the last wins) and timestamps' spelling.
bool SameData(const json::Value& a, const json::Value& b, std::string path,
              std::string* why) {
  if (a.is_number() && b.is_number()) {
    if (json::NumbersEqual(a.raw(), b.raw())) return true;
    *why = path + ": numbers differ";
    return false;
  }
  if (a.is_string() && b.is_string()) {
    std::string x = a.Str(), y = b.Str();
    if (x == y) return true;
    auto tx = GoTimeText(x), ty = GoTimeText(y);
    if (tx && ty && *tx == *ty) return true;
    *why = path + ": strings differ";
    return false;
  }
  if (a.is_array() && b.is_array()) {
    if (a.size != b.size) {
      *why = path + ": array sizes differ";
      return false;
    }
    std::vector<const json::Value*> xs, ys;
    for (const auto& e : a.array()) xs.push_back(&e);
    for (const auto& e : b.array()) ys.push_back(&e);
    if (path.ends_with("/features")) {
      auto by = [](const json::Value* p, const json::Value* q) {
        return p->Str() < q->Str();
      };
      std::sort(xs.begin(), xs.end(), by);
      std::sort(ys.begin(), ys.end(), by);
    }
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (!SameData(*xs[i], *ys[i], path + "/" + std::to_string(i), why)) {
        return false;
      }
    }
    return true;
  }
  if (a.is_object() && b.is_object()) {
    std::map<std::string, const json::Value*> x, y;
    for (const auto& m : a.object()) x[m.key.Str()] = &m.value;
    for (const auto& m : b.object()) y[m.key.Str()] = &m.value;
    for (const auto& [k, v] : x) {
      auto it = y.find(k);
      if (it == y.end()) {
        // A struct key written in another case ("Custom" -> "custom").
        for (auto& [k2, v2] : y) {
          if (Lower(k2) == Lower(k) && !x.count(k2)) {
            it = y.find(k2);
            break;
          }
        }
      }
      if (it == y.end()) {
        if (GoEmpty(*v)) continue;
        // Another spelling of the same struct field won (the last one).
        bool other = false;
        for (auto& [k2, v2] : x) {
          other |= k2 != k && Lower(k2) == Lower(k);
        }
        if (other) continue;
        *why = path + "/" + k + ": missing from the output";
        return false;
      }
      if (GoEmpty(*v) && GoEmpty(*it->second)) continue;
      if (!SameData(*v, *it->second, path + "/" + k, why)) return false;
    }
    for (const auto& [k, v] : y) {
      if (x.count(k)) continue;
      bool cased = false;
      for (auto& [k1, v1] : x) cased |= Lower(k1) == Lower(k);
      if (cased || GoEmpty(*v) || k == "metadata" || k == "manifest" ||
          k == "stack" || k == "dependencies" || k == "initErrors" ||
          k == "custom") {
        continue;
      }
      *why = path + "/" + k + ": added by the output";
      return false;
    }
    return true;
  }
  if (GoEmpty(a) && GoEmpty(b)) return true;
  if (a.type == b.type) return true;
  *why = path + ": types differ";
  return false;
}

std::vector<fs::path> StateFiles() {
  std::vector<fs::path> files;
  fs::path root = PSTATE_FIXTURES_DIR;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(
           root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const auto& e = *it;
    if (e.is_symlink(ec) || !e.is_regular_file(ec)) continue;
    std::string p = e.path().string();
    if (p.find("jsontestsuite") != std::string::npos ||
        p.find("schemas") != std::string::npos) {
      continue;
    }
    if (p.ends_with(".json") || p.ends_with(".json.gz") ||
        p.ends_with(".json.zst")) {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FixturesRoundTripTest, EveryStateInEveryLayout) {
  std::size_t checked = 0;
  for (const fs::path& file : StateFiles()) {
    // Only states the reader accepts: the rest are verify's to reject.
    {
      struct Null : state::Handler {
        Result<state::Flow> OnLeaf(state::Leaf&, state::Context&) override {
          return state::Flow::kContinue;
        }
      } null;
      diag::Report r("<t>");
      if (!state::Read(*OpenPath(file.string()), null, r).ok()) continue;
    }
    std::string input_text;
    {
      auto in = OpenPath(file.string());
      char buf[1 << 16];
      for (;;) {
        auto n = in->Read(buf, sizeof buf);
        if (!n.ok() || *n == 0) break;
        input_text.append(buf, *n);
      }
    }
    auto input = json::Document::Parse(input_text);
    ASSERT_TRUE(input.ok()) << file;
    const bool valid = file.string().find("invalid") == std::string::npos;
    const std::uint64_t input_errors = Errors(OpenPath(file.string()));
    for (Layout layout :
         {Layout::kExport, Layout::kDiy, Layout::kDiyStateCommand}) {
      SCOPED_TRACE(file.string() + " as " + std::string(LayoutName(layout)));
      Outcome once = NormalizeBytes(&OpenPath, file.string(), layout);
      ASSERT_TRUE(once.readable);
      Outcome twice = NormalizeBytes(&OpenText, once.text, layout);
      ASSERT_TRUE(twice.readable);
      EXPECT_EQ(twice.text, once.text) << "not idempotent";
      auto output = json::Document::Parse(once.text);
      ASSERT_TRUE(output.ok()) << output.status().message();
      std::string why;
      EXPECT_TRUE(SameData(input->root(), output->root(), "", &why)) << why;
      if (valid) {
        EXPECT_LE(Errors(OpenText(once.text)), input_errors);
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 30u);
}

}  // namespace
}  // namespace pstate::normalize
