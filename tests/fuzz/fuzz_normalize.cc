// Fuzz target: `pstate normalize` and `pstate convert` (normalize::Run and
// convert::Run, as the CLI runs them) over arbitrary input, written to a
// private temporary directory.
//
// Byte 0 chooses the command and its options: bit 0 convert (else
// normalize); bits 1-2 the layout (normalize: input's, export, diy,
// diy-state-command; convert: --to export or checkpoint, --version 4);
// bit 3 --drop-unknown. The rest is the state.
//
// Invariants beyond "no crash, no sanitizer report":
//  - a failure writes nothing;
//  - the output is one JSON document;
//  - idempotence: the same command on its own output writes the same bytes,
//    and `normalize --check` accepts normalize's output (this found convert
//    writing "resource": null for a migrated pending operation, which it
//    then refused);
//  - values kept: when normalize adds no note, every resource's inputs and
//    outputs in the output mean what they meant in the input (json::Equal:
//    numbers by value, as Go's float64 spelling is documented; strings
//    decoded), resource by resource in order (this found mistyped empty
//    fields dropped silently);
//  - diff(input, output) reports nothing when no note was added: a
//    reformatting is no change.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <system_error>

#include "base/ascii.h"
#include "convert/convert.h"
#include "diff/differ.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_files.h"
#include "json/document.h"
#include "json/equal.h"
#include "json/value.h"
#include "normalize/normalize.h"

namespace {

namespace fs = std::filesystem;
using pstate::json::Value;

const fs::path& WorkDir() {
  static const fs::path dir = pstate_fuzz::MakeWorkDir("normalize");
  return dir;
}

using pstate_fuzz::ReadFile;
using pstate_fuzz::WriteFile;

const Value* Find(const Value* object, std::string_view key) {
  return object != nullptr && object->is_object() ? object->Find(key) : nullptr;
}

/// The resources array of an export or checkpoint document.
const Value* Resources(const Value& root) {
  const Value* deployment = Find(&root, "deployment");
  if (deployment == nullptr) {
    deployment = Find(Find(&root, "checkpoint"), "latest");
  }
  const Value* resources = Find(deployment, "resources");
  return resources != nullptr && resources->is_array() ? resources : nullptr;
}

bool SameMeaning(const Value* a, const Value* b) {
  // Go omits an empty map: absent, null and {} all read as no properties.
  auto empty = [](const Value* v) {
    return v == nullptr || v->is_null() ||
           (v->is_object() && v->object().empty());
  };
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  return pstate::json::Equal(*a, *b);
}

/// Every resource's inputs and outputs mean the same in both documents.
void CheckValuesKept(const std::string& in, const std::string& out) {
  auto a = pstate::json::Document::Parse(in);
  auto b = pstate::json::Document::Parse(out);
  if (!a.ok()) return;  // the reader accepts what a Document may refuse
  PSTATE_FUZZ_CHECK(b.ok());
  const Value* ra = Resources(a->root());
  const Value* rb = Resources(b->root());
  if (ra == nullptr || rb == nullptr) return;
  PSTATE_FUZZ_CHECK(ra->array().size() == rb->array().size());
  for (std::size_t i = 0; i < ra->array().size(); ++i) {
    const Value& x = ra->array()[i];
    const Value& y = rb->array()[i];
    if (!x.is_object()) continue;
    for (std::string_view section : {"inputs", "outputs"}) {
      // Go reads the last member naming the field in any letter case; the
      // check below looks at one exact spelling, so it needs just one.
      int spellings = 0;
      for (const pstate::json::Member& m : x.object()) {
        if (pstate::ascii::EqualFold(m.key.Str(), section)) ++spellings;
      }
      if (spellings > 1) continue;
      const Value* vx = x.Find(section);
      // Only the exact spelling: a case variant is another member.
      if (vx != nullptr && !vx->is_object() && !vx->is_null()) continue;
      PSTATE_FUZZ_CHECK(SameMeaning(vx, Find(&y, section)));
    }
  }
}

std::uint64_t NoteCount(const std::uint64_t* counts) {
  std::uint64_t n = 0;
  for (std::size_t k = 0; k < pstate::kNoteKinds; ++k) n += counts[k];
  return n;
}

/// After a first run into `out`: a failure wrote nothing; a success wrote
/// one JSON document, returned in `written`.
bool Wrote(bool ok, const fs::path& out, std::string* written) {
  std::error_code ec;
  if (!ok) {
    PSTATE_FUZZ_CHECK(!fs::exists(out, ec));
    return false;
  }
  *written = ReadFile(out);
  PSTATE_FUZZ_CHECK(pstate::json::Document::Parse(*written).ok());
  return true;
}

/// Idempotence: the same command on its own output (into `again`) succeeds
/// and writes the same bytes.
void SameAgain(bool ok, const fs::path& again, const std::string& written) {
  PSTATE_FUZZ_CHECK(ok);
  PSTATE_FUZZ_CHECK(ReadFile(again) == written);
}

void RunNormalize(std::uint8_t options, const fs::path& in) {
  const fs::path out = WorkDir() / "out.json";
  const fs::path again = WorkDir() / "again.json";
  std::error_code ec;
  fs::remove(out, ec);
  pstate::normalize::Config config;
  config.input = in.string();
  config.output = out.string();
  config.compression = pstate::io::Compression::kNone;
  switch ((options >> 1) & 3) {
    case 1: config.options.layout = pstate::normalize::Layout::kExport; break;
    case 2: config.options.layout = pstate::normalize::Layout::kDiy; break;
    case 3:
      config.options.layout = pstate::normalize::Layout::kDiyStateCommand;
      break;
    default: break;
  }
  config.options.drop_unknown = (options & 8) != 0;
  auto first = pstate::normalize::Run(config);
  std::string written;
  if (!Wrote(first.ok(), out, &written)) return;

  // Idempotent: normalize of the output is the output, and --check says so.
  config.input = out.string();
  config.output = again.string();
  config.options.layout = first->layout;
  SameAgain(pstate::normalize::Run(config).ok(), again, written);
  pstate::normalize::Config check = config;
  check.check = true;
  auto checked = pstate::normalize::Run(check);
  PSTATE_FUZZ_CHECK(checked.ok() && checked->normalized);

  // diff(A, A) is empty.
  pstate::diff::DiffConfig diff;
  diff.before = in.string();
  diff.after = in.string();
  auto same = pstate::diff::Run(diff);
  if (same.ok()) PSTATE_FUZZ_CHECK(same->same());

  if (NoteCount(first->counts) != 0) return;
  const std::string input = ReadFile(in);
  CheckValuesKept(input, written);
  // diff(A, reformatted A) is empty: Go's layout, escapes, member order and
  // number spelling are no change.
  diff.after = out.string();
  auto diffed = pstate::diff::Run(diff);
  if (diffed.ok()) PSTATE_FUZZ_CHECK(diffed->resources.empty());
}

void RunConvert(std::uint8_t options, const fs::path& in) {
  const fs::path out = WorkDir() / "out.json";
  const fs::path again = WorkDir() / "again.json";
  std::error_code ec;
  fs::remove(out, ec);
  pstate::convert::Config config;
  config.input = in.string();
  config.output = out.string();
  config.compression = pstate::io::Compression::kNone;
  switch ((options >> 1) & 3) {
    case 1: config.to = pstate::convert::Target::kCheckpoint; break;
    case 2: config.version = 4; break;
    case 3:
      config.to = pstate::convert::Target::kCheckpoint;
      config.version = 4;
      break;
    default: break;
  }
  config.drop_unknown = (options & 8) != 0;
  auto first = pstate::convert::Run(config);
  std::string written;
  if (!Wrote(first.ok(), out, &written)) return;
  // Idempotent: converting the output the same way writes the same bytes.
  config.input = out.string();
  config.output = again.string();
  if (!first->stack.empty()) config.stack = first->stack;
  SameAgain(pstate::convert::Run(config).ok(), again, written);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t options = data[0];
  const fs::path in = WorkDir() / "in.json";
  if (!WriteFile(in, std::string_view(reinterpret_cast<const char*>(data + 1),
                                      size - 1))) {
    return 0;
  }
  if ((options & 1) != 0) {
    RunConvert(options, in);
  } else {
    RunNormalize(options, in);
  }
  return 0;
}
