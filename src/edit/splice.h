// Producing an edited state from the input's bytes: every byte the plan
// does not touch is copied; a resource or pending operation that changes
// is parsed again from its byte range, rewritten, and written in the
// input's own layout (indentation, compactness, HTML escaping) in place of
// its old bytes; dropped elements go with their separators; a new order
// is a new sequence of the same byte ranges. The result is a list of
// segments (input ranges and new text) that can be streamed any number
// of times: once through the verifier, once to the output.
#ifndef PSTATE_EDIT_SPLICE_H_
#define PSTATE_EDIT_SPLICE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "edit/index.h"
#include "edit/plan.h"
#include "edit/records.h"
#include "io/input.h"
#include "io/output.h"
#include "json/string_codec.h"
#include "json/value.h"

namespace pstate::edit {

/// Called with input ranges that will not be read again soon, so a mapped
/// input's pages can be handed back (resident memory then follows the
/// index, not the file). May be empty.
using ReleaseFn = std::function<void(std::uint64_t begin, std::uint64_t end)>;

struct ChangeList {
  std::vector<FieldChange> envelope;
  /// Typed records (removals, moves) and held changes (rewrites,
  /// additions), rendered when read.
  ElementChanges resources;
  std::vector<ElementChange> pending;
  bool empty() const {
    return envelope.empty() && resources.empty() && pending.empty();
  }
};

/// How elements are laid out where they sit.
struct Layout {
  bool indented = true;
  std::string prefix;         ///< whitespace starting the element's line
  std::string unit = "    ";  ///< one level of indentation
  json::EscapeStyle style = json::EscapeStyle::kExport;
};

/// The layout of the element at `range` of `bytes`.
Layout DetectLayout(std::string_view bytes, ByteRange range,
                    json::EscapeStyle style);

/// The element at `range` of `bytes`, parsed again into `arena` (`buffer`
/// holds the copy the parser reads).
Result<json::Value> ParseElement(std::string_view bytes, ByteRange range,
                                 json::Arena& arena, std::string* buffer);

/// The escaping the input of `index` uses (Go's HTML-safe one, or the
/// export's), read in steps whose pages go to `release`.
json::EscapeStyle InputStyle(std::string_view bytes, const Index& index,
                             const ReleaseFn& release = {});

/// The layout a resource added to the resources array of `bytes` (indexed
/// as `index`) takes: its last element's, or, in an empty array, one level
/// below the member's key.
Layout ElementLayout(std::string_view bytes, const Index& index);

/// Called with each string a rewrite cannot keep byte for byte
/// (json::Writer::OnLossyString: a lone surrogate escape becomes U+FFFD).
using LossyFn = std::function<void(const json::Value&)>;

/// The resource at `range` of `bytes`, after `edit` (may be null) and the
/// plan's URN map, provider references and pruning, written in `layout`.
Result<std::string> RenderResource(std::string_view bytes, ByteRange range,
                                   const ResourceEdit* edit, const Plan& plan,
                                   const Layout& layout,
                                   const LossyFn& on_lossy = {});

/// The note for `count` strings of `what` (a URN, a pending operation) that
/// a rewrite writes with U+FFFD in place of a lone surrogate escape, as
/// normalize and convert note them: what Pulumi reads and would write.
std::string LossyStringNote(std::string_view what, std::size_t count);

/// A root stack resource (`{"urn", "custom": false, "type"}`) in `layout`.
std::string RootStackText(std::string_view urn, std::string_view type,
                          const Layout& layout);

/// `value` as JSON text in `layout`, to stand where an element of that
/// layout stood (no leading prefix, no trailing newline).
std::string Serialize(const json::Value& value, const Layout& layout,
                      const LossyFn& on_lossy = {});

/// A resource object after `edit` (may be null) and the plan's URN map
/// and pruning. `*changed` tells whether anything differs.
json::Value RewriteResource(const json::Value& resource,
                            const ResourceEdit* edit, const Plan& plan,
                            json::Arena& arena, bool* changed);

/// The field-level differences of two resource objects.
std::vector<FieldChange> DiffResource(const json::Value& before,
                                      const json::Value& after);

/// A segment's own text, held apart: most segments are input ranges (a
/// repair that reorders a long chain has one per resource), which then
/// cost a pointer, not a string (a segment is 32 bytes, not 56).
class SegmentText {
 public:
  SegmentText() = default;
  SegmentText(const SegmentText& o)
      : text_(o.text_ ? std::make_unique<std::string>(*o.text_) : nullptr) {}
  SegmentText& operator=(const SegmentText& o) {
    if (this != &o) *this = SegmentText(o);
    return *this;
  }
  SegmentText(SegmentText&&) noexcept = default;
  SegmentText& operator=(SegmentText&&) noexcept = default;
  ~SegmentText() = default;

  std::string_view view() const {
    return text_ ? std::string_view(*text_) : std::string_view();
  }
  std::size_t size() const { return text_ ? text_->size() : 0; }
  bool empty() const { return size() == 0; }
  /// The text, made when there is none yet.
  std::string& get() {
    if (!text_) text_ = std::make_unique<std::string>();
    return *text_;
  }

 private:
  std::unique_ptr<std::string> text_;
};

struct Segment {
  std::uint64_t begin = 0, end = 0;  ///< input range, when text is empty
  SegmentText text;
  bool is_text = false;
  /// Check documents only (Assembly::check_segments): the stubs of
  /// resources Assembly::stubbed[begin, end), separated by ",\n" (and
  /// preceded by one when `lead`), generated as the stream reads them.
  bool is_stubs = false;
  bool lead = false;
  /// Resource `begin` of the index, rewritten under the plan: its text is
  /// rendered from the input each time the segment is read or written
  /// (RenderResource), never held.
  bool is_resource = false;
};

struct Assembly {
  std::vector<Segment> segments;
  ChangeList changes;
  /// True when the output equals the input byte for byte.
  bool unchanged = true;
  /// Strings a rewritten resource or pending operation cannot keep byte
  /// for byte (LossyStringNote), one note per element.
  std::vector<std::string> notes;

  /// The document pass 2 verifies instead of the whole output (when asked
  /// for and possible; empty otherwise): the output with every resource
  /// the edit cannot affect replaced by a stub holding only its URN, type,
  /// custom, id and delete flag, so the verifier still knows it is there
  /// (for references to it, duplicates and provider references) without
  /// reading its bytes again.
  ///
  /// Why a stubbed resource R's findings cannot change (so the input's
  /// findings about it stand, and the verifier's findings at a stub are
  /// ignored): R is copied byte for byte, so every check of R alone gives
  /// what it gave in pass 1 (the envelope it is read under differs at most
  /// in version 3 <-> 4 and features, which no resource check reads; the
  /// stack/project rule is left out by the caller when the input already
  /// broke it). The integrity rules (pulumi-state-format.md §4.1) are
  /// about references and order: R's references (parent, dependencies,
  /// propertyDependencies, deletedWith, replaceWith, provider, and any
  /// resource reference in its property values) resolve to the same
  /// copies, in the same relative order, because no URN R names is renamed
  /// or loses a copy (else R is read in full), no resource is added, and
  /// the kept resources keep their order (a reordering edit gets no check
  /// document). The duplicate rule only loses copies or gains new URNs
  /// (renames refuse an existing URN), so no URN newly breaks it. One
  /// reference is not looked at: a resource reference inside a secret's
  /// plaintext (the index does not list it, Index::AddResource); the only
  /// finding it can give is resource-ref-dangling, a warning, and pass 2
  /// compares errors only (NewErrors, edit.h), so a stub hides at most a
  /// warning (test CheckDocumentTest.
  /// APlaintextReferenceIsNotVisibleAndDoesNotMatter).
  std::vector<Segment> check_segments;
  /// Per element of the check document's resources array: a stub.
  std::vector<bool> stub;
  /// The stubbed resources (positions in the index), in order.
  std::vector<std::uint32_t> stubbed;

  /// What rewritten resources and stubs are rendered from: the index and
  /// plan Assemble was given (they must outlive the assembly's use), and
  /// the input's escaping.
  const Index* index = nullptr;
  const Plan* plan = nullptr;
  json::EscapeStyle style = json::EscapeStyle::kExport;
};

/// Builds the edited state of `bytes` (indexed as `index`) under `plan`;
/// with `check_affected_only`, also its check document (Assembly::
/// check_segments) when the plan keeps the resources' order.
Result<Assembly> Assemble(std::string_view bytes, const Index& index,
                          const Plan& plan, const ReleaseFn& release = {},
                          bool check_affected_only = false);

/// The segments (the output's, or the check document's) of `assembly` as a
/// stream, for the verifier's pass; rewritten resources and stub runs are
/// rendered as the stream reaches them.
std::unique_ptr<io::InputStream> SegmentStream(
    std::string_view bytes, const Assembly& assembly,
    const std::vector<Segment>& segments, std::string name,
    ReleaseFn release = {});

/// Writes the output's segments of `assembly` to `out`, rendering each
/// rewritten resource as it comes. With `fd` (InputStream::plain_file_fd() of
/// the file `bytes` maps), ranges of the input are copied by the kernel
/// (io::Output::CopyRange) and their pages are never touched here; kIo
/// when the input cannot be read or shrank.
Status WriteSegments(std::string_view bytes, const Assembly& assembly,
                     io::Output& out, const ReleaseFn& release = {},
                     int fd = -1);

}  // namespace pstate::edit

#endif  // PSTATE_EDIT_SPLICE_H_
