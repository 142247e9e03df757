// The one CSV writer (RFC 4180): `ls --format csv` and `stats --format csv`
// write their rows through it.
#ifndef PSTATE_REPORT_CSV_H_
#define PSTATE_REPORT_CSV_H_

#include <cstdint>
#include <ostream>
#include <string_view>

namespace pstate::report {

/// RFC 4180: fields separated by commas, every record ended by CRLF; a
/// field holding a comma, a double quote, CR, LF or another control
/// character is enclosed in double quotes, its double quotes doubled.
/// Other bytes (UTF-8 included) are written as they are. A record is the
/// fields given since the last EndRecord.
class CsvWriter {
 public:
  explicit CsvWriter(std::ostream& out) : out_(out) {}
  CsvWriter& Field(std::string_view text);
  CsvWriter& Field(std::uint64_t n);
  void EndRecord();

 private:
  std::ostream& out_;
  bool first_ = true;
};

}  // namespace pstate::report

#endif  // PSTATE_REPORT_CSV_H_
