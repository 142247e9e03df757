#include "state/rewrite.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "diag/failure.h"
#include "diag/report.h"
#include "io/input.h"
#include "io/output.h"
#include "io/spool.h"

namespace pstate::state {
namespace {

/// An output that cannot be renamed into place: standard output, or an
/// existing path that is neither a regular file nor a directory.
bool StreamTarget(const std::string& output) {
  if (output == "-") return true;
  struct stat st {};
  if (::stat(output.c_str(), &st) != 0) return false;  // created: renamed
  return !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/// Holds everything in an unlinked temporary file and hands it to the real
/// output on Commit: a failure leaves the target without a single byte.
class DeferredOutput : public io::Output {
 public:
  DeferredOutput(std::unique_ptr<io::Output> target, int fd)
      : target_(std::move(target)), fd_(fd) {
    name_ = target_->name();
  }
  ~DeferredOutput() override {
    if (fd_ >= 0) ::close(fd_);
  }
  Status Commit() override {
    Flush();
    if (error_ != 0) {
      Abandon();
      return Status(Errc::kIo, name_ +
                                   ": cannot hold the output in a "
                                   "temporary file: " +
                                   std::strerror(error_));
    }
    std::vector<char> buf(1 << 20);
    std::uint64_t offset = 0;
    for (;;) {
      ssize_t got =
          ::pread(fd_, buf.data(), buf.size(), static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        int err = errno;
        Abandon();
        return Status(Errc::kIo, name_ + ": cannot read back the output: " +
                                     std::strerror(err));
      }
      if (got == 0) break;
      target_->Write(
          std::string_view(buf.data(), static_cast<std::size_t>(got)));
      offset += static_cast<std::uint64_t>(got);
    }
    ::close(fd_);
    fd_ = -1;
    return target_->Commit();
  }
  void Abandon() override {
    DiscardBuffer();
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    target_->Abandon();
  }

 private:
  void WriteOut(std::string_view bytes) override {
    while (error_ == 0 && !bytes.empty()) {
      ssize_t put = ::write(fd_, bytes.data(), bytes.size());
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) {
        error_ = put == 0 ? EIO : errno;
        return;
      }
      bytes.remove_prefix(static_cast<std::size_t>(put));
    }
  }

  std::unique_ptr<io::Output> target_;
  int fd_;
  int error_ = 0;
};

}  // namespace

Status CheckOutputIsNotInput(const std::string& input,
                             const std::string& output) {
  if (input == "-" || output == "-") return Status::Ok();
  struct stat si {
  }, so{};
  if (::stat(input.c_str(), &si) != 0 || ::stat(output.c_str(), &so) != 0) {
    return Status::Ok();
  }
  if (si.st_dev != so.st_dev || si.st_ino != so.st_ino) return Status::Ok();
  return Status(Errc::kInvalidArgument,
                output +
                    ": the output is the input; pstate never modifies its "
                    "input (write elsewhere, then move it)");
}

Status RewriteState(const RewriteOptions& options, io::InputStream& input,
                    const StateWriter::Pass& pass) {
  if (Status same = CheckOutputIsNotInput(options.input, options.output);
      !same.ok()) {
    return same;
  }
  auto opened = io::OpenOutput(options.output, options.output_options);
  if (!opened.ok()) return opened.status();
  std::unique_ptr<io::Output> output = std::move(opened).value();
  if (options.all_or_nothing && StreamTarget(options.output)) {
    Result<int> fd = io::CreateUnlinkedTempFile(options.temp_directory);
    if (!fd.ok()) {
      return Status(Errc::kIo, output->name() + ": " + fd.status().message());
    }
    output = std::make_unique<DeferredOutput>(std::move(output), *fd);
  }
  json::Writer writer(*output, options.layout);
  if (options.on_lossy_string) writer.OnLossyString(options.on_lossy_string);
  StateWriter handler(writer, pass);
  diag::Report report(io::InputName(options.input));
  ReadOptions read_options;
  read_options.on_progress = options.on_progress;
  Status status = Read(input, handler, report, read_options);
  if (!status.ok()) {
    output->Abandon();
    // An unreadable input is located in the report; a pass's own failure
    // comes as its Status, located by the pass.
    return diag::FailureOf(report, status).ToStatus();
  }
  return output->Commit();
}

}  // namespace pstate::state
