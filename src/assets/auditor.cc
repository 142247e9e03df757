#include "assets/auditor.h"

#include <memory>
#include <utility>

#include "asset_hash/run_budget.h"

namespace pstate::assets {
namespace {

using diag::Code;

std::size_t Index(asset_hash::Status s) { return static_cast<std::size_t>(s); }

Code CodeForNote(asset_hash::NoteCode note) {
  switch (note) {
    case asset_hash::NoteCode::kAbsolutePath: return Code::kAssetAbsolutePath;
    case asset_hash::NoteCode::kPathEscapesRoot:
      return Code::kAssetPathEscapesRoot;
    case asset_hash::NoteCode::kBackslashPath: return Code::kAssetBackslashPath;
    case asset_hash::NoteCode::kHashMalformed: return Code::kAssetHashMalformed;
  }
  return Code::kAssetHashMalformed;
}

std::string_view KindName(asset_hash::Kind kind) {
  return kind == asset_hash::Kind::kAsset ? "asset" : "archive";
}

}  // namespace

asset_hash::Outcome CheckItem(const FoundItem& item,
                              const asset_hash::Options& options) {
  if (item.invalid.empty()) return asset_hash::Hash(item.spec, options);
  asset_hash::Outcome outcome;
  outcome.status = asset_hash::Status::kError;
  outcome.source = asset_hash::SourceOf(item.spec);
  outcome.message = "malformed " + std::string(KindName(item.spec.kind)) +
                    ": " + item.invalid;
  return outcome;
}

void Count(Tally& tally, const ItemResult& r) {
  ++tally.by_status[Index(r.outcome.status)];
  tally.warnings += r.item.notes.size();
}

AssetRow ToRow(ItemResult&& r) {
  AssetRow row;
  row.pointer = std::move(r.item.pointer);
  row.urn = std::move(r.item.urn);
  row.kind = r.item.spec.kind;
  row.source = r.outcome.source;
  row.recorded = std::move(r.item.spec.hash);
  row.actual = std::move(r.outcome.actual);
  row.status = r.outcome.status;
  row.message = std::move(r.outcome.message);
  row.line = r.at.line;
  row.column = r.at.column;
  row.warnings.reserve(r.item.notes.size());
  for (PlacedNote& n : r.item.notes) {
    row.warnings.push_back({std::string(asset_hash::NoteCodeName(n.note.code)),
                            std::move(n.pointer), std::move(n.note.message)});
  }
  return row;
}

std::vector<diag::Finding> ToFindings(const ItemResult& result) {
  std::vector<diag::Finding> out;
  auto add = [&](Code code, std::string message, const std::string& pointer,
                 io::LineColumn at) {
    diag::Finding f =
        diag::MakeFinding(code, std::move(message), pointer, result.item.urn);
    f.line = at.line;
    f.column = at.column;
    f.char_column = at.char_column;
    out.push_back(std::move(f));
  };
  const std::string kind(KindName(result.item.spec.kind));
  const asset_hash::Outcome& o = result.outcome;
  switch (o.status) {
    case asset_hash::Status::kOk: break;
    case asset_hash::Status::kMismatch:
      add(Code::kAssetHashMismatch, kind + ": " + o.message,
          result.item.pointer, result.at);
      break;
    case asset_hash::Status::kMissing:
      add(Code::kAssetMissing, kind + ": " + o.message, result.item.pointer,
          result.at);
      break;
    case asset_hash::Status::kError:
      add(Code::kAssetError, kind + ": " + o.message, result.item.pointer,
          result.at);
      break;
    case asset_hash::Status::kUnverifiable:
      add(Code::kAssetUnverifiable, kind + ": " + o.message,
          result.item.pointer, result.at);
      break;
    case asset_hash::Status::kNoHash:
      add(Code::kAssetNoHash, kind + ": " + o.message, result.item.pointer,
          result.at);
      break;
  }
  for (std::size_t i = 0; i < result.item.notes.size(); ++i) {
    const PlacedNote& n = result.item.notes[i];
    add(CodeForNote(n.note.code), n.note.message, n.pointer,
        i < result.notes_at.size() ? result.notes_at[i] : result.at);
  }
  return out;
}

Auditor::Auditor(asset_hash::Options options, int jobs, Sink sink)
    : options_(std::move(options)), sink_(std::move(sink)), pool_(jobs) {
  // One run for every item this auditor hashes: the totals are per run.
  if (!options_.run)
    options_.run = std::make_shared<asset_hash::RunBudget>(options_);
}

void Auditor::OnLeaf(const state::Leaf& leaf, state::Context& context) {
  FindInLeaf(leaf, options_, [&](FoundItem&& item) {
    auto result = std::make_shared<ItemResult>();
    // Items come in increasing offset order, and Locate is cheap only
    // forwards: a note past the next item (a parent's note on a member
    // that follows a member item) takes the item's own position.
    result->at = context.Locate(item.offset);
    for (const PlacedNote& n : item.notes) {
      result->notes_at.push_back(n.offset < item.first_member_item
                                     ? context.Locate(n.offset)
                                     : result->at);
    }
    result->item = std::move(item);
    pool_.Submit(
        [result, this] {
          result->outcome = CheckItem(result->item, options_);
          // Asset text may be a secret: drop it before it travels further.
          result->item.spec.text.reset();
          result->item.spec.assets.clear();
        },
        [result, this] { sink_(std::move(*result)); });
  });
}

void Auditor::Enqueue(std::function<void()> deliver) {
  pool_.Submit([] {}, std::move(deliver));
}

void Auditor::Finish() { pool_.Finish(); }

}  // namespace pstate::assets
