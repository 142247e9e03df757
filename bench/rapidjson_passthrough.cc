// rapidjson_passthrough FILE OUT [compact|pretty]: the rewrite baseline
// pstate's `redact` is compared to.
//
// Streams FILE through RapidJSON's SAX Reader (numbers kept as text, UTF-8
// validated) straight into a Writer (compact, the default) or a PrettyWriter
// with a 4-space indent (Go's json.MarshalIndent layout, as Pulumi writes
// state), both over 64 KiB stdio buffers. Memory stays bounded whatever the
// file size. Exits non-zero on any I/O or parse error.
//
// Numbers are passed through as their original text with
// RawValue(str, len, kNumberType): RapidJSON 1.1.0's Writer::RawNumber writes
// them as quoted strings (a bug in that version), and converting them to
// double would change e.g. 18446744073709552000 or 6.02214076e+23.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>

#include <rapidjson/encodings.h>
#include <rapidjson/error/en.h>
#include <rapidjson/filereadstream.h>
#include <rapidjson/filewritestream.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/reader.h>
#include <rapidjson/writer.h>

namespace {

constexpr size_t kBufferSize = 64 * 1024;
constexpr unsigned kParseFlags = rapidjson::kParseNumbersAsStringsFlag |
                                 rapidjson::kParseValidateEncodingFlag;

// Forwards every SAX event to a writer. With kParseNumbersAsStringsFlag the
// reader reports all numbers through RawNumber, so the typed number callbacks
// only exist to satisfy the Handler concept.
template <typename WriterT>
class Forwarder {
 public:
  using Ch = char;

  explicit Forwarder(WriterT& writer) : writer_(writer) {}

  bool Null() { return writer_.Null(); }
  bool Bool(bool b) { return writer_.Bool(b); }
  bool Int(int i) { return writer_.Int(i); }
  bool Uint(unsigned u) { return writer_.Uint(u); }
  bool Int64(int64_t i) { return writer_.Int64(i); }
  bool Uint64(uint64_t u) { return writer_.Uint64(u); }
  bool Double(double d) { return writer_.Double(d); }
  bool RawNumber(const Ch* str, rapidjson::SizeType length, bool /*copy*/) {
    return writer_.RawValue(str, length, rapidjson::kNumberType);
  }
  bool String(const Ch* str, rapidjson::SizeType length, bool /*copy*/) {
    return writer_.String(str, length);
  }
  bool StartObject() { return writer_.StartObject(); }
  bool Key(const Ch* str, rapidjson::SizeType length, bool /*copy*/) {
    return writer_.Key(str, length);
  }
  bool EndObject(rapidjson::SizeType count) { return writer_.EndObject(count); }
  bool StartArray() { return writer_.StartArray(); }
  bool EndArray(rapidjson::SizeType count) { return writer_.EndArray(count); }

 private:
  WriterT& writer_;
};

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f != nullptr) std::fclose(f);
  }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

// Runs the reader into `writer`; returns false (with a message) on error.
template <typename WriterT>
bool Pass(const char* in_path, std::FILE* in, WriterT& writer) {
  static char read_buffer[kBufferSize];
  rapidjson::FileReadStream stream(in, read_buffer, sizeof(read_buffer));
  Forwarder<WriterT> handler(writer);
  rapidjson::Reader reader;
  rapidjson::ParseResult result = reader.Parse<kParseFlags>(stream, handler);
  if (!result) {
    std::fprintf(stderr, "rapidjson_passthrough: %s: %s (at byte %zu)\n",
                 in_path, rapidjson::GetParseError_En(result.Code()),
                 result.Offset());
    return false;
  }
  if (std::ferror(in)) {
    std::fprintf(stderr, "rapidjson_passthrough: %s: read error\n", in_path);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: %s FILE OUT [compact|pretty]\n", argv[0]);
    return 2;
  }
  const std::string_view mode = argc == 4 ? argv[3] : "compact";
  if (mode != "compact" && mode != "pretty") {
    std::fprintf(stderr, "rapidjson_passthrough: unknown mode '%s'\n", argv[3]);
    return 2;
  }

  FilePtr in(std::fopen(argv[1], "rb"));
  if (!in) {
    std::fprintf(stderr, "rapidjson_passthrough: %s: %s\n", argv[1],
                 std::strerror(errno));
    return 1;
  }
  std::FILE* out_raw = std::fopen(argv[2], "wb");
  if (out_raw == nullptr) {
    std::fprintf(stderr, "rapidjson_passthrough: %s: %s\n", argv[2],
                 std::strerror(errno));
    return 1;
  }

  static char write_buffer[kBufferSize];
  rapidjson::FileWriteStream out_stream(out_raw, write_buffer,
                                        sizeof(write_buffer));
  bool ok = false;
  if (mode == "pretty") {
    rapidjson::PrettyWriter<rapidjson::FileWriteStream> writer(out_stream);
    writer.SetIndent(' ', 4);
    ok = Pass(argv[1], in.get(), writer);
  } else {
    rapidjson::Writer<rapidjson::FileWriteStream> writer(out_stream);
    ok = Pass(argv[1], in.get(), writer);
  }
  // Go's encoder (and so `pulumi stack export`) ends the document with a
  // newline; write one so that the outputs are comparable byte for byte.
  if (ok && mode == "pretty") out_stream.Put('\n');
  out_stream.Flush();
  const bool write_failed = std::ferror(out_raw) != 0;
  const bool close_failed = std::fclose(out_raw) != 0;
  if (write_failed || close_failed) {
    std::fprintf(stderr, "rapidjson_passthrough: %s: write error\n", argv[2]);
    return 1;
  }
  if (!ok) return 1;
  return 0;
}
