#include "convert/convert.h"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "diag/failure.h"
#include "diag/report.h"
#include "io/output.h"
#include "io/spool.h"
#include "normalize/pass.h"
#include "state/reader.h"
#include "state/resource.h"
#include "state/rewrite.h"
#include "state/urn.h"
#include "verify/verifier.h"

namespace pstate::convert {
namespace {

constexpr std::size_t kNamedPerFeature = 5;

/// What the first pass learns: features in use and by whom, URNs' stacks
/// and projects, the checkpoint's own stack.
class Survey : public state::Handler {
 public:
  Result<state::Flow> OnLeaf(state::Leaf& leaf, state::Context&) override {
    const json::Value& v = leaf.value;
    if (leaf.role == state::Role::kStack && v.is_string()) {
      stack = v.Str();
    } else if (const json::Value* r = state::ResourceOf(leaf)) {
      Resource(*r);
    } else if (leaf.role == state::Role::kSnippet) {
      Use("snippets-prototype", "snippet " + std::to_string(leaf.index));
    }
    return state::Flow::kContinue;
  }

  void Resource(const json::Value& r) {
    if (!r.is_object()) return;
    const state::ResourceView view = state::ResourceView::Of(r);
    std::string urn =
        view.urn && view.urn->is_string() ? view.Urn() : std::string("?");
    if (auto parsed = state::ParseUrn(urn)) {
      if (first_urn.empty()) first_urn = urn;
      urns.emplace_back(std::string(parsed->stack),
                        std::string(parsed->project));
      if (urns.size() > 1 && urns.back() == urns[urns.size() - 2]) {
        urns.pop_back();
      } else {
        urn_names.push_back(urn);
      }
    }
    // pkg/resource/stack/deployment.go: ApplyFeatures.
    std::uint32_t used = state::ResourceFeatures(r);
    for (std::size_t i = 0; i < state::kResourceFeatureNames.size(); ++i) {
      if (used & (std::uint32_t{1} << i)) {
        Use(std::string(state::kResourceFeatureNames[i]), urn);
      }
    }
  }

  void Use(const std::string& feature, const std::string& who) {
    auto& users = features[feature];
    ++users.first;
    if (users.second.size() < kNamedPerFeature) users.second.push_back(who);
  }

  std::map<std::string, std::pair<std::uint64_t, std::vector<std::string>>>
      features;
  /// Distinct consecutive (stack, project) pairs of URNs, with one URN each.
  std::vector<std::pair<std::string, std::string>> urns;
  std::vector<std::string> urn_names;
  std::string first_urn;
  std::string stack;
};

/// Splits "ORG/PROJECT/STACK" (or a bare "STACK").
struct StackName {
  std::string project;  ///< "" for a bare stack name
  std::string stack;
};

StackName SplitStack(const std::string& name) {
  StackName out;
  std::size_t last = name.rfind('/');
  if (last == std::string::npos) {
    out.stack = name;
    return out;
  }
  out.stack = name.substr(last + 1);
  std::size_t prev = name.rfind('/', last - 1);
  out.project = name.substr(prev == std::string::npos ? 0 : prev + 1,
                            last - (prev == std::string::npos ? 0 : prev + 1));
  return out;
}

std::string FirstError(const diag::Report& report) {
  for (const diag::Finding& f : report.findings()) {
    if (f.severity != diag::Severity::kError) continue;
    std::string where = f.line > 0 ? std::to_string(f.line) + ":" +
                                         std::to_string(f.column) + ": "
                                   : std::string();
    return where + (f.pointer.empty() ? "" : f.pointer + ": ") + f.message;
  }
  return "";
}

}  // namespace

Result<Outcome> Run(const Config& config) {
  if (Status same = state::CheckOutputIsNotInput(config.input, config.output);
      !same.ok()) {
    return same;
  }
  if (config.version && *config.version != 3 && *config.version != 4) {
    return Status(Errc::kInvalidArgument,
                  "--version: pstate writes versions 3 and 4");
  }

  // Every pass reads the input again: standard input and compressed files
  // are decoded once into a private temporary file (io/spool.h).
  Result<io::Replayable> replay =
      io::OpenReplayable(config.input, config.spool);
  if (!replay.ok()) return replay.status();
  const std::string& shown = replay->name();

  // Pass 1: verify the input and survey it.
  verify::Verifier verifier;
  Survey survey;
  state::Tee tee(verifier, survey);
  diag::Report input_report(shown);
  state::Envelope envelope;
  {
    auto input = replay->Open();
    if (!input.ok()) return input.status();
    // The reader's envelope is only handed to OnFinish: keep a copy.
    struct Keep : state::Handler {
      state::Handler& inner;
      state::Envelope* out;
      Keep(state::Handler& h, state::Envelope* e) : inner(h), out(e) {}
      void OnEnvelopeMember(const state::EnvelopeMember& m,
                            state::Context& c) override {
        inner.OnEnvelopeMember(m, c);
      }
      Result<state::Flow> OnLeaf(state::Leaf& l, state::Context& c) override {
        return inner.OnLeaf(l, c);
      }
      Status OnFinish(const state::Envelope& e, state::Context& c) override {
        *out = e;
        return inner.OnFinish(e, c);
      }
    } keep(tee, &envelope);
    state::ReadOptions read_options;
    read_options.on_progress = config.on_progress;
    Status status = state::Read(**input, keep, input_report, read_options);
    if (!status.ok()) return diag::FailureOf(input_report, status).ToStatus();
  }
  const bool input_ok = input_report.summary().errors == 0;
  int in_version = envelope.kind == state::EnvelopeKind::kLegacyCheckpoint
                       ? 0
                       : static_cast<int>(envelope.version.value_or(0));
  int out_version = config.version ? *config.version : std::max(3, in_version);

  Outcome outcome;
  outcome.version = out_version;
  // Features (pkg/resource/stack/deployment.go: ApplyFeatures; §2.2).
  bool byte_string =
      std::find(envelope.features.begin(), envelope.features.end(),
                "byteString") != envelope.features.end();
  if (out_version == 3) {
    std::string refused;
    for (const auto& [feature, users] : survey.features) {
      refused += "\n  " + feature + ": ";
      for (std::size_t i = 0; i < users.second.size(); ++i) {
        refused += (i ? ", " : "") + users.second[i];
      }
      if (users.first > users.second.size()) {
        refused += " and " + std::to_string(users.first - users.second.size()) +
                   " more";
      }
    }
    if (byte_string) {
      refused +=
          "\n  byteString: listed by the input; whether a secret still holds "
          "a non-UTF-8 string cannot be told without decrypting it";
    }
    if (!refused.empty()) {
      return Status(Errc::kUnsupported,
                    shown +
                        ": cannot write version 3: these features are in "
                        "use (version 4 is needed while they are):" +
                        refused);
    }
  } else {
    std::set<std::string> features;
    for (const auto& [feature, users] : survey.features) {
      (void)users;
      features.insert(feature);
    }
    if (byte_string) features.insert("byteString");
    outcome.features.assign(features.begin(), features.end());
  }

  // The checkpoint's stack, and every URN's agreement with it.
  std::string stack;
  if (config.to == Target::kCheckpoint) {
    stack = !config.stack.empty() ? config.stack : survey.stack;
    if (stack.empty()) {
      if (auto urn = state::ParseUrn(survey.first_urn)) {
        stack = "organization/" + std::string(urn->project) + "/" +
                std::string(urn->stack);
      }
    }
    if (stack.empty()) {
      return Status(Errc::kInvalidArgument,
                    shown +
                        ": no stack name in the input and no resource "
                        "to take one from: pass --stack "
                        "ORG/PROJECT/STACK");
    }
    StackName want = SplitStack(stack);
    if (!config.force) {
      for (std::size_t i = 0; i < survey.urns.size(); ++i) {
        const auto& [urn_stack, urn_project] = survey.urns[i];
        if (urn_stack != want.stack ||
            (!want.project.empty() && urn_project != want.project)) {
          return Status(Errc::kInvalidArgument,
                        shown + ": resource " + survey.urn_names[i] +
                            " belongs to stack \"" + urn_stack +
                            "\" of project \"" + urn_project + "\", not to \"" +
                            stack + "\" (--force converts anyway)");
        }
      }
    }
    outcome.stack = stack;
  }

  // Pass 2: write the converted state to a temporary file.
  normalize::Options options;
  options.layout = config.layout;
  options.pulumi_numbers = config.pulumi_numbers;
  options.drop_unknown = config.drop_unknown;
  options.envelope = config.to == Target::kExport
                         ? normalize::Envelope::kExport
                         : normalize::Envelope::kCheckpoint;
  options.version = out_version;
  options.features = outcome.features;
  options.stack = stack;
  options.drop_pending_operations =
      config.to == Target::kCheckpoint &&
      envelope.kind == state::EnvelopeKind::kExport;
  io::TempPath converted;
  Status s = converted.Create("convert");
  if (!s.ok()) return s;
  {
    auto input = replay->Open();
    if (!input.ok()) return input.status();
    auto out = io::OpenOutput(converted.path());
    if (!out.ok()) return out.status();
    normalize::PassOptions pass;
    pass.options = std::move(options);
    pass.mode = normalize::Mode::kSpool;
    pass.on_progress = config.on_progress;
    pass.shown = shown;
    normalize::PassResult result = normalize::RunPass(**input, **out, pass);
    if (!result.status.ok()) return result.status;
    outcome.layout = result.outcome.layout;
    outcome.notes = std::move(result.outcome.notes);
    std::copy(result.outcome.counts, result.outcome.counts + kNoteKinds,
              outcome.counts);
  }

  // Pass 3: the result must pass verify when the input did.
  {
    auto produced = io::OpenInput(converted.path());
    if (!produced.ok()) return produced.status();
    verify::Verifier check;
    diag::Report report("<converted>");
    Status status = state::Read(**produced, check, report);
    if (!status.ok() || (input_ok && report.summary().errors > 0)) {
      return Status(
          Errc::kFormat,
          shown + ": the converted state would not pass verify (" +
              (status.ok() ? FirstError(report)
                           : diag::FailureOf(report, status).Located()) +
              "); nothing was written");
    }
  }

  // Copy into place (atomic, compressed as asked).
  auto out = io::OpenOutput(
      config.output,
      normalize::OutputOptionsFor(config.output, config.compression));
  if (!out.ok()) return out.status();
  auto produced = io::OpenInput(converted.path());
  if (!produced.ok()) return produced.status();
  std::string buf(1u << 20, '\0');
  for (;;) {
    Result<std::size_t> n = (*produced)->Read(buf.data(), buf.size());
    if (!n.ok()) {
      (*out)->Abandon();
      return n.status();
    }
    if (*n == 0) break;
    (*out)->Write(std::string_view(buf.data(), *n));
  }
  s = (*out)->Commit();
  if (!s.ok()) return s;
  return outcome;
}

}  // namespace pstate::convert
