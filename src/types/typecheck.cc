// `pstate typecheck`: the single-value form and the --cases batch form.
#include "types/typecheck.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "diag/report.h"
#include "io/input.h"
#include "json/compact.h"
#include "json/number.h"
#include "json/parser.h"
#include "json/pointer.h"
#include "json/string_codec.h"
#include "state/property.h"
#include "state/reader.h"
#include "state/resource.h"
#include "state/signature.h"
#include "state/state_writer.h"
#include "state/urn.h"
#include "types/puppet.h"
#include "types/registry.h"
#include "types/schema_set.h"
#include "types/type_system.h"

namespace pstate::types {
namespace {

// ------------------------------------------------------------- utilities

Status ReadAll(const std::string& path, std::string* text) {
  Result<std::unique_ptr<io::InputStream>> input = io::OpenInput(path);
  if (!input.ok()) return input.status();
  char buf[1 << 16];
  for (;;) {
    Result<std::size_t> n = (*input)->Read(buf, sizeof buf);
    if (!n.ok()) return n.status();
    if (*n == 0) return Status::Ok();
    text->append(buf, *n);
  }
}

// "line L, column C" of a byte offset in `text`.
std::string Locate(std::string_view text, std::uint64_t offset) {
  std::uint64_t line = 1;
  std::uint64_t column = 1;
  for (std::uint64_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// The puppet aliases of `config`, read once (null when there are none).
Result<puppet::AliasesPtr> LoadAliases(const TypecheckConfig& config) {
  if (config.puppet_aliases.empty() && config.puppet_alias_files.empty()) {
    return puppet::AliasesPtr();
  }
  std::vector<std::string> definitions = config.puppet_aliases;
  for (const std::string& file : config.puppet_alias_files) {
    std::string text;
    Status s = ReadAll(file, &text);
    if (!s.ok()) return s;
    definitions.push_back(std::move(text));
  }
  Result<puppet::AliasesPtr> aliases = puppet::ParseAliases(definitions);
  if (!aliases.ok()) {
    return Status(aliases.status().code(),
                  "type alias: " + aliases.status().message());
  }
  return aliases;
}

// The "type" member of a command-line case: JSON for the languages whose
// types are JSON (cty's type encoding, schema type specs), falling back to
// the text as a string so `--type string` works for cty; a string for the
// others.
json::Value TypeSpecFromText(System system, const std::string& text,
                             json::Arena& arena) {
  if (system == System::kCty || system == System::kPulumiSchema) {
    json::Parser parser;
    json::Value v;
    if (parser.ParseDocument(text, 0, arena, &v) == json::ParseStatus::kOk) {
      return v;
    }
  }
  return arena.MakeString(text);
}

// ------------------------------------------------------------- display

/// A converted value as it may be printed: every secret (under either rule
/// for duplicate signature members) becomes a secret object whose plaintext
/// is the marker "[secret]". A converted secret is written back as a
/// plaintext secret object (type_system.h), and secrets are never printed,
/// not even the ones the user typed in. A rewriting visitor of the property
/// walker.
std::string ForDisplay(const std::string& converted) {
  json::Arena arena;
  json::Parser parser;
  json::Value root;
  if (parser.ParseDocument(converted, 0, arena, &root) !=
      json::ParseStatus::kOk) {
    return converted;  // not JSON: nothing to mask (never the case)
  }
  struct Mask {
    enum { kVisitScalars = false };  // secrets are objects
    json::Arena& arena;
    json::Value masked;
    bool has_secret = false;
    state::Step Visit(const state::PropertyNode& node,
                      state::PropertyCursor& at) {
      if (node.kind != state::PropertyKind::kSecret) {
        // Every member as stored: a secret may sit anywhere.
        return state::Step::kDescendAll;
      }
      if (!has_secret) {
        std::string text = "{\"" + std::string(state::kSigKey) + "\":\"" +
                           std::string(state::kSigSecret) +
                           "\",\"plaintext\":\"[secret]\"}";
        json::Parser p;
        (void)p.ParseDocument(arena.Copy(text), 0, arena, &masked);
        has_secret = true;
      }
      at.Replace(masked);
      return state::Step::kSkip;
    }
  };
  Mask mask{arena, {}, false};
  state::WalkOptions options;
  options.secret_rule = state::SecretRule::kAnySignature;
  json::Value result = state::RewriteProperties(root, arena, mask, options);
  return mask.has_secret ? json::ToCompactJson(result) : converted;
}

/// A verdict as it leaves the module: a converted value as it may be shown
/// (ForDisplay).
Verdict Masked(Verdict v) {
  if (v.outcome == Outcome::kConvert) v.converted = ForDisplay(v.converted);
  return v;
}

// ------------------------------------------------------------ comparison

/// The comparison behind SameResult: a visitor of the paired walk. Secrets
/// (as Pulumi reads them) with a plaintext on both sides compare by their
/// parsed plaintexts, in a paired walk of their own.
class SameValues {
 public:
  struct Level {
    int depth = 0;  ///< nesting, secret payloads included
  };

  explicit SameValues(json::Arena& arena) : arena_(arena) {}

  bool same() const { return same_; }

  state::Step Visit(const state::PropertyPair& pair, Level& level) {
    if (++level.depth > json::kDefaultMaxDepth + 1) return Differ();
    if (!pair.has_a() || !pair.has_b()) return Differ();
    const json::Value& a = *pair.a.value;
    const json::Value& b = *pair.b.value;
    if (pair.a.kind == state::PropertyKind::kSecret &&
        pair.b.kind == state::PropertyKind::kSecret) {
      std::optional<json::Value> pa = Plaintext(pair.a);
      std::optional<json::Value> pb = Plaintext(pair.b);
      if (pa && pb) {
        state::WalkPropertyPairs(&*pa, &*pb, *this, {}, level);
        return same_ ? state::Step::kSkip : state::Step::kStop;
      }
      if (pa || pb) return Differ();
    }
    if (a.type != b.type) return Differ();
    switch (a.type) {
      case json::Type::kNull:
      case json::Type::kTrue:
      case json::Type::kFalse: return state::Step::kSkip;
      case json::Type::kNumber:
        return json::NumbersEqual(a.raw(), b.raw()) ? state::Step::kSkip
                                                    : Differ();
      case json::Type::kString:
        return a.raw() == b.raw() || a.Str() == b.Str() ? state::Step::kSkip
                                                        : Differ();
      case json::Type::kArray:
        return a.size == b.size ? state::Step::kDescend : Differ();
      case json::Type::kObject:
        // Every key of one in the other with the same (last) value.
        return state::Step::kDescendAll;
    }
    return Differ();
  }

 private:
  state::Step Differ() {
    same_ = false;
    return state::Step::kStop;
  }

  std::optional<json::Value> Plaintext(const state::PropertyNode& secret) {
    const json::Value* p = secret.plaintext();
    if (!p || !p->is_string()) return std::nullopt;
    json::Parser parser;
    json::Value v;
    if (parser.ParseDocument(arena_.Copy(p->Str()), 0, arena_, &v) !=
        json::ParseStatus::kOk) {
      return std::nullopt;
    }
    return v;
  }

  json::Arena& arena_;
  bool same_ = true;
};

// ------------------------------------------------------------ single form

// The verdict of the single form (CheckSingle), or the usage problem or
// unreadable input that prevents one.
class Single {
 public:
  explicit Single(const TypecheckConfig& config) : config_(config) {}

  Result<Verdict> Run() {
    std::optional<System> system = ParseSystem(config_.system);
    if (!system) {
      return Usage("unknown --system '" + config_.system +
                   "' (pulumi, pulumi-schema, pcl, cty, terraform, puppet)");
    }
    for (const std::string& file : config_.schemas) {
      Status s = schemas_.LoadFile(file);
      if (!s.ok()) return Status(s.code(), "schema: " + s.message());
    }
    TypeCache cache(&schemas_);
    Result<puppet::AliasesPtr> aliases = LoadAliases(config_);
    if (!aliases.ok()) return aliases.status();
    cache.SetPuppetAliases(*aliases);
    Result<const TypeSystem*> language = cache.GetSystem(*system);
    if (!language.ok()) return language.status();
    json::Value spec = TypeSpecFromText(*system, config_.type, arena_);
    // A type that cannot be read is no verdict (exit 2, as for an input
    // that cannot be read), unlike a --cases line, where it is an "error"
    // result a case may expect.
    Result<std::shared_ptr<const Type>> type = cache.Parse(*system, spec);
    if (!type.ok()) return type.status();
    language_ = *language;
    type_ = *type;
    switch (config_.source) {
      case TypecheckConfig::Source::kValue:
        return CheckText(config_.value, "the value");
      case TypecheckConfig::Source::kValueFile: {
        std::string text;
        Status s = ReadAll(config_.value, &text);
        if (!s.ok()) return s;
        return CheckText(text, io::InputName(config_.value));
      }
      case TypecheckConfig::Source::kStatePointer:
      case TypecheckConfig::Source::kStateOutput: return CheckState();
      case TypecheckConfig::Source::kCases: break;
    }
    return Usage("internal: no value source");
  }

 private:
  static Status Usage(const std::string& message) {
    return Status(Errc::kInvalidArgument, message);
  }

  Result<Verdict> CheckText(const std::string& text, const std::string& name) {
    json::Parser parser;
    json::Value value;
    if (parser.ParseDocument(text, 0, arena_, &value) !=
        json::ParseStatus::kOk) {
      return Status(Errc::kSyntax, name + " is not valid JSON: " +
                                       Locate(text, parser.error().offset) +
                                       ": " + parser.error().message);
    }
    return Masked(language_->Check(*type_, value));
  }

  // Finds the value in the state while the reader holds the leaf that
  // contains it, and checks it there (a leaf's memory is reused after).
  class Finder : public state::Handler {
   public:
    explicit Finder(const Single& single) : single_(single) {}
    Result<state::Flow> OnLeaf(state::Leaf& leaf, state::Context&) override {
      const json::Value* value = Locate(leaf);
      if (!value) return state::Flow::kContinue;
      found_ = true;
      verdict_ = single_.language_->Check(*single_.type_, *value);
      // Found: the rest of the state need not be read.
      return state::Flow::kStop;
    }

    // The wanted value inside this leaf, or nullptr.
    const json::Value* Locate(const state::Leaf& leaf) {
      const TypecheckConfig& config = single_.config_;
      if (config.source == TypecheckConfig::Source::kStateOutput) {
        if (leaf.role != state::Role::kResource) return nullptr;
        const state::ResourceView view = state::ResourceView::Of(leaf.value);
        if (!view.type || !view.type->StrEquals(state::kRootStackType)) {
          return nullptr;
        }
        stack_seen_ = true;
        const json::Value* outputs = view.outputs;
        if (!outputs || !outputs->is_object()) return nullptr;
        return outputs->Find(config.output);
      }
      std::string_view p = config.pointer;
      std::string_view lp = leaf.pointer;
      if (p == lp) return &leaf.value;
      if (p.size() <= lp.size() || !p.starts_with(lp) || p[lp.size()] != '/') {
        return nullptr;
      }
      const json::Value* value = nullptr;
      Status s = json::Resolve(leaf.value, p.substr(lp.size()), &value);
      if (!s.ok()) missing_ = "in " + std::string(lp) + ": " + s.message();
      return value;
    }

    bool found_ = false;
    std::string missing_;  ///< why the pointer resolved to nothing
    bool stack_seen_ = false;
    Verdict verdict_;

   private:
    const Single& single_;
  };

  Result<Verdict> CheckState() {
    Result<std::unique_ptr<io::InputStream>> input =
        io::OpenInput(config_.state);
    if (!input.ok()) return input.status();
    std::string name = io::InputName(config_.state);
    diag::Report report(name);
    Finder finder(*this);
    Status status = state::Read(**input, finder, report);
    if (!status.ok() || report.fatal()) {
      std::string why = status.message();
      for (const diag::Finding& f : report.findings()) {
        if (f.severity == diag::Severity::kError) {
          why = f.message;
          if (f.line > 0) {
            why = "line " + std::to_string(f.line) + ", column " +
                  std::to_string(f.column) + ": " + why;
          }
          break;
        }
      }
      return Status(Errc::kFormat, name + " is not a readable state: " + why);
    }
    if (!finder.found_) {
      if (config_.source == TypecheckConfig::Source::kStateOutput) {
        return Usage(finder.stack_seen_
                         ? name + " has no stack output '" + config_.output +
                               "'"
                         : name + " has no pulumi:pulumi:Stack resource");
      }
      if (!finder.missing_.empty()) {
        return Usage(name + " has no value at '" + config_.pointer +
                     "': " + finder.missing_);
      }
      return Usage(name + " has no value at '" + config_.pointer +
                   "' (the pointer must lead to a resource or inside one, "
                   "e.g. /deployment/resources/0/outputs)");
    }
    return Masked(finder.verdict_);
  }

  const TypecheckConfig& config_;
  SchemaSet schemas_;
  json::Arena arena_;
  const TypeSystem* language_ = nullptr;
  std::shared_ptr<const Type> type_;
};

// ------------------------------------------------------------- cases form

class Cases {
 public:
  Cases(const TypecheckConfig& config,
        const std::function<void(const TypecheckCase&)>& on_case)
      : config_(config), on_case_(on_case), cache_(&schemas_) {}

  Result<TypecheckCasesResult> Run() {
    for (const std::string& file : config_.schemas) {
      Status s = schemas_.LoadFile(file);
      if (!s.ok()) return Status(s.code(), "schema: " + s.message());
    }
    Result<puppet::AliasesPtr> aliases = LoadAliases(config_);
    if (!aliases.ok()) return aliases.status();
    cache_.SetPuppetAliases(*aliases);
    // Read as a stream, one line at a time: memory is bounded by the
    // longest case, whatever the number of lines.
    Result<std::unique_ptr<io::InputStream>> input =
        io::OpenInput(config_.cases);
    if (!input.ok()) return input.status();
    std::string line;  // the current line, then the parser's padding
    std::uint64_t line_no = 0;
    char buf[1 << 16];
    bool more = true;
    while (more) {
      Result<std::size_t> n = (*input)->Read(buf, sizeof buf);
      if (!n.ok()) return n.status();
      more = *n > 0;
      std::string_view chunk(buf, *n);
      while (!chunk.empty() || (!more && !line.empty())) {
        std::size_t nl = chunk.find('\n');
        if (nl == std::string_view::npos && more) {
          line.append(chunk);  // the line goes on in the next chunk
          break;
        }
        std::size_t take = nl == std::string_view::npos ? chunk.size() : nl;
        line.append(chunk.substr(0, take));
        chunk.remove_prefix(nl == std::string_view::npos ? take : take + 1);
        ++line_no;
        std::size_t size = line.size();
        // The parser reads ahead; the padding is never part of the line.
        line.append(json::kParserPadding, ' ');
        TypecheckCase one;
        one.line = line_no;
        if (OneLine(line.data(), 0, size, &one)) {
          ++result_.cases;
          if (!one.invalid.empty()) ++result_.invalid;
          if (one.pass == false) ++result_.failed;
          on_case_(one);
        }
        line.clear();
      }
    }
    return result_;
  }

 private:
  static bool IsSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  // `detail` follows "line N" in the reason: ", column C: ..." or ": ...".
  static bool Invalid(std::string_view detail, TypecheckCase* out) {
    out->invalid = "line " + std::to_string(out->line) + std::string(detail);
    return true;
  }

  // The case on the line, in `out`; false for a blank line (no case).
  bool OneLine(const char* data, std::size_t begin, std::size_t end,
               TypecheckCase* out) {
    std::size_t b = begin;
    while (b < end && IsSpace(data[b])) ++b;
    if (b == end) return false;  // blank lines hold no case
    arena_.Reset();
    json::Value root;
    const char* stop = nullptr;
    json::ParseStatus st =
        parser_.Parse(data + b, data + end, true, b, arena_, &root, &stop);
    if (st != json::ParseStatus::kOk) {
      return Invalid(", column " +
                         std::to_string(parser_.error().offset - begin + 1) +
                         ": not JSON: " + parser_.error().message,
                     out);
    }
    for (const char* p = stop; p < data + end; ++p) {
      if (!IsSpace(*p)) {
        return Invalid(
            ", column " +
                std::to_string(static_cast<std::size_t>(p - data) - begin + 1) +
                ": unexpected text after the case",
            out);
      }
    }
    if (!root.is_object()) return Invalid(": a case is a JSON object", out);
    const json::Value* system_v = nullptr;
    const json::Value* type_v = nullptr;
    const json::Value* value_v = nullptr;
    const json::Value* expect_v = nullptr;
    const json::Value* converted_v = nullptr;
    for (const json::Member& m : root.object()) {
      std::string_view k = m.key.raw();
      if (k == "system") {
        system_v = &m.value;
      } else if (k == "type") {
        type_v = &m.value;
      } else if (k == "value") {
        value_v = &m.value;
      } else if (k == "expect") {
        expect_v = &m.value;
      } else if (k == "converted") {
        converted_v = &m.value;
      }
    }
    if (!system_v) return Invalid(": missing \"system\"", out);
    if (!type_v) return Invalid(": missing \"type\"", out);
    if (!value_v) return Invalid(": missing \"value\"", out);
    std::optional<System> system;
    if (system_v->is_string()) system = ParseSystem(system_v->raw());
    if (!system) {
      return Invalid(
          ": \"system\" must be one of pulumi, pulumi-schema, "
          "pcl, cty, terraform, puppet",
          out);
    }
    std::optional<Outcome> expect;
    if (expect_v) {
      if (expect_v->is_string()) {
        std::string_view e = expect_v->raw();
        if (e == "ok") expect = Outcome::kOk;
        if (e == "convert") expect = Outcome::kConvert;
        if (e == "error") expect = Outcome::kError;
      }
      if (!expect) {
        return Invalid(": \"expect\" must be ok, convert or error", out);
      }
    }
    Result<std::shared_ptr<const Type>> type = cache_.Parse(*system, *type_v);
    Verdict verdict;
    if (!type.ok()) {
      if (type.status().code() == Errc::kUnsupported) {
        return Invalid(": " + type.status().message(), out);
      }
      verdict = ErrorVerdict("", type.status().message());
    } else {
      verdict = (*cache_.GetSystem(*system))->Check(**type, *value_v);
    }
    if (expect) {
      bool pass = *expect == verdict.outcome;
      if (pass && verdict.outcome == Outcome::kConvert && converted_v) {
        json::Value got;
        pass = parser_.ParseDocument(verdict.converted, 0, arena_, &got) ==
                   json::ParseStatus::kOk &&
               SameResult(got, *converted_v);
      }
      out->pass = pass;
    }
    out->verdict = Masked(std::move(verdict));  // once compared
    return true;
  }

  const TypecheckConfig& config_;
  const std::function<void(const TypecheckCase&)>& on_case_;
  SchemaSet schemas_;
  TypeCache cache_;
  json::Parser parser_;
  json::Arena arena_;
  TypecheckCasesResult result_;
};

}  // namespace

bool SameResult(const json::Value& a, const json::Value& b) {
  json::Arena arena;
  SameValues same(arena);
  state::WalkPropertyPairs(&a, &b, same);
  return same.same();
}

Result<TypecheckCasesResult> CheckCases(
    const TypecheckConfig& config,
    const std::function<void(const TypecheckCase&)>& on_case) {
  return Cases(config, on_case).Run();
}

Result<Verdict> CheckSingle(const TypecheckConfig& config) {
  return Single(config).Run();
}

}  // namespace pstate::types

// The API's (pstate/pstate.h): the names the command line and the
// renderers use.
namespace pstate {

std::optional<TypeLanguage> TypecheckLanguageNamed(std::string_view name) {
  return types::ParseSystem(name);
}

std::string_view TypecheckOutcomeName(TypeOutcome outcome) {
  return types::OutcomeName(outcome);
}

}  // namespace pstate
