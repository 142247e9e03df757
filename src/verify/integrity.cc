#include "verify/integrity.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "base/fingerprint.h"

namespace pstate::verify {

JournalText IntegrityJournal::Add(std::string_view text) {
  JournalText t{texts.size(), text.size()};
  texts.append(text);
  return t;
}

JournalText IntegrityJournal::AddUrn(std::string_view urn) {
  if (last_urn.size != urn.size() || View(last_urn) != urn) {
    last_urn = Add(urn);
  }
  return last_urn;
}

void IntegrityJournal::AddFinding(diag::Finding finding) {
  IntegrityEvent e;
  e.finding = findings.size();
  findings.push_back(std::move(finding));
  events.push_back(e);
}

namespace {

using RefKind = PendingReference::Kind;

diag::Finding MakeAt(diag::Code code, std::string message,
                     const FindingPlace& place) {
  diag::Finding f =
      diag::MakeFinding(code, std::move(message), std::string(place.pointer),
                        std::string(place.urn));
  f.line = place.at.line;
  f.column = place.at.column;
  f.char_column = place.at.char_column;
  return f;
}

}  // namespace

IntegrityEvent& IntegrityTracker::Record(IntegrityEvent::Kind kind,
                                         Reporter& reporter,
                                         std::uint64_t offset) {
  IntegrityEvent e;
  e.kind = kind;
  std::size_t before = journal_->texts.size();
  reporter.AppendPointer(&journal_->texts);
  e.pointer = {before, journal_->texts.size() - before};
  e.urn = journal_->AddUrn(reporter.urn());
  e.offset = offset;
  journal_->events.push_back(e);
  return journal_->events.back();
}

void IntegrityTracker::AddResource(std::string_view urn, bool deleted) {
  if (journal_) {
    JournalText text = journal_->AddUrn(urn);
    std::vector<IntegrityEvent>& events = journal_->events;
    if (!events.empty() &&
        events.back().kind == IntegrityEvent::Kind::kDuplicate &&
        !events.back().adds && events.back().text.at == text.at &&
        events.back().text.size == text.size) {
      // Duplicate's step for the same URN, just before: it adds too.
      events.back().adds = true;
      events.back().deleted = deleted;
      Remember(earlier_urns_, events.back().fingerprint);
      return;
    }
    IntegrityEvent e;
    e.kind = IntegrityEvent::Kind::kResource;
    e.text = text;
    e.fingerprint = FingerprintOf(urn);
    e.deleted = deleted;
    events.push_back(e);
    Remember(earlier_urns_, e.fingerprint);
    return;
  }
  AddResource(FingerprintOf(urn), deleted);
}

void IntegrityTracker::AddResource(const Fingerprint& urn, bool deleted) {
  UrnCount& e = *urns_.Insert(urn).first;
  ++e.count;
  if (deleted) ++e.deleted;
}

void IntegrityTracker::AddProvider(std::string_view reference) {
  if (journal_) {
    IntegrityEvent e;
    e.kind = IntegrityEvent::Kind::kProvider;
    e.text = journal_->Add(reference);
    e.fingerprint = FingerprintOf(reference);
    journal_->events.push_back(e);
    Remember(earlier_providers_, e.fingerprint);
    return;
  }
  providers_.Insert(FingerprintOf(reference));
}

void IntegrityTracker::Reference(RefKind kind, std::string_view target,
                                 std::uint64_t target_at,
                                 std::string_view field, bool in_secret,
                                 Reporter& reporter, std::uint64_t offset) {
  if (journal_) {
    Fingerprint fingerprint = FingerprintOf(target);
    if ((kind == RefKind::kProvider ? earlier_providers_ : earlier_urns_)
            .Contains(fingerprint)) {
      return;  // resolved by an earlier resource, whatever the fold knows
    }
    IntegrityEvent& e =
        Record(IntegrityEvent::Kind::kReference, reporter, offset);
    e.reference = kind;
    e.in_secret = in_secret;
    e.fingerprint = fingerprint;
    // A target that is in the input byte for byte is read again from
    // there if it is ever reported (rarely): not copied.
    e.target_in_input =
        target_at != 0 && reporter.context().input_file() != nullptr;
    e.text = e.target_in_input ? JournalText{0, target.size()}
                               : journal_->Add(target);
    e.extra = journal_->Add(field);
    e.target_at = target_at;
    e.urn_at = reporter.urn_at();
    return;
  }
  if (kind == RefKind::kProvider ? SeenProvider(target) : Seen(target)) return;
  std::string pointer = reporter.PointerString();
  FindingPlace place{pointer, reporter.urn(), reporter.context().Locate(offset),
                     reporter.urn_at()};
  UseInput(reporter.context());
  Reference(kind, target, field, in_secret, place, target_at);
}

void IntegrityTracker::Reference(RefKind kind, std::string_view target,
                                 std::string_view field, bool in_secret,
                                 const FindingPlace& place,
                                 std::uint64_t target_at) {
  if (kind == RefKind::kProvider ? SeenProvider(target) : Seen(target)) return;
  Keep(kind, target, target.size(), field, in_secret, place, target_at);
}

void IntegrityTracker::Keep(RefKind kind, std::string_view target,
                            std::size_t target_size, std::string_view field,
                            bool in_secret, const FindingPlace& place,
                            std::uint64_t target_at) {
  // Finish makes the finding once it knows whether the target comes later
  // or not at all; until then only its parts are kept (texts that are in
  // the input, as offsets: Finish reads them again).
  if (input_ == nullptr) target_at = 0;  // the texts are copied instead
  PendingReference ref;
  ref.kind = kind;
  ref.in_secret = in_secret;
  ref.field = FieldId(field);
  ref.target_in_input = target_at != 0;
  ref.target = target_at != 0 ? target_at : Store(target);
  ref.target_size = static_cast<std::uint32_t>(target_size);
  std::size_t shared = 0;
  while (shared < last_pointer_.size() && shared < place.pointer.size() &&
         last_pointer_[shared] == place.pointer[shared]) {
    ++shared;
  }
  ref.pointer_shared = static_cast<std::uint32_t>(shared);
  ref.pointer = Store(place.pointer.substr(shared));
  ref.pointer_size = static_cast<std::uint32_t>(place.pointer.size() - shared);
  last_pointer_.assign(place.pointer);
  ref.urn_size = static_cast<std::uint32_t>(place.urn.size());
  ref.urn_in_input = input_ != nullptr && place.urn_at != 0;
  const PendingReference* last = pending_.empty() ? nullptr : &pending_.back();
  if (ref.urn_in_input) {
    ref.urn = place.urn_at;
  } else if (last != nullptr && !last->urn_in_input &&
             last->urn_size == place.urn.size() &&
             Text(last->urn, last->urn_size) == place.urn) {
    ref.urn = last->urn;  // the references of one resource share it
  } else {
    ref.urn = Store(place.urn);
  }
  ref.place = place.at;
  pending_.push_back(ref);
}

void IntegrityTracker::UseInput(const state::Context& context) {
  if (input_ == nullptr) input_ = context.input_file();
}

std::uint64_t IntegrityTracker::Store(std::string_view text) {
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  if (blocks_.empty() ||
      blocks_.back().size() + text.size() > blocks_.back().capacity()) {
    blocks_.emplace_back();
    blocks_.back().reserve(std::max(kBlock, text.size()));
  }
  std::string& block = blocks_.back();
  std::uint64_t at = block.size();
  block.append(text);
  return (static_cast<std::uint64_t>(blocks_.size() - 1) << 32) | at;
}

std::uint32_t IntegrityTracker::FieldId(std::string_view field) {
  auto it = field_ids_.find(field);
  if (it != field_ids_.end()) return it->second;
  auto id = static_cast<std::uint32_t>(field_names_.size());
  field_names_.emplace_back(field);
  field_ids_.emplace(std::string(field), id);
  return id;
}

void IntegrityTracker::Duplicate(std::string_view urn, Reporter& reporter,
                                 std::uint64_t offset) {
  if (journal_) {
    IntegrityEvent& e =
        Record(IntegrityEvent::Kind::kDuplicate, reporter, offset);
    e.text = journal_->AddUrn(urn);
    e.urn = e.text;  // the finding names the repeated URN
    e.fingerprint = FingerprintOf(urn);
    return;
  }
  if (!Seen(urn) || duplicates_.count(std::string(urn)) != 0) return;
  std::string pointer = reporter.PointerString();
  Duplicate(urn, FindingPlace{pointer, urn, reporter.context().Locate(offset)});
}

void IntegrityTracker::Duplicate(std::string_view urn,
                                 const FindingPlace& place) {
  if (!Seen(urn)) return;
  // The first repeat is kept.
  duplicates_.emplace(std::string(urn),
                      MakeAt(diag::Code::kUrnDuplicate, "", place));
}

bool IntegrityTracker::StackMismatch(std::string_view stack,
                                     std::string_view project) {
  if (!stack_) {
    stack_ = std::string(stack);
    project_ = std::string(project);
    return false;
  }
  if ((stack == *stack_ && project == *project_) || reported_stack_mismatch_) {
    return false;
  }
  reported_stack_mismatch_ = true;
  return true;
}

diag::Finding IntegrityTracker::StackFinding(std::string_view stack,
                                             std::string_view project,
                                             const FindingPlace& place) const {
  return MakeAt(diag::Code::kUrnStackMismatch,
                "URN is in stack \"" + std::string(stack) + "\" of project \"" +
                    std::string(project) +
                    "\", but earlier resources are in stack \"" + *stack_ +
                    "\" of project \"" + *project_ + "\"",
                place);
}

std::optional<diag::Finding> IntegrityTracker::NoteStack(
    std::string_view stack, std::string_view project, Reporter& reporter,
    std::uint64_t offset) {
  if (journal_) {
    if (journaled_stack_ && journaled_stack_->first == stack &&
        journaled_stack_->second == project) {
      return std::nullopt;  // settled by an earlier resource's step
    }
    journaled_stack_.emplace(std::string(stack), std::string(project));
    IntegrityEvent& e = Record(IntegrityEvent::Kind::kStack, reporter, offset);
    e.text = journal_->Add(stack);
    e.extra = journal_->Add(project);
    return std::nullopt;
  }
  if (!StackMismatch(stack, project)) return std::nullopt;
  std::string pointer = reporter.PointerString();
  return StackFinding(
      stack, project,
      FindingPlace{pointer, reporter.urn(), reporter.context().Locate(offset)});
}

std::optional<diag::Finding> IntegrityTracker::NoteStack(
    std::string_view stack, std::string_view project,
    const FindingPlace& place) {
  if (!StackMismatch(stack, project)) return std::nullopt;
  return StackFinding(stack, project, place);
}

void IntegrityTracker::Replay(
    IntegrityJournal& journal, state::Context& context,
    const std::function<void(std::string_view)>& plaintext) {
  using Kind = IntegrityEvent::Kind;
  for (const IntegrityEvent& e : journal.events) {
    std::string_view text = journal.View(e.text);
    switch (e.kind) {
      case Kind::kFinding:
        context.ReportUnlocated(std::move(journal.findings[e.finding]));
        break;
      case Kind::kReference: {
        // The usual case, a target seen already, needs no place.
        if (e.reference == RefKind::kProvider
                ? providers_.Contains(e.fingerprint)
                : Seen(e.fingerprint)) {
          break;
        }
        // The worker's context and this one read the same file, so a
        // target it did not copy can be kept as the offset it is at.
        UseInput(context);
        FindingPlace place = journal.Place(e, context);
        place.urn_at = e.urn_at;
        Keep(e.reference, e.target_in_input ? std::string_view() : text,
             e.text.size, journal.View(e.extra), e.in_secret, place,
             e.target_at);
        break;
      }
      case Kind::kProvider: providers_.Insert(e.fingerprint); break;
      case Kind::kDuplicate:
        if (Seen(e.fingerprint) && duplicates_.count(std::string(text)) == 0) {
          duplicates_.emplace(
              std::string(text),
              MakeAt(diag::Code::kUrnDuplicate, "", journal.Place(e, context)));
        }
        if (e.adds) AddResource(e.fingerprint, e.deleted);
        break;
      case Kind::kResource: AddResource(e.fingerprint, e.deleted); break;
      case Kind::kStack:
        if (StackMismatch(text, journal.View(e.extra))) {
          context.ReportUnlocated(StackFinding(text, journal.View(e.extra),
                                               journal.Place(e, context)));
        }
        break;
      case Kind::kPlaintext:
        if (plaintext) plaintext(text);
        break;
    }
  }
}

void IntegrityTracker::Reset() {
  urns_.Clear();
  providers_.Clear();
  duplicates_.clear();
  pending_.clear();
  blocks_.clear();
  last_pointer_.clear();
}

Result<std::vector<diag::Finding>> IntegrityTracker::Finish() {
  std::vector<diag::Finding> out;
  Status s = Finish([&](diag::Finding f) { out.push_back(std::move(f)); });
  if (!s.ok()) return s;
  return out;
}

Status IntegrityTracker::Finish(
    const std::function<void(diag::Finding)>& emit) {
  // Texts kept as offsets are read again, each with its quotes: a file
  // rewritten since the read is an error, never a finding that quotes
  // other bytes.
  std::optional<io::RangeReader> reader;
  if (input_ != nullptr) reader.emplace(*input_);
  std::string target_text, urn_text, pointer;
  auto text = [&](bool in_input, std::uint64_t at, std::uint32_t size,
                  std::string* out) -> Status {
    if (!in_input) {
      *out = Text(at, size);
      return Status::Ok();
    }
    Result<std::string_view> got = reader->Read(at - 1, size + std::size_t{2});
    if (!got.ok()) return got.status();
    if (got->front() != '"' || got->back() != '"') {
      return Status(Errc::kIo,
                    input_->name() + ": the file changed while it was read");
    }
    out->assign(got->substr(1, size));
    return Status::Ok();
  };
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    const PendingReference& ref = pending_[i];
    Status s =
        text(ref.target_in_input, ref.target, ref.target_size, &target_text);
    if (s.ok()) s = text(ref.urn_in_input, ref.urn, ref.urn_size, &urn_text);
    if (!s.ok()) return s;
    std::string_view target = target_text;
    std::string_view field = field_names_[ref.field];
    pointer.resize(ref.pointer_shared);  // the previous one's prefix
    pointer.append(Text(ref.pointer, ref.pointer_size));
    FindingPlace place{pointer, urn_text, ref.place};
    bool later = ref.kind == PendingReference::Kind::kProvider
                     ? providers_.Contains(FingerprintOf(target))
                     : urns_.Contains(FingerprintOf(target));
    diag::Code code = diag::Code::kDependencyMissing;
    std::string message;
    switch (ref.kind) {
      case PendingReference::Kind::kDependency:
        code = later ? diag::Code::kDependencyOrder
                     : diag::Code::kDependencyMissing;
        message = std::string(field) + " refers to \"" + std::string(target) +
                  "\"" +
                  (later ? " which comes after it; Pulumi needs "
                           "dependencies to come first"
                         : " which is not in the state");
        break;
      case PendingReference::Kind::kProvider:
        code = diag::Code::kProviderUnknown;
        message = "provider reference \"" + std::string(target) + "\"" +
                  (later ? " names a provider resource that comes after "
                           "it; Pulumi needs providers to come first"
                         : " names no provider resource in the state with "
                           "that URN and id");
        break;
      case PendingReference::Kind::kResourceReference:
        if (later) continue;  // forward references are fine
        code = diag::Code::kResourceRefDangling;
        // Inside a secret's plaintext the URN is secret text: not quoted.
        message = ref.in_secret ? std::string(
                                      "resource reference inside a secret's "
                                      "plaintext names a URN")
                                : "resource reference names \"" +
                                      std::string(target) + "\"";
        message += " which is not in the state";
        break;
    }
    emit(MakeAt(code, std::move(message), place));
  }
  pending_.clear();
  blocks_.clear();
  last_pointer_.clear();
  input_ = nullptr;
  for (auto& [urn, first] : duplicates_) {
    const UrnCount* e = urns_.Find(FingerprintOf(urn));
    if (!e || e->count < 2) continue;
    // Pulumi allows n copies when n-1 or n of them are marked delete.
    if (e->deleted + 1 >= e->count) continue;
    diag::Finding f = std::move(first);
    f.code = diag::Code::kUrnDuplicate;
    f.severity = diag::Info(f.code).severity;
    f.message = "URN occurs " + std::to_string(e->count) + " times but only " +
                std::to_string(e->deleted) +
                " of them are marked \"delete\": true; all copies but one "
                "must be pending deletion";
    emit(std::move(f));
  }
  duplicates_.clear();
  return Status::Ok();
}

}  // namespace pstate::verify
