#include "verify/integrity.h"

#include <cstring>

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
    IntegrityEvent e;
    e.kind = IntegrityEvent::Kind::kResource;
    e.text = journal_->AddUrn(urn);
    e.deleted = deleted;
    journal_->events.push_back(e);
    return;
  }
  UrnCount& e = *urns_.Insert(FingerprintOf(urn)).first;
  ++e.count;
  if (deleted) ++e.deleted;
}

void IntegrityTracker::AddProvider(std::string_view reference) {
  if (journal_) {
    IntegrityEvent e;
    e.kind = IntegrityEvent::Kind::kProvider;
    e.text = journal_->Add(reference);
    journal_->events.push_back(e);
    return;
  }
  providers_.Insert(FingerprintOf(reference));
}

void IntegrityTracker::Reference(RefKind kind, std::string_view target,
                                 std::string_view field, bool in_secret,
                                 Reporter& reporter, std::uint64_t offset) {
  if (journal_) {
    IntegrityEvent& e =
        Record(IntegrityEvent::Kind::kReference, reporter, offset);
    e.reference = kind;
    e.in_secret = in_secret;
    e.text = journal_->Add(target);
    e.extra = journal_->Add(field);
    return;
  }
  if (kind == RefKind::kProvider ? SeenProvider(target) : Seen(target)) return;
  std::string pointer = reporter.PointerString();
  Reference(
      kind, target, field, in_secret,
      FindingPlace{pointer, reporter.urn(), reporter.context().Locate(offset)});
}

void IntegrityTracker::Reference(RefKind kind, std::string_view target,
                                 std::string_view field, bool in_secret,
                                 const FindingPlace& place) {
  if (kind == RefKind::kProvider ? SeenProvider(target) : Seen(target)) return;
  // Finish completes the message once it knows whether the target comes
  // later or not at all.
  PendingReference ref{std::string(target), {}, kind};
  switch (kind) {
    case RefKind::kDependency:
      ref.finding = MakeAt(
          diag::Code::kDependencyMissing,
          std::string(field) + " refers to \"" + ref.target + "\"", place);
      break;
    case RefKind::kProvider:
      ref.finding = MakeAt(diag::Code::kProviderUnknown,
                           "provider reference \"" + ref.target + "\"", place);
      break;
    case RefKind::kResourceReference:
      // Inside a secret's plaintext the URN is secret text: not quoted.
      ref.finding =
          MakeAt(diag::Code::kResourceRefDangling,
                 in_secret ? std::string("resource reference inside a secret's "
                                         "plaintext names a URN")
                           : "resource reference names \"" + ref.target + "\"",
                 place);
      break;
  }
  pending_.push_back(std::move(ref));
}

void IntegrityTracker::Duplicate(std::string_view urn, Reporter& reporter,
                                 std::uint64_t offset) {
  if (journal_) {
    IntegrityEvent& e =
        Record(IntegrityEvent::Kind::kDuplicate, reporter, offset);
    e.text = journal_->AddUrn(urn);
    e.urn = e.text;  // the finding names the repeated URN
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
      case Kind::kReference:
        // The usual case, a target seen already, needs no place.
        if (e.reference == RefKind::kProvider ? SeenProvider(text)
                                              : Seen(text)) {
          break;
        }
        Reference(e.reference, text, journal.View(e.extra), e.in_secret,
                  journal.Place(e, context));
        break;
      case Kind::kProvider: AddProvider(text); break;
      case Kind::kDuplicate:
        if (Seen(text) && duplicates_.count(std::string(text)) == 0) {
          Duplicate(text, journal.Place(e, context));
        }
        break;
      case Kind::kResource: AddResource(text, e.deleted); break;
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
}

std::vector<diag::Finding> IntegrityTracker::Finish() {
  std::vector<diag::Finding> out;
  for (PendingReference& ref : pending_) {
    diag::Finding f = std::move(ref.finding);
    Fingerprint target = FingerprintOf(ref.target);
    bool later = ref.kind == PendingReference::Kind::kProvider
                     ? providers_.Contains(target)
                     : urns_.Contains(target);
    switch (ref.kind) {
      case PendingReference::Kind::kDependency:
        f.code = later ? diag::Code::kDependencyOrder
                       : diag::Code::kDependencyMissing;
        f.message += later ? " which comes after it; Pulumi needs "
                             "dependencies to come first"
                           : " which is not in the state";
        break;
      case PendingReference::Kind::kProvider:
        f.code = diag::Code::kProviderUnknown;
        f.message += later ? " names a provider resource that comes after "
                             "it; Pulumi needs providers to come first"
                           : " names no provider resource in the state with "
                             "that URN and id";
        break;
      case PendingReference::Kind::kResourceReference:
        if (later) continue;  // forward references are fine
        f.code = diag::Code::kResourceRefDangling;
        f.message += " which is not in the state";
        break;
    }
    f.severity = diag::Info(f.code).severity;
    out.push_back(std::move(f));
  }
  pending_.clear();
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
    out.push_back(std::move(f));
  }
  duplicates_.clear();
  return out;
}

}  // namespace pstate::verify
