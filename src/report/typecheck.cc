#include "report/typecheck.h"

#include "json/writer.h"
#include "report/terminal.h"

namespace pstate::report {

void WriteTypeVerdict(const TypeVerdict& verdict, TypecheckFormat format,
                      std::ostream& out) {
  const bool error = verdict.outcome == TypeOutcome::kError;
  if (format == TypecheckFormat::kText) {
    switch (verdict.outcome) {
      case TypeOutcome::kOk: out << "ok\n"; break;
      // The converted value, the pointer and the message may quote the
      // value's keys and strings: escaped for the terminal (JSON keeps a
      // C1 control such as CSI as its raw bytes).
      case TypeOutcome::kConvert:
        out << "convert " << TerminalSafe(verdict.converted) << '\n';
        break;
      case TypeOutcome::kError:
        if (verdict.pointer.empty()) {
          out << "error: " << TerminalSafe(verdict.message) << '\n';
        } else {
          out << "error at " << TerminalSafe(verdict.pointer) << ": "
              << TerminalSafe(verdict.message) << '\n';
        }
        break;
    }
    return;
  }
  {
    json::StringSink sink(&out);
    json::Writer w(sink, json::Layout::kCompact);
    w.BeginObject();
    w.Name("result");
    w.String(TypecheckOutcomeName(verdict.outcome));
    w.Name("converted");
    if (verdict.outcome == TypeOutcome::kConvert) {
      w.RawValue(verdict.converted);
    } else {
      w.Null();
    }
    w.Name("message");
    if (error) {
      w.String(verdict.message);
    } else {
      w.Null();
    }
    w.Name("pointer");
    if (error) {
      w.String(verdict.pointer);
    } else {
      w.Null();
    }
    w.EndObject();
  }
  out << '\n';
}

void WriteTypecheckCase(const TypecheckCase& one, std::ostream& out) {
  {
    json::StringSink sink(&out);
    json::Writer w(sink, json::Layout::kCompact);
    w.BeginObject();
    w.Name("line");
    w.Uint(one.line);
    w.Name("result");
    if (!one.invalid.empty()) {
      w.String("invalid");
      w.Name("message");
      w.String(one.invalid);
    } else {
      const TypeVerdict& v = one.verdict;
      w.String(TypecheckOutcomeName(v.outcome));
      if (v.outcome == TypeOutcome::kConvert) {
        w.Name("converted");
        w.RawValue(v.converted);
      } else if (v.outcome == TypeOutcome::kError) {
        w.Name("message");
        w.String(v.message);
        w.Name("pointer");
        w.String(v.pointer);
      }
      if (one.pass) {
        w.Name("pass");
        w.Bool(*one.pass);
      }
    }
    w.EndObject();
  }
  out << '\n';
}

}  // namespace pstate::report
