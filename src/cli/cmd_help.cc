// pstate help [CMD], pstate completion SHELL, pstate man, pstate version.
#include <archive.h>
#include <openssl/crypto.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>

#include <pstate/pstate.h>

#include "base/ascii.h"
#include "cli/command.h"
#include "cli/exit_code.h"
#include "cli/help.h"
#include "cli/suggest.h"
#include "report/terminal.h"

#ifndef PSTATE_VERSION
#define PSTATE_VERSION "0.0.0"
#endif
#ifndef PSTATE_COMMIT
#define PSTATE_COMMIT "unknown"
#endif

namespace pstate::cli {
namespace {

CLI::App* root_app = nullptr;

struct CommandHelp {
  std::string_view name;
  std::string_view examples;  ///< one "  $ pstate ..." line each
  bool passphrase = false;    ///< reads PULUMI_CONFIG_PASSPHRASE{,_FILE}
  bool findings = false;      ///< verify/scan: colour and the 0/1/2 table
  /// The command's own exit-code lines ("  1  ..."), when not the generic
  /// ones (findings commands have theirs).
  std::string_view exits = {};
};

// redact, decrypt, encrypt: all or nothing.
constexpr std::string_view kWriteExits =
    "  0  written\n"
    "  2  an unreadable input, a wrong or missing passphrase, an unsupported "
    "secrets provider, a failed write, or bad usage (nothing written)\n";

// encrypt also refuses a state it cannot encrypt safely.
constexpr std::string_view kEncryptExits =
    "  0  written\n"
    "  1  refused: a secret has both \"ciphertext\" and \"plaintext\" "
    "(nothing written)\n"
    "  2  an unreadable input, a wrong or missing passphrase, an unsupported "
    "secrets provider, a failed write, or bad usage (nothing written)\n";

// Examples per command; a command without an entry gets the generic footer.
constexpr CommandHelp kHelp[] = {
    {"verify",
     "  pstate verify stack.json\n"
     "  pulumi stack export | pstate verify\n"
     "  pstate verify --format sarif .pulumi/stacks/app/*.json.gz > "
     "verify.sarif\n"
     "  pstate verify .                  (every "
     ".pulumi/stacks/**/*.json{,.gz,.zst})\n"
     "  pstate verify --format json stack.json > baseline.json\n"
     "  pstate verify --baseline baseline.json --fail-on warning stack.json\n"
     "  pstate verify --assets --root ./app stack.json\n",
     false, true},
    {"scan",
     "  pstate scan stack.json\n"
     "  pstate scan --decrypt --format sarif stack.json > scan.sarif\n"
     "  pstate scan --skip leak-secret-in-name --format github stack.json\n",
     true, true},
    {"assets",
     "  pstate assets stack.json --root ./app\n"
     "  pstate assets stack.json --root . --format json\n",
     false, false,
     "  0  every asset is ok, unverifiable or has no hash\n"
     "  1  an asset does not match, is missing or cannot be hashed\n"
     "  2  a state cannot be read, or bad usage\n"},
    {"redact",
     "  pstate redact stack.json -o shareable.json\n"
     "  pstate redact --leaks stack.json | pstate scan -\n",
     true, false, kWriteExits},
    {"decrypt",
     "  PULUMI_CONFIG_PASSPHRASE_FILE=~/.pass pstate decrypt stack.json -o "
     "plain.json\n",
     true, false, kWriteExits},
    {"encrypt", "  pstate encrypt plain.json -o stack.json\n", true, false,
     kEncryptExits},
    {"rules", "  pstate rules\n  pstate rules --format json\n", false, false},
    {"explain", "  pstate explain dependency-order\n", false, false},
    {"completion",
     "  source <(pstate completion bash)\n"
     "  pstate completion zsh > \"${fpath[1]}/_pstate\"\n"
     "  pstate completion fish > ~/.config/fish/completions/pstate.fish\n"
     "  pstate completion powershell | Out-String | Invoke-Expression\n",
     false, false},
    {"man", "  pstate man > pstate.1 && man ./pstate.1\n", false, false},
    {"help", "  pstate help verify\n", false, false},
    {"typecheck",
     "  pstate typecheck --system terraform --type 'list(string)' "
     "'[\"a\", 1]'\n"
     "  pstate typecheck --system pulumi-schema --schema aws.schema.json.gz "
     "--type aws:s3/bucket:Bucket --state stack.json --pointer "
     "/deployment/resources/3/inputs\n"
     "  pstate typecheck --cases contracts.jsonl --schema aws.schema.json.gz\n",
     false, false,
     "  0  the value fits (ok) or converts to the type (convert)\n"
     "  1  the value does not fit\n"
     "  2  the type, schema or input cannot be read, or bad usage\n"},
    {"normalize",
     "  pstate normalize stack.json -o normalized.json\n"
     "  pstate normalize --check stack.json     (CI: exit 1 when not "
     "normalized)\n"
     "  pstate normalize --in-place .pulumi/stacks/app/dev.json.gz\n",
     false, false,
     "  0  written (or, with --check, already normalized)\n"
     "  1  with --check: the input is not normalized\n"
     "  2  bad usage or an unreadable input (no output file appears)\n"},
    {"convert",
     "  pstate convert export.json --to checkpoint -o dev.json\n"
     "  pstate convert .pulumi/stacks/app/dev.json --to export | pulumi stack "
     "import\n",
     false, false,
     "  0  converted\n"
     "  1  the state cannot be expressed in the requested version\n"
     "  2  bad usage, an unreadable input, or a result that would not "
     "verify\n"},
    {"ls",
     "  pstate ls stack.json --type 'aws:s3/*' --flag protect\n"
     "  pstate ls stack.json --pending\n"
     "  pstate ls stack.json --format json | jq -r .urn\n",
     false, false,
     "  0  listed\n"
     "  2  an unreadable state or bad usage\n"},
    {"show",
     "  pstate show stack.json 'urn:pulumi:dev::app::aws:s3/bucket:Bucket::"
     "logs'\n"
     "  pstate show stack.json --index 3 --format json\n",
     true, false,
     "  0  shown\n"
     "  2  no resource matches, an unreadable state, or bad usage\n"},
    {"tree",
     "  pstate tree stack.json\n  pstate tree stack.json --format json\n",
     false, false,
     "  0  shown\n"
     "  2  an unreadable state or bad usage\n"},
    {"stats",
     "  pstate stats stack.json.gz --top 5\n"
     "  pstate stats stack.json --format json\n",
     false, false,
     "  0  shown\n"
     "  2  an unreadable state or bad usage\n"},
    {"diff",
     "  pstate diff backup.json.gz stack.json\n"
     "  pstate diff --stat before.json after.json\n"
     "  pulumi stack export | pstate diff --format json backup.json -\n",
     true, false,
     "  0  the states are the same\n"
     "  1  they differ\n"
     "  2  a state cannot be read, or bad usage\n"},
    {"edit",
     "  pstate edit delete stack.json 'urn:pulumi:dev::app::aws:s3/bucket:"
     "Bucket::logs' --target-dependents --dry-run\n"
     "  pstate edit clear-pending stack.json -o fixed.json\n"
     "  pstate edit repair .pulumi/stacks/app/dev.json.gz --in-place\n",
     false, false,
     "  0  edited (or nothing to change)\n"
     "  1  refused: the reason on stderr, nothing written\n"
     "  2  bad usage or an unreadable input\n"},
    {"extract",
     "  pstate extract stack.json --type 'aws:s3/*' -o s3.json\n"
     "  pstate extract stack.json logs --with-dependencies -o bug.json\n",
     false, false,
     "  0  written\n"
     "  1  refused: the reason on stderr, nothing written\n"
     "  2  bad usage or an unreadable input\n"},
    {"history",
     "  pstate history ./state                 (every stack of the backend)\n"
     "  pstate history .pulumi/stacks/app/dev.json --verify\n"
     "  pstate diff .pulumi/stacks/app/dev.json@~1 "
     ".pulumi/stacks/app/dev.json\n"
     "  pstate history blame .pulumi/stacks/app/dev.json URN tags.env\n"
     "  pstate history restore .pulumi/stacks/app/dev.json@~1 -o dev.json\n"
     "  pstate history prune ./state --keep 50 --older-than 90d --yes\n",
     false, false,
     "  0  listed, restored or pruned\n"
     "  1  refused (a lock file exists, or the version has errors)\n"
     "  2  bad usage, an unknown version or an unreadable input\n"},
    {"graph",
     "  pstate graph stack.json | dot -Tsvg -o stack.svg\n"
     "  pstate graph stack.json --focus '*::logs' --depth 2 --format mermaid\n"
     "  pstate graph stack.json --group type --edges all --format json\n",
     false, false,
     "  0  drawn\n"
     "  2  an unreadable state or bad usage\n"},
    {"report",
     "  pstate report stack.json -o report.html\n"
     "  pstate report backup.json.gz stack.json -o changes.html\n",
     true, false,
     "  0  written\n"
     "  2  an unreadable state, a failed write or bad usage (nothing "
     "written)\n"},
};

const CommandHelp* FindHelp(std::string_view name) {
  for (const CommandHelp& h : kHelp) {
    if (h.name == name) return &h;
  }
  return nullptr;
}

constexpr std::string_view kColorEnv =
    "  NO_COLOR        set and not empty: no colour with --color auto\n"
    "  TERM            \"dumb\": no colour with --color auto\n";
constexpr std::string_view kPassphraseEnv =
    "  PULUMI_CONFIG_PASSPHRASE       the passphrase (wins over the file)\n"
    "  PULUMI_CONFIG_PASSPHRASE_FILE  a file holding it (trailing "
    "whitespace trimmed)\n";

std::vector<const CLI::App*> Commands() {
  std::vector<const CLI::App*> out;
  for (const CLI::App* sub : RootApp().get_subcommands({})) {
    out.push_back(sub);
  }
  return out;
}

/// An option's value as the man page shows it: its type name ("FORMAT";
/// the option's own name in capitals for CLI11's generic "TEXT"), then the
/// allowed values when a check lists them ("FORMAT:{text,json}"); never a
/// validator's other wording ("N >= 0").
/// The option's name without dashes, in capitals ("--jobs": "JOBS").
std::string UpperName(const CLI::Option& opt) {
  std::string name = opt.get_name();
  name.erase(0, name.find_first_not_of('-'));
  for (char& ch : name) ch = ascii::ToUpper(ch);
  return name;
}

std::string ValueName(const CLI::Option& opt) {
  std::string full = opt.get_type_name();
  std::size_t colon = full.find(':');
  std::string name = full.substr(0, colon);
  if (name.empty() || name == "TEXT" || name == "INT") name = UpperName(opt);
  if (colon != std::string::npos && colon + 1 < full.size() &&
      full[colon + 1] == '{') {
    name += full.substr(colon);
  }
  return name;
}

/// A flag's spellings and help for completions and the man page.
struct FlagDoc {
  std::vector<std::string> names;
  std::string help;
  bool takes_value = false;
  std::string value_name;  ///< "FORMAT", "N" (empty for a flag)
  /// The values a completion offers, space-separated: a check's list
  /// ("text json"), or every finding code for --only/--skip.
  std::string choices;
};

/// The allowed values in a value name ("FORMAT:{text,json}" -> "text json").
std::string Choices(std::string_view value_name) {
  std::size_t open = value_name.find(":{");
  std::size_t close = value_name.rfind('}');
  if (value_name.substr(0, 4) == "CODE") {
    std::string codes;
    for (const FindingCodeInfo& info : FindingCodeInfos()) {
      if (!codes.empty()) codes.push_back(' ');
      codes += info.name;
    }
    return codes;
  }
  if (open == std::string_view::npos || close == std::string_view::npos ||
      close < open) {
    return {};
  }
  std::string out(value_name.substr(open + 2, close - open - 2));
  for (char& c : out) {
    if (c == ',') c = ' ';
  }
  return out;
}

std::vector<FlagDoc> Flags(const CLI::App& app) {
  std::vector<FlagDoc> out;
  for (const CLI::Option* opt : app.get_options({})) {
    if (opt->get_positional()) continue;
    FlagDoc doc;
    for (const std::string& s : opt->get_snames()) doc.names.push_back("-" + s);
    for (const std::string& l : opt->get_lnames())
      doc.names.push_back("--" + l);
    if (doc.names.empty()) continue;
    doc.help = opt->get_description();
    // A flag expects no value (CLI11 still gives it a type size of 1).
    doc.takes_value = opt->get_expected_max() > 0;
    if (doc.takes_value) {
      doc.value_name = ValueName(*opt);
      doc.choices = Choices(doc.value_name);
    }
    out.push_back(std::move(doc));
  }
  return out;
}

/// The values a completion offers for the command's first positional
/// argument when its type name lists them ("OPERATION:{delete,rename}"),
/// space-separated; "" otherwise.
std::string FirstPositionalChoices(const CLI::App& app) {
  for (const CLI::Option* opt : app.get_options({})) {
    if (opt->get_positional()) return Choices(ValueName(*opt));
  }
  return {};
}

/// The shells `pstate completion` writes a script for.
constexpr std::string_view kShells = "bash zsh fish powershell";

std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = std::min(text.find(' ', pos), text.size());
    if (end > pos) out.emplace_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

/// `s` as a PowerShell single-quoted string ('' inside).
std::string PowerShellQuote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  return out + "'";
}

/// Space-separated words as a PowerShell array: @('a', 'b').
std::string PowerShellList(std::string_view words) {
  std::string out = "@(";
  for (const std::string& w : Words(words)) {
    out += (out.size() > 2 ? ", " : "") + PowerShellQuote(w);
  }
  return out + ")";
}

std::string ShellQuoteSingle(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

/// Text for zsh's _arguments descriptions and fish's -d: no brackets,
/// colons or quotes that would end the spec.
std::string Plain(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '[' || c == ']') {
      out.push_back(c == '[' ? '(' : ')');
    } else if (c == ':') {
      out.push_back(' ');
    } else if (c == '\'' || c == '"' || c == '`' || c == '$' || c == '\\') {
      continue;
    } else {
      out.push_back(c);
    }
  }
  return out.substr(0, 120);
}

/// A roff special character for the UTF-8 sequence at `s[i]` (\[u2026]),
/// so the page is ASCII and renders the same whatever input encoding groff
/// or mandoc assume; `i` moves past the sequence. An invalid byte is "?".
std::string RoffCodePoint(std::string_view s, std::size_t& i) {
  const auto byte = [&](std::size_t k) {
    return static_cast<unsigned char>(s[k]);
  };
  const unsigned lead = byte(i);
  const std::size_t length = lead >= 0xF0u   ? 4
                             : lead >= 0xE0u ? 3
                             : lead >= 0xC0u ? 2
                                             : 1;
  if (length == 1 || i + length > s.size()) return "?";
  std::uint32_t cp = lead & (0x7Fu >> length);
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return "?";
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  i += length - 1;
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "\\[u%04X]", static_cast<unsigned>(cp));
  return buffer;
}

std::string RoffEscape(std::string_view s) {
  std::string out;
  bool line_start = true;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      out += RoffCodePoint(s, i);
    } else if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else if ((c == '.' || c == '\'') && line_start) {
      out += "\\&";
      out.push_back(c);
    } else {
      out.push_back(c);
    }
    line_start = c == '\n';
  }
  return out;
}

/// The command's usage line in roff: "pstate verify [options] [FILE|DIR...]".
std::string Usage(const CLI::App& app) {
  std::string out = "\\fBpstate " + RoffEscape(app.get_name()) + "\\fR";
  if (!Flags(app).empty()) out += " [\\fIoptions\\fR]";
  for (const CLI::Option* opt : app.get_options({})) {
    if (!opt->get_positional()) continue;
    std::string name = ValueName(*opt);
    // A long list of choices (edit's operations) would not fit the line:
    // the command's own help lists them.
    if (name.size() > 32 && name.find(':') != std::string::npos) {
      name.erase(name.find(':'));
    }
    std::string item = "\\fI" + RoffEscape(name) + "\\fR";
    if (opt->get_items_expected_max() > 1) item += "...";
    out += opt->get_required() ? " " + item : " [" + item + "]";
  }
  return out + "\n";
}

}  // namespace

CLI::App& RootApp() { return *root_app; }
void SetRootApp(CLI::App* app) { root_app = app; }

std::vector<std::string> FlagNames(const CLI::App& app) {
  std::vector<std::string> out;
  for (const FlagDoc& f : Flags(app)) {
    out.insert(out.end(), f.names.begin(), f.names.end());
  }
  return out;
}

std::string VersionText() {
  std::ostringstream out;
  out << "pstate " << PSTATE_VERSION << " (commit " << PSTATE_COMMIT << ")\n"
      << "  " << OpenSSL_version(OPENSSL_VERSION) << "\n"
      << "  " << archive_version_details() << "\n"
      << "  CLI11 " << CLI11_VERSION << "\n";
  return out.str();
}

std::string CommandFooter(std::string_view command) {
  const CommandHelp* h = FindHelp(command);
  std::string out;
  if (h != nullptr) out += "\nExamples:\n" + std::string(h->examples);
  out += "\nExit codes:\n";
  if (h != nullptr && h->findings) {
    out +=
        "  0  no counted finding at or above --fail-on (default: error)\n"
        "  1  a counted finding at or above --fail-on\n"
        "  2  an input could not be read as a state, or bad usage\n";
  } else if (h != nullptr && !h->exits.empty()) {
    out += h->exits;
  } else {
    out +=
        "  0  success\n"
        "  2  bad usage\n";
  }
  out += "\nEnvironment:\n";
  if (h != nullptr && h->findings) out += kColorEnv;
  if (h != nullptr && h->passphrase) out += kPassphraseEnv;
  if (h == nullptr || (!h->findings && !h->passphrase)) {
    out += "  (none read by this command)\n";
  }
  out += "\nDocumentation: " + std::string(DocsBaseUri()) +
         "/cli.md; pstate man\n";
  return out;
}

std::string RootFooter() {
  return "\nExamples:\n"
         "  pstate verify stack.json\n"
         "  pstate help verify\n"
         "  pstate rules\n"
         "  pstate explain dependency-order\n"
         "\nExit codes: 0 ok, 1 findings (see each command), 2 unreadable "
         "input or bad usage.\n"
         "\nEnvironment:\n" +
         std::string(kColorEnv) + std::string(kPassphraseEnv) +
         "\nDocumentation: " + std::string(DocsBaseUri()) +
         "/cli.md; pstate man\n";
}

std::string CompletionScript(std::string_view shell) {
  std::ostringstream out;
  std::vector<const CLI::App*> commands = Commands();
  if (shell == "bash") {
    out << "# bash completion for pstate (pstate completion bash)\n"
           "_pstate() {\n"
           "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" opts=\"\"\n"
           "  local prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
           "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
           "    COMPREPLY=($(compgen -W \"";
    bool first = true;
    for (const CLI::App* c : commands) {
      out << (first ? "" : " ") << c->get_name();
      first = false;
    }
    out << " --help --version\" -- \"$cur\"))\n"
           "    return\n"
           "  fi\n"
           "  case \"${COMP_WORDS[1]}\" in\n";
    for (const CLI::App* c : commands) {
      out << "    " << c->get_name() << ") opts=\"";
      first = true;
      for (const std::string& n : FlagNames(*c)) {
        out << (first ? "" : " ") << n;
        first = false;
      }
      out << "\"\n      case \"$prev\" in\n";
      for (const FlagDoc& f : Flags(*c)) {
        if (f.choices.empty()) continue;
        out << "        ";
        first = true;
        for (const std::string& n : f.names) {
          out << (first ? "" : "|") << n;
          first = false;
        }
        out << ") COMPREPLY=($(compgen -W \"" << f.choices
            << "\" -- \"$cur\")); return ;;\n";
      }
      out << "      esac";
      if (std::string ops = FirstPositionalChoices(*c); !ops.empty()) {
        out << "\n      if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
               "        COMPREPLY=($(compgen -W \""
            << ops
            << "\" -- \"$cur\")); return\n"
               "      fi";
      }
      out << " ;;\n";
    }
    out << "  esac\n"
           "  case \"${COMP_WORDS[1]}\" in\n"
           "    help) COMPREPLY=($(compgen -W \"";
    first = true;
    for (const CLI::App* c : commands) {
      out << (first ? "" : " ") << c->get_name();
      first = false;
    }
    out << "\" -- \"$cur\")); return ;;\n"
           "    explain) COMPREPLY=($(compgen -W \"";
    first = true;
    for (const FindingCodeInfo& info : FindingCodeInfos()) {
      out << (first ? "" : " ") << info.name;
      first = false;
    }
    out << "\" -- \"$cur\")); return ;;\n"
           "    completion) COMPREPLY=($(compgen -W \""
        << kShells
        << "\" -- \"$cur\")); return ;;\n"
           "  esac\n"
           "  if [[ \"$cur\" == -* ]]; then\n"
           "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
           "  else\n"
           "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
           "  fi\n"
           "}\n"
           "complete -o filenames -F _pstate pstate\n";
    return out.str();
  }
  if (shell == "zsh") {
    out << "#compdef pstate\n"
           "# zsh completion for pstate (pstate completion zsh)\n"
           "_pstate() {\n"
           "  local -a commands\n"
           "  commands=(\n";
    for (const CLI::App* c : commands) {
      out << "    '" << c->get_name() << ":"
          << ShellQuoteSingle(Plain(c->get_description())) << "'\n";
    }
    out << "  )\n"
           "  if (( CURRENT == 2 )); then\n"
           "    _describe 'command' commands\n"
           "    return\n"
           "  fi\n"
           "  case $words[2] in\n";
    for (const CLI::App* c : commands) {
      out << "    " << c->get_name() << ")\n      _arguments";
      for (const FlagDoc& f : Flags(*c)) {
        for (const std::string& n : f.names) {
          out << " \\\n        '" << n << "[" << ShellQuoteSingle(Plain(f.help))
              << "]";
          if (f.takes_value) {
            out << ":value:";
            if (!f.choices.empty()) out << "(" << f.choices << ")";
          }
          out << "'";
        }
      }
      if (c->get_name() == "explain") {
        out << " \\\n        '1:code:(";
        for (const FindingCodeInfo& info : FindingCodeInfos()) {
          out << info.name << ' ';
        }
        out << ")'";
      } else if (c->get_name() == "completion") {
        out << " \\\n        '1:shell:(" << kShells << ")'";
      } else if (std::string ops = FirstPositionalChoices(*c); !ops.empty()) {
        out << " \\\n        '1:operation:(" << ops << ")'"
            << " \\\n        '*:file:_files'";
      } else {
        out << " \\\n        '*:file:_files'";
      }
      out << " ;;\n";
    }
    out << "  esac\n"
           "}\n"
           "_pstate \"$@\"\n";
    return out.str();
  }
  if (shell == "fish") {
    out << "# fish completion for pstate (pstate completion fish)\n"
           "complete -c pstate -f\n";
    for (const CLI::App* c : commands) {
      out << "complete -c pstate -n __fish_use_subcommand -a " << c->get_name()
          << " -d '" << ShellQuoteSingle(Plain(c->get_description())) << "'\n";
    }
    for (const CLI::App* c : commands) {
      std::string cond = "'__fish_seen_subcommand_from " + c->get_name() + "'";
      for (const FlagDoc& f : Flags(*c)) {
        out << "complete -c pstate -n " << cond;
        for (const std::string& n : f.names) {
          if (n.size() > 2 && n[1] == '-') {
            out << " -l " << n.substr(2);
          } else {
            out << " -s " << n.substr(1);
          }
        }
        if (!f.choices.empty()) {
          out << " -xa '" << f.choices << "'";
        } else if (f.takes_value) {
          out << " -r";
        }
        out << " -d '" << ShellQuoteSingle(Plain(f.help)) << "'\n";
      }
      if (c->get_name() == "explain") {
        out << "complete -c pstate -n " << cond << " -a '";
        for (const FindingCodeInfo& info : FindingCodeInfos()) {
          out << info.name << ' ';
        }
        out << "'\n";
      } else if (std::string ops = FirstPositionalChoices(*c); !ops.empty()) {
        out << "complete -c pstate -n " << cond << " -a '" << ops << "'\n";
        out << "complete -c pstate -n " << cond << " -F\n";
      } else if (c->get_name() != "completion" && c->get_name() != "rules" &&
                 c->get_name() != "man" && c->get_name() != "help") {
        out << "complete -c pstate -n " << cond << " -F\n";
      }
    }
    return out.str();
  }
  if (shell == "powershell") {
    // A native-command completer (PowerShell 5.1 and 7): commands, then a
    // command's flags, a flag's values, the first argument's choices; for
    // anything else it returns nothing and PowerShell completes paths.
    out << "# PowerShell completion for pstate (pstate completion powershell)\n"
           "Register-ArgumentCompleter -Native -CommandName pstate "
           "-ScriptBlock {\n"
           "  param($wordToComplete, $commandAst, $cursorPosition)\n"
           "  $commands = [ordered]@{\n";
    for (const CLI::App* c : commands) {
      out << "    '" << c->get_name()
          << "' = " << PowerShellQuote(c->get_description()) << "\n";
    }
    out << "  }\n"
           "  $flags = @{\n";
    for (const CLI::App* c : commands) {
      out << "    '" << c->get_name() << "' = @(";
      bool first = true;
      for (const std::string& n : FlagNames(*c)) {
        out << (first ? "" : ", ") << "'" << n << "'";
        first = false;
      }
      out << ")\n";
    }
    out << "  }\n"
           "  $values = @{\n";
    for (const CLI::App* c : commands) {
      for (const FlagDoc& f : Flags(*c)) {
        if (f.choices.empty()) continue;
        for (const std::string& n : f.names) {
          out << "    '" << c->get_name() << " " << n
              << "' = " << PowerShellList(f.choices) << "\n";
        }
      }
    }
    out << "  }\n"
           "  $first = @{\n";
    std::string names;
    for (const CLI::App* c : commands) {
      names += (names.empty() ? "" : " ") + c->get_name();
    }
    std::string codes;
    for (const FindingCodeInfo& info : FindingCodeInfos()) {
      codes += (codes.empty() ? "" : " ") + std::string(info.name);
    }
    out << "    'help' = " << PowerShellList(names) << "\n"
        << "    'explain' = " << PowerShellList(codes) << "\n"
        << "    'completion' = " << PowerShellList(kShells) << "\n";
    for (const CLI::App* c : commands) {
      if (std::string ops = FirstPositionalChoices(*c); !ops.empty()) {
        out << "    '" << c->get_name() << "' = " << PowerShellList(ops)
            << "\n";
      }
    }
    out << "  }\n"
           "  $words = @($commandAst.CommandElements | "
           "ForEach-Object { $_.ToString() })\n"
           "  # The words before the one being completed.\n"
           "  $done = if ($wordToComplete -eq '') { $words.Count } "
           "else { $words.Count - 1 }\n"
           "  if ($done -le 1) {\n"
           "    $candidates = @($commands.Keys) + @('--help', '--version')\n"
           "  } else {\n"
           "    $command = $words[1]\n"
           "    $key = \"$command $($words[$done - 1])\"\n"
           "    if ($values.ContainsKey($key)) {\n"
           "      $candidates = $values[$key]\n"
           "    } elseif ($wordToComplete.StartsWith('-')) {\n"
           "      $candidates = $flags[$command]\n"
           "    } elseif ($done -eq 2 -and $first.ContainsKey($command)) {\n"
           "      $candidates = $first[$command]\n"
           "    } else {\n"
           "      return\n"
           "    }\n"
           "  }\n"
           "  $candidates | Where-Object { $_ -like \"$wordToComplete*\" } |\n"
           "    ForEach-Object {\n"
           "      $tip = if ($done -le 1 -and $commands.Contains($_)) "
           "{ $commands[$_] } else { $_ }\n"
           "      [System.Management.Automation.CompletionResult]::new(\n"
           "        $_, $_, 'ParameterValue', $tip)\n"
           "    }\n"
           "}\n";
    return out.str();
  }
  return {};
}

std::string ManPage() {
  std::ostringstream out;
  out << ".TH PSTATE 1 \"\" \"pstate " << PSTATE_VERSION
      << "\" \"User Commands\"\n"
         ".SH NAME\n"
         "pstate \\- fast, safe, offline tooling for Pulumi state files\n"
         ".SH SYNOPSIS\n"
         ".B pstate\n"
         ".I command\n"
         "[\\fIoptions\\fR] [\\fIFILE\\fR|\\fIDIR\\fR...]\n"
         ".SH DESCRIPTION\n"
         "pstate reads Pulumi state files (stack exports and checkpoints, "
         "plain, gzip or zstd) without a Pulumi backend or network access.\n"
         ".SH COMMANDS\n";
  for (const CLI::App* c : Commands()) {
    out << ".SS " << c->get_name() << "\n"
        << RoffEscape(c->get_description()) << "\n.PP\n"
        << Usage(*c);
    for (const FlagDoc& f : Flags(*c)) {
      out << ".TP\n";
      bool first = true;
      for (const std::string& n : f.names) {
        out << (first ? "" : ", ") << "\\fB" << RoffEscape(n) << "\\fR";
        first = false;
      }
      if (!f.value_name.empty()) {
        out << " \\fI" << RoffEscape(f.value_name) << "\\fR";
      }
      out << "\n" << RoffEscape(f.help) << "\n";
    }
    const CommandHelp* h = FindHelp(c->get_name());
    if (h != nullptr) {
      out << ".PP\nExamples:\n.nf\n" << RoffEscape(h->examples) << ".fi\n";
      if (!h->exits.empty()) {
        out << ".PP\nExit status:\n.nf\n" << RoffEscape(h->exits) << ".fi\n";
      }
    }
  }
  out << ".SH EXIT STATUS\n"
         "For verify and scan (the other commands list theirs above):\n"
         ".TP\n.B 0\nSuccess: no counted finding at or above \\-\\-fail\\-on.\n"
         ".TP\n.B 1\nFindings at or above \\-\\-fail\\-on (default: error).\n"
         ".TP\n.B 2\nAn input could not be read as a state, or bad usage.\n"
         ".SH ENVIRONMENT\n"
         ".TP\n.B NO_COLOR\nSet and not empty: no colour with "
         "\\-\\-color auto.\n"
         ".TP\n.B TERM\nWhen \"dumb\": no colour with \\-\\-color auto.\n"
         ".TP\n.B PULUMI_CONFIG_PASSPHRASE\nThe passphrase of the passphrase "
         "secrets provider (wins over the file).\n"
         ".TP\n.B PULUMI_CONFIG_PASSPHRASE_FILE\nA file holding the "
         "passphrase.\n"
         ".SH FINDING CODES\n";
  for (const FindingCodeInfo& info : FindingCodeInfos()) {
    out << ".TP\n.B " << RoffEscape(info.name) << " ("
        << SeverityName(info.severity) << ")\n"
        << RoffEscape(info.description) << "\n";
  }
  out << ".SH SEE ALSO\n"
         "\\fBpstate explain\\fR \\fICODE\\fR, \\fBpstate rules\\fR, "
         "\\fBpstate help\\fR \\fICOMMAND\\fR\n"
         ".PP\n"
      << RoffEscape(std::string(DocsBaseUri())) << "/cli.md\n";
  return out.str();
}

std::function<int()> SetupHelp(CLI::App& app) {
  auto command = std::make_shared<std::string>();
  app.add_option("command", *command, "The command to describe");
  app.allow_extras();
  return [command] {
    if (command->empty()) {
      std::cout << RootApp().help();
      return static_cast<int>(kExitOk);
    }
    std::vector<std::string> names;
    for (const CLI::App* c : RootApp().get_subcommands({})) {
      names.push_back(c->get_name());
      if (c->get_name() == *command) {
        // As `pstate CMD --help` prints it: "Usage: pstate CMD ...".
        std::cout << c->help("pstate");
        return static_cast<int>(kExitOk);
      }
    }
    report::PrintError(std::cerr, "unknown command '" + *command + "'" +
                                      DidYouMean(*command, names));
    std::cerr << "Run 'pstate --help' for the list of commands.\n";
    return static_cast<int>(kExitUnreadable);
  };
}

std::function<int()> SetupCompletion(CLI::App& app) {
  auto shell = std::make_shared<std::string>();
  app.add_option("shell", *shell, "bash, zsh, fish or powershell")
      ->required()
      ->check(CLI::IsMember(Words(kShells)));
  return [shell] {
    std::cout << CompletionScript(*shell);
    return static_cast<int>(kExitOk);
  };
}

std::function<int()> SetupMan(CLI::App& app) {
  (void)app;
  return [] {
    std::cout << ManPage();
    return static_cast<int>(kExitOk);
  };
}

std::function<int()> SetupVersion(CLI::App& app) {
  (void)app;
  return [] {
    std::cout << VersionText();
    return static_cast<int>(kExitOk);
  };
}

std::shared_ptr<CLI::Formatter> MakeHelpFormatter() {
  class HelpFormatter : public CLI::Formatter {
   public:
    std::string make_option_opts(const CLI::Option* opt) const override {
      // A flag: CLI11 gives it no type name.
      if (opt->get_type_size() == 0 || opt->get_type_name().empty()) {
        return {};
      }
      std::string out;
      std::string value = ValueName(*opt);
      // A positional's name says what it is unless its value has a name
      // of its own ("files FILE|DIR").
      if (!opt->get_positional() || value != UpperName(*opt)) {
        out += " " + value;
      }
      if (!opt->get_default_str().empty()) out += "=" + opt->get_default_str();
      if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) {
        out += " ...";
      }
      if (opt->get_required()) out += " REQUIRED";
      for (const CLI::Option* other : opt->get_excludes()) {
        out += " (not with " + other->get_name() + ")";
      }
      return out;
    }
  };
  return std::make_shared<HelpFormatter>();
}

}  // namespace pstate::cli
