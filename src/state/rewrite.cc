#include "pstate/state/rewrite.h"

#include <sys/stat.h>

#include <memory>
#include <utility>

#include "pstate/diag/report.h"
#include "pstate/io/input.h"
#include "pstate/io/output.h"

namespace pstate::state {
namespace {

/// An Output in front of the real one that can hold or drop bytes.
class GatedOutput : public io::Output, public OutputGate {
 public:
  GatedOutput(io::Output& inner, bool hold) : inner_(inner), holding_(hold) {
    name_ = inner.name();
  }
  void Release() override {
    if (discarded_ || !holding_) return;
    holding_ = false;
    Flush();
    if (!held_.empty()) inner_.Write(held_);
    std::string().swap(held_);
  }
  void Discard() override {
    discarded_ = true;
    holding_ = false;
    DiscardBuffer();
    std::string().swap(held_);
  }
  Status Commit() override {
    if (discarded_) return Status(Errc::kInvalidArgument, "output discarded");
    Release();
    Flush();
    return inner_.Commit();
  }
  void Abandon() override {
    Discard();
    inner_.Abandon();
  }

 private:
  void WriteOut(std::string_view bytes) override {
    if (discarded_) return;
    if (holding_) {
      held_.append(bytes);
    } else {
      inner_.Write(bytes);
    }
  }

  io::Output& inner_;
  bool holding_;
  bool discarded_ = false;
  std::string held_;
};

bool SameFile(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-") return false;
  struct stat sa{}, sb{};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/// The first fatal finding as "file:line:column: message".
std::string Located(const diag::Report& report, const Status& status) {
  for (const diag::Finding& f : report.findings()) {
    if (!diag::IsFatal(f.code)) continue;
    std::string out = report.file();
    if (f.line > 0) {
      out += ":" + std::to_string(f.line) + ":" + std::to_string(f.column);
    }
    return out + ": " + f.message;
  }
  return report.file() + ": " + status.message();
}

}  // namespace

Status RewriteState(const RewriteOptions& options, const RewriteJob& job) {
  if (SameFile(options.input, options.output)) {
    return Status(Errc::kInvalidArgument,
                  options.output +
                      ": the output is the input; pstate never modifies its "
                      "input (write elsewhere, then move it)");
  }
  auto input = io::OpenInput(options.input);
  if (!input.ok()) return input.status();
  auto output = io::OpenOutput(options.output, options.output_options);
  if (!output.ok()) return output.status();
  GatedOutput gated(**output, options.hold_output);
  json::Writer writer(gated, options.layout);
  state::StateWriter handler(writer, job.make_pass ? job.make_pass(&gated)
                                                   : state::StateWriter::Pass());
  diag::Report report(options.input == "-" ? "<stdin>" : options.input);
  state::ReadOptions read_options;
  read_options.on_progress = options.on_progress;
  Status status = state::Read(**input, handler, report, read_options);
  if (!status.ok()) {
    gated.Abandon();
    // An unreadable input is located in the report; a pass's own failure
    // comes as its Status.
    return report.fatal() ? Status(status.code(), Located(report, status))
                          : status;
  }
  if (job.pass_status) {
    Status pass = job.pass_status();
    if (!pass.ok()) {
      gated.Abandon();
      return pass;
    }
  }
  return gated.Commit();
}

}  // namespace pstate::state
