// A state::Handler that records every event as a line of text, so tests can
// compare the sequence the reader produces (and compare two reads).
#ifndef PSTATE_TESTS_UNIT_TESTING_RECORDING_HANDLER_H_
#define PSTATE_TESTS_UNIT_TESTING_RECORDING_HANDLER_H_

#include <string>
#include <string_view>
#include <vector>

#include "diag/report.h"
#include "io/input.h"
#include "io/output.h"
#include "json/writer.h"
#include "state/reader.h"

namespace pstate::testing {

inline std::string_view RoleName(state::Role role) {
  switch (role) {
    case state::Role::kVersion: return "version";
    case state::Role::kFeatures: return "features";
    case state::Role::kStack: return "stack";
    case state::Role::kConfig: return "config";
    case state::Role::kManifest: return "manifest";
    case state::Role::kSecretsProviders: return "secrets_providers";
    case state::Role::kResource: return "resource";
    case state::Role::kPendingOperation: return "pending_operation";
    case state::Role::kMetadata: return "metadata";
    case state::Role::kSnippet: return "snippet";
    case state::Role::kExtension: return "extension";
    case state::Role::kMisshapenContainer: return "misshapen";
    case state::Role::kUnknown: return "unknown";
  }
  return "?";
}

/// Compact JSON text of `v` (Go's canonical escaping).
inline std::string CompactJson(const json::Value& v) {
  io::StringOutput out;
  json::Writer w(out, json::Layout::kCompact);
  w.Write(v);
  w.Finish();
  return out.str();
}

class RecordingHandler : public state::Handler {
 public:
  void BeginObject() override { events.push_back("{"); }
  void Key(std::string_view raw_key) override {
    events.push_back("key " + std::string(raw_key));
  }
  void EndObject() override { events.push_back("}"); }
  void BeginArray() override { events.push_back("["); }
  void EndArray() override { events.push_back("]"); }
  Result<state::Flow> OnLeaf(state::Leaf& leaf,
                             state::Context& context) override {
    (void)context;
    std::string e = "leaf " + std::string(RoleName(leaf.role)) + " " +
                    std::string(leaf.pointer);
    if (!leaf.key.empty()) e += " key=" + std::string(leaf.key);
    if (leaf.role == state::Role::kResource ||
        leaf.role == state::Role::kPendingOperation ||
        leaf.role == state::Role::kSnippet) {
      e += " index=" + std::to_string(leaf.index);
    }
    if (record_offsets) e += " @" + std::to_string(leaf.value.offset);
    e += " " + CompactJson(leaf.value);
    events.push_back(std::move(e));
    return stop_at_leaf-- == 0 ? state::Flow::kStop : state::Flow::kContinue;
  }
  Status OnFinish(const state::Envelope& env,
                  state::Context& context) override {
    (void)context;
    finished = true;
    envelope = env;
    events.push_back("finish " +
                     std::string(state::EnvelopeKindName(env.kind)));
    return Status::Ok();
  }

  /// Offsets differ between layouts; turn off to compare rewritten text.
  bool record_offsets = true;
  /// Returns Flow::kStop from the leaf with this number (0 = the first).
  long stop_at_leaf = -1;
  std::vector<std::string> events;
  bool finished = false;
  state::Envelope envelope;
};

/// Compact description of a report's findings: "code pointer line:column".
inline std::vector<std::string> FindingLines(const diag::Report& report) {
  std::vector<std::string> lines;
  for (const diag::Finding& f : report.findings()) {
    lines.push_back(std::string(f.code_name()) + " " + f.pointer + " " +
                    std::to_string(f.line) + ":" + std::to_string(f.column));
  }
  return lines;
}

/// Reads `text` (any envelope) with `handler`, window `window_size`.
inline Status ReadText(const std::string& text, state::Handler& handler,
                       diag::Report& report,
                       std::size_t window_size = 4u << 20) {
  auto input = io::MemoryInput(text, "test.json");
  state::ReadOptions options;
  options.window_size = window_size;
  return state::Read(*input, handler, report, options);
}

}  // namespace pstate::testing

#endif  // PSTATE_TESTS_UNIT_TESTING_RECORDING_HANDLER_H_
