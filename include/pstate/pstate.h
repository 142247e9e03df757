// pstate's library API: the one installed header (docs/api.md).
//
// Open a state (a path, standard input or bytes in memory; gzip and zstd are
// recognized by their first bytes), then run one call per command: a config
// struct in, a typed result out. Results are data (codes, pointers, counts,
// URNs); no text in them is meant for display except finding and note
// messages. A result never holds a secret's plaintext unless the config asks
// for shown secrets.
//
// Failures that stop a call are a Status (an error class and a message).
// Problems found in a state are data (verify's and scan's findings); an
// input that cannot be read as a state is such a finding too (the input is
// `unreadable`), so a caller treats all inputs alike.
//
// Self-contained: only standard headers, C++17 or later. The API is 0.x:
// it may change between minor versions (docs/api.md).
#ifndef PSTATE_PSTATE_H_
#define PSTATE_PSTATE_H_

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace pstate {

// ---- Errors -----------------------------------------------------------------

/// Broad failure classes. Callers branch on them (the command line maps them
/// to exit codes).
enum class Errc {
  kOk = 0,
  kInvalidArgument,  ///< the caller asked for something meaningless
  kNotFound,         ///< a file or directory does not exist
  kIo,               ///< reading or writing failed
  kSyntax,           ///< bytes are not valid JSON (or not valid base64, ...)
  kFormat,           ///< valid JSON but not the expected shape or version
  kCorrupt,          ///< an archive or compressed stream is damaged
  kLimit,            ///< a safety limit was hit (depth, size, member count)
  kCrypto,           ///< decryption failed: wrong key or tampered data
  kUnsupported,      ///< well-formed but not something pstate can handle
  /// The input is readable, but doing what was asked would produce an
  /// unsafe result (e.g. encrypt beside a plaintext it cannot drop); the
  /// command refuses and writes nothing.
  kRefused,
};

/// Success, or a failure class with a human-readable message. No exception
/// crosses the API.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Errc code, std::string message)
      : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == Errc::kOk; }
  Errc code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Errc code_ = Errc::kOk;
  std::string message_;
};

/// A value or the Status explaining its absence. Mirrors the parts of
/// std::expected that pstate uses, so a move to C++23 is mechanical.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : data_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(data_).ok());
  }
  Result(Errc code, std::string message)
      : data_(Status(code, std::move(message))) {}

  bool ok() const { return std::holds_alternative<T>(data_); }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The failure; Status::Ok() when a value is held.
  Status status() const {
    return ok() ? Status::Ok() : std::get<Status>(data_);
  }

 private:
  std::variant<T, Status> data_;
};

/// The library's version, "MAJOR.MINOR.PATCH" (the project version).
const char* Version();

// ---- Opening a state --------------------------------------------------------

/// The input limits of a state (the command line's --max-decompressed-bytes
/// and --max-resource-bytes).
struct InputLimits {
  /// A gzip or zstd input may decompress to at most this many bytes; past
  /// that it is unreadable (kLimit). Far above any real state (the largest
  /// seen are a few GiB), while a decompression bomb (1000:1 and more)
  /// stops after a minute of work. Plain inputs are not affected.
  std::uint64_t max_decoded_bytes = std::uint64_t{64} << 30;
  /// One top-level piece of a state (a resource, the manifest, a pending
  /// operation) read through a buffer (standard input, gzip, zstd) may take
  /// at most this many bytes of memory. Pulumi's SDKs cap one resource's
  /// gRPC message at 400 MiB (sdk/python/lib/pulumi/runtime/settings.py,
  /// _MAX_RPC_MESSAGE_SIZE), so no resource the engine wrote is near it.
  std::uint64_t max_piece_bytes = std::uint64_t{512} << 20;
};

/// The name findings and messages give the input at `path`: "<stdin>" for
/// "-" (standard input), else the path itself.
std::string InputName(const std::string& path);

struct OpenOptions {
  InputLimits limits;
  /// The name findings and messages use; empty: InputName(path), "<memory>"
  /// for bytes.
  std::string name;
};

/// An opened state: an opaque, immutable handle, cheap to copy (copies share
/// it). Opening reads nothing beyond what finds a missing or unreadable
/// file; each call reads the state again, so a call sees the file as it is
/// then. A state opened on standard input can be read by one call only.
class State {
 public:
  /// `path` ("-" for standard input). A DIY backend's stack checkpoint may
  /// name one of its versions: `PATH@~K` (K updates back), `@N` (after
  /// update N), `@2026-11-20T10:00:00Z` (in force then), `@bak` (its .bak
  /// copy), as on the command line (docs/history.md). Fails with
  /// kNotFound (also for a version that does not exist: the message names
  /// those that do), kIo or kInvalidArgument (a directory), with a message
  /// naming the file.
  static Result<State> Open(const std::string& path,
                            const OpenOptions& options = {});
  /// A state held in memory (plain, gzip or zstd bytes). It is copied to a
  /// private temporary file, removed with the last copy of the handle;
  /// fails with kIo when that file cannot be written.
  static Result<State> FromBytes(std::string bytes,
                                 const OpenOptions& options = {});

  /// The name findings and messages use.
  const std::string& name() const;

  struct Impl;
  /// For the implementation (src/api/).
  const Impl& impl() const { return *impl_; }

 private:
  explicit State(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

/// (bytes of the input consumed, its size or 0 when unknown), called every
/// few MiB. Commands that read an input twice start again from 0.
using Progress = std::function<void(std::uint64_t, std::uint64_t)>;

/// A passphrase, asked for only when a state's secrets need one (a state
/// without passphrase secrets never calls it). A failure stops the call with
/// that Status. Empty: no passphrase (kInvalidArgument when one is needed).
using PassphraseSource = std::function<Result<std::string>()>;

/// A source giving `passphrase`.
PassphraseSource FixedPassphrase(std::string passphrase);

/// The environment variables Pulumi reads a passphrase from. The library
/// reads no environment: a caller that honours them reads them and passes
/// their values (PassphraseInputs).
inline constexpr char kPassphraseEnv[] = "PULUMI_CONFIG_PASSPHRASE";
inline constexpr char kPassphraseFileEnv[] = "PULUMI_CONFIG_PASSPHRASE_FILE";

/// Where a passphrase may come from, as the caller found them.
struct PassphraseInputs {
  /// An explicit passphrase file (the command line's --passphrase-file):
  /// it wins.
  std::optional<std::string> file;
  /// kPassphraseEnv's value when it is set, even to "".
  std::optional<std::string> passphrase;
  /// kPassphraseFileEnv's value when it is set and not empty.
  std::optional<std::string> env_file;
};

/// The passphrase, in this order (Pulumi's readPassphrase in
/// pkg/secrets/passphrase/manager.go, with the explicit file first):
/// `file`'s contents, trimmed as Go's strings.TrimSpace trims (Unicode
/// white space around it goes, inner spaces stay); `passphrase` verbatim;
/// `env_file`'s contents, trimmed so. None given: kInvalidArgument naming
/// both variables. A file that cannot be read fails (kNotFound, kIo,
/// kLimit), the message naming it.
Result<std::string> PassphraseResolve(const PassphraseInputs& inputs);

/// A source resolving `inputs` (PassphraseResolve) each time it is asked:
/// a file is read only when a state needs a passphrase.
PassphraseSource PassphraseFromInputs(PassphraseInputs inputs);

/// The key of keyed fingerprints: redact's secret fingerprints and
/// pseudonyms, scan's finding fingerprints. Equal values get equal
/// fingerprints under one key; an opaque handle, cheap to copy.
class FingerprintKey {
 public:
  /// Keyed by the file's exact bytes (a missing, unreadable or empty file
  /// fails, the message naming it).
  static Result<FingerprintKey> FromFile(const std::string& path);
  /// A random key: fingerprints compare within one process only.
  static FingerprintKey Random();

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  explicit FingerprintKey(std::shared_ptr<const Impl> impl)
      : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

/// Pulumi package schemas (as `pulumi package get-schema` prints them),
/// loaded once and shared by any number of calls.
class Schemas {
 public:
  /// The `files` (.json or .json.gz), then every *.json and *.json.gz file
  /// directly inside each of `dirs`, in name order. The first failure is
  /// returned; its message names the file and, where there is one, the
  /// line:column.
  static Result<Schemas> Load(const std::vector<std::string>& files,
                              const std::vector<std::string>& dirs = {});

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  explicit Schemas(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

// ---- Findings (verify, scan) ------------------------------------------------

enum class Severity { kError, kWarning, kNote };

/// Every finding code pstate can report (docs/diagnostics.md explains each
/// one). The names are stable: tools match on them (CodeName); the
/// enumerators' values may change between versions (new codes are added at
/// the end of their group), so store and compare names.
enum class FindingCode {
  // Reading: these stop the input (exit 2).
  kIoError,
  kJsonSyntax,
  kJsonInvalidUtf8,
  kJsonTooDeep,
  kNotAState,
  kVersionUnsupported,
  // JSON shape.
  kJsonDuplicateKey,
  kFieldType,
  kFieldMissing,
  kFieldUnknown,
  kFieldCase,
  kFieldValue,
  // Envelope.
  kFeaturesUnsupported,
  kFeaturesIgnored,
  kFeaturesUnsorted,
  // Manifest.
  kManifestMissing,
  kManifestTime,
  kManifestMagic,
  kManifestPlugin,
  // Resources and integrity.
  kUrnMalformed,
  kUrnTypeMismatch,
  kUrnStackMismatch,
  kParentTypeChain,
  kComponentHasId,
  kProviderMalformed,
  kProviderUnknown,
  kProviderResourceInvalid,
  kDependencyMissing,
  kDependencyOrder,
  kUrnDuplicate,
  kSnippetUuid,
  kPendingOperationType,
  kPendingOperation,
  kIntegrityErrorRecorded,
  // Property values.
  kSigUnknown,
  kSigOutputValue,
  kAssetInvalid,
  kArchiveInvalid,
  kSecretInvalid,
  kSecretPlaintextInvalid,
  kSecretCiphertextMalformed,
  kResourceRefInvalid,
  kResourceRefDangling,
  kFloatInvalid,
  kBytesInvalid,
  // Secrets provider.
  kSecretsProviderUnknown,
  kSecretsProviderState,
  kSecretsProviderMissing,
  kConfigSecureInvalid,
  // Asset audit (pstate assets, verify --assets).
  kAssetHashMismatch,
  kAssetMissing,
  kAssetError,
  kAssetUnverifiable,
  kAssetNoHash,
  kAssetAbsolutePath,
  kAssetPathEscapesRoot,
  kAssetBackslashPath,
  kAssetHashMalformed,
  // Plaintext secrets (pstate scan).
  kLeakKnownSecret,
  kLeakAdditionalSecretOutput,
  kLeakSecretMismatch,
  kLeakCredentialProperty,
  kLeakCredentialFormat,
  kLeakPasswordHash,
  kLeakSecretInName,
  // Package schemas (verify --schema; scan --schema: secret-plaintext).
  kSchemaType,
  kSchemaRequired,
  kSchemaPropertyUnknown,
  kSchemaSecretPlaintext,
  kSchemaResourceUnknown,
  kSchemaPackageMissing,
  kSchemaVersionMismatch,
  kSchemaRefInvalid,
};

/// The code's stable kebab-case name, e.g. "urn-malformed".
std::string_view CodeName(FindingCode code);
/// The code named `name`; nullopt when there is none.
std::optional<FindingCode> FindingCodeNamed(std::string_view name);
/// The number of codes (FindingCodes' values are 0 ... FindingCodeCount()-1).
std::size_t FindingCodeCount();

/// One problem found in one input. Its message never contains a secret's
/// plaintext or ciphertext, a passphrase or key material: checks describe
/// such values by their kind, length or a keyed fingerprint.
struct Finding {
  FindingCode code = FindingCode::kJsonSyntax;
  Severity severity = Severity::kError;
  std::string message;
  std::string pointer;       ///< RFC 6901 JSON pointer; "" is the document
  std::uint64_t line = 0;    ///< 1-based; 0 when unknown
  std::uint64_t column = 0;  ///< 1-based byte column; 0 when unknown
  /// 1-based column in Unicode code points (SARIF's columnKind); 0 when
  /// only `column` is known.
  std::uint64_t char_column = 0;
  std::string urn;  ///< the resource concerned, when there is one
  /// The order the checks made it in among the input's findings (findings
  /// at the same place keep it).
  std::uint64_t sequence = 0;
  /// Stable identity across runs (code, place, resource), as SARIF's
  /// partialFingerprints.
  std::string fingerprint;

  /// CodeName(code).
  std::string_view code_name() const { return CodeName(code); }
};

/// Counts of findings, never capped (Findings' own, or several inputs'
/// summed).
struct FindingCounts {
  std::uint64_t errors = 0;
  std::uint64_t warnings = 0;
  std::uint64_t notes = 0;
  std::uint64_t resources = 0;  ///< resources read
  /// Findings a filter rejected (baseline, ignore file, only/skip): not in
  /// the counts above.
  std::uint64_t suppressed = 0;
  /// Counted findings per code, indexed by FindingCode (empty: none).
  std::vector<std::uint64_t> by_code;
};

/// The findings of one input, in file order, with their counts (including
/// those not kept: max_findings).
struct Findings : FindingCounts {
  std::string file;  ///< State::name()
  std::vector<Finding> findings;
  std::uint64_t omitted = 0;  ///< counted but not kept
  /// The input could not be read as a state: `findings` holds the reason
  /// (a code such as kIoError or kJsonSyntax), and nothing after it was
  /// checked.
  bool unreadable = false;
};

/// "error", "warning" or "note".
std::string_view SeverityName(Severity severity);

/// Which findings count (the command line's --only, --skip, --baseline and
/// ignore files). A finding it rejects is neither kept nor counted by
/// severity or code: FindingCounts::suppressed counts it. A finding that
/// makes the input unreadable is never rejected.
struct FindingFilter {
  std::set<FindingCode> only;  ///< when not empty, only these codes count
  std::set<FindingCode> skip;  ///< these codes never count
  /// Finding::fingerprint values that do not count (a baseline's, an
  /// ignore file's).
  std::set<std::string> fingerprints;

  bool empty() const {
    return only.empty() && skip.empty() && fingerprints.empty();
  }
  /// True when `finding` (with its fingerprint) counts.
  bool Admits(const Finding& finding) const;
};

/// The findings of `findings` that `filter` admits, the first
/// `max_findings` in file order kept (0 = all); counts recomputed, the
/// rejected ones added to `suppressed`. Verify and Scan apply their
/// config's filter so; a caller may keep one run's findings and filter them
/// several ways.
Findings FilterFindings(const Findings& findings, const FindingFilter& filter,
                        std::size_t max_findings = 0);

/// The fingerprints of a previous report, for FindingFilter::fingerprints:
/// pstate's JSON Lines (each finding's "fingerprint") or a SARIF log (each
/// result's partialFingerprints["pstate/v1"]). `text` is the report and
/// `name` its name in messages. Fails (kSyntax, kFormat) on anything else,
/// naming the line.
Result<std::vector<std::string>> ParseBaseline(std::string_view text,
                                               std::string_view name);
/// The fingerprints of an ignore file (`.pstateignore`): one per line (32
/// lowercase hex digits), '#' starts a comment, blank lines are skipped.
/// Fails (kFormat) naming the line of anything else.
Result<std::vector<std::string>> ParseIgnoreFile(std::string_view text,
                                                 std::string_view name);

struct VerifyConfig {
  /// Also hash every asset and archive and compare with what the state
  /// recorded (`pstate verify --assets`).
  bool assets = false;
  /// Directory relative asset paths resolve against.
  std::string asset_root = ".";
  /// Also read asset files outside `asset_root`; their hashes are compared
  /// but never put in a message.
  bool allow_outside_root = false;
  /// Threads hashing assets and checking a plain file's resources (the
  /// output is the same for any value; 1 reads sequentially).
  int jobs = 1;
  /// Threads hashing assets when not `jobs` (0: `jobs`).
  int asset_jobs = 0;
  /// Check every resource against its provider's package schema; not
  /// owned, may be null.
  const Schemas* schemas = nullptr;
  /// Findings kept (0 = all), of those `filter` admits; the counts are
  /// never capped.
  std::size_t max_findings = 0;
  /// Which findings count (FilterFindings).
  FindingFilter filter;
  Progress on_progress;
};

/// `pstate verify`: every problem in the state, with its place. Fails only
/// for a bad config; an unreadable input is a finding (Findings::unreadable).
Result<Findings> Verify(const State& state, const VerifyConfig& config = {});

/// `pstate verify FILE...` (a backend directory: its stacks' checkpoints,
/// BackendStacks).
struct VerifyManyConfig : VerifyConfig {
  /// With several inputs and `jobs` above 1, `jobs` inputs are read at
  /// once, each on one thread (its resources and assets sequentially);
  /// otherwise one after the other, each with `jobs` and `asset_jobs`.
  /// The findings are the same either way. `on_progress` is not used.
  ///
  /// The limits every input is read with (OpenOptions::limits).
  InputLimits limits;
  /// Inputs read one at a time: the progress of input i (called on the
  /// calling thread before it is read; empty: none).
  std::function<Progress(std::size_t)> progress_of;
};

/// Verify of each of `inputs` (paths as State::Open takes them, "-" for
/// standard input, named "<stdin>"), handing `on_findings` each input's
/// findings (its index and Findings) on the calling thread, in input
/// order, as soon as it and every input before it are done. An input that
/// cannot be opened or read is a finding, like any other unreadable input.
/// Fails only for a bad config, before any input is read.
Status VerifyMany(
    const std::vector<std::string>& inputs, const VerifyManyConfig& config,
    const std::function<void(std::size_t, Findings&&)>& on_findings);

struct ScanConfig {
  /// Findings kept (0 = all), of those `filter` admits; the counts are
  /// never capped.
  std::size_t max_findings = 0;
  /// Which findings count (FilterFindings).
  FindingFilter filter;
  /// A file whose bytes key the findings' fingerprints, so that they match
  /// across runs; empty: a random key per call.
  std::string fingerprint_key_file;
  /// The key of the findings' fingerprints, shared by the calls given it
  /// (one run over several states); it wins over fingerprint_key_file.
  std::optional<FingerprintKey> key;
  /// Threads scanning a plain file's resources (without `schemas`); the
  /// findings are the same for any value, 1 reads sequentially.
  int jobs = 1;
  /// Also decrypt ciphertext secrets (passphrase or b64 provider) so their
  /// plaintexts are searched for.
  bool decrypt = false;
  /// The passphrase of the `passphrase` provider; the library reads no
  /// environment variable.
  std::optional<std::string> passphrase;
  /// Also report properties a schema marks secret that are stored in
  /// plaintext (schema-secret-plaintext); not owned, may be null.
  const Schemas* schemas = nullptr;
  Progress on_progress;
};

struct ScanResult {
  Findings findings;
  /// Secrets whose ciphertext could not be decrypted (not matched).
  std::uint64_t undecryptable = 0;
};

/// `pstate scan`: secrets stored in the clear. Fails (kCrypto, kUnsupported,
/// kInvalidArgument) when decryption was asked for and is impossible.
Result<ScanResult> Scan(const State& state, const ScanConfig& config = {});

/// What Scan reports for an input that cannot even be opened (`status`
/// from State::Open, `name` the input's name): its findings are
/// unreadable, holding one io-error finding whose message is the status's,
/// so a caller scanning several inputs treats them alike.
ScanResult ScanUnopened(const std::string& name, const Status& status);

// ---- values (diff, show, history blame) -------------------------------------
//
// A property value as pstate shows it: the value as stored, with every
// secret either hidden or (when the caller asked to see secrets and it
// could be opened) carrying its opened value. A hidden secret, a string
// that reads "[secret]" and a shown secret are three different values.

enum class ValueKind {
  kNull,
  kBool,
  kNumber,  ///< `text` is the number as stored ("1.50", "1e3")
  kString,  ///< `text` is the JSON text as stored, escapes kept, no quotes
  kArray,   ///< `elements`
  kObject,  ///< `members`, in stored order (duplicate keys kept)
  kSecret,  ///< hidden (no `elements`), or shown: `elements[0]` its value
};

struct ValueMember;

struct Value {
  ValueKind kind = ValueKind::kNull;
  bool boolean = false;  ///< kBool
  std::string text;      ///< kNumber, kString (see ValueKind)
  std::vector<Value> elements;
  std::vector<ValueMember> members;

  /// A secret whose value is not given.
  bool hidden() const { return kind == ValueKind::kSecret && elements.empty(); }
  /// kString: the decoded string (escapes resolved); "" for other kinds.
  std::string Str() const;
};

struct ValueMember {
  std::string key;  ///< JSON text as stored, escapes kept, no quotes
  Value value;
};

/// Kind, text and children equal (a hidden secret equals a hidden secret).
bool operator==(const Value& a, const Value& b);
inline bool operator!=(const Value& a, const Value& b) { return !(a == b); }

// ---- diff -------------------------------------------------------------------

enum class ResourceChangeKind {
  kAdded,
  kRemoved,
  kRenamed,
  kChanged,
  kOrderOnly,    ///< unchanged, moved out of the relative order
  kOrderBroken,  ///< unchanged, but now before something it needs
};
/// Pulumi's DiffKind (apitype.DiffKind): add, delete, update.
enum class ChangeKind { kAdd, kDelete, kUpdate };
enum class Section { kInputs, kOutputs };
enum class SecretTransition {
  kNone,         ///< no secret, or a secret on both sides
  kToSecret,     ///< a plaintext value became a secret
  kToPlaintext,  ///< a secret became a plaintext value
};

struct PropertyChange {
  Section section = Section::kInputs;
  std::string path;  ///< Pulumi property path inside the section
  ChangeKind kind = ChangeKind::kUpdate;
  bool secret = false;  ///< the value on either side is a secret
  /// Two secrets with different ciphertexts that could not be opened:
  /// they may hold the same value.
  bool unknown = false;
  SecretTransition transition = SecretTransition::kNone;
  /// The values; nullopt when absent. A secret is hidden unless
  /// DiffConfig::show_secrets opened it.
  std::optional<Value> before;
  std::optional<Value> after;
};

/// A resource field other than urn, inputs and outputs that changed.
struct FieldChange {
  std::string name;  ///< Pulumi's field name ("protect", "provider", ...)
  ChangeKind kind = ChangeKind::kUpdate;
  std::optional<Value> before;  ///< nullopt when absent
  std::optional<Value> after;
};

/// A reference to a resource that now comes after the resource.
struct OrderNote {
  std::string field;   ///< "provider", "parent", "dependencies", ...
  std::string target;  ///< the URN, or the provider reference
};

/// What makes a resource of another URN the same resource (kRenamed).
enum class RenameKind {
  kTypeAndId,  ///< the same type and ID (state rename, state move)
  /// The URN differs only by the stack and project of the whole state
  /// (stack rename, a move between projects): components match too.
  kStack,
};

struct ResourceChange {
  ResourceChangeKind kind = ResourceChangeKind::kChanged;
  std::string urn;   ///< the after state's URN (before's for a removal)
  std::string from;  ///< the before state's URN, for a rename
  RenameKind rename = RenameKind::kTypeAndId;  ///< for a rename
  std::string type;
  std::string id;
  bool deleted = false;  ///< a `delete: true` copy
  std::vector<PropertyChange> properties;
  std::vector<FieldChange> fields;
  /// What this resource now comes before (any kind of change).
  std::vector<OrderNote> order;
};

/// A difference outside the resources (version, manifest, ...).
struct EnvelopeChange {
  std::string field;  ///< e.g. "manifest.time", "pending_operations"
  ChangeKind kind = ChangeKind::kUpdate;
  std::optional<Value> before;  ///< nullopt when absent
  std::optional<Value> after;
};

struct DiffSummary {
  std::uint64_t before_resources = 0;
  std::uint64_t after_resources = 0;
  std::uint64_t added = 0, removed = 0, renamed = 0, changed = 0,
                order_only = 0, unchanged = 0;
  /// Unchanged resources of the after state that now come before something
  /// they need (kOrderBroken; changed, renamed or added ones that do are
  /// counted as such and carry ResourceChange::order too).
  std::uint64_t order_broken = 0;
  std::uint64_t envelope = 0;
};

struct DiffResult {
  /// The after state's order, then removals in the before state's order.
  std::vector<ResourceChange> resources;
  std::vector<EnvelopeChange> envelope;
  DiffSummary summary;
  bool same() const { return resources.empty() && envelope.empty(); }
};

struct DiffConfig {
  /// Opens passphrase-encrypted secrets (then compared by value, and shown
  /// with show_secrets), asked for only when a state needs one; without
  /// one (or kInvalidArgument from it: none given) they stay closed.
  PassphraseSource passphrase;
  /// Put opened secrets' values in PropertyChange::before/after.
  bool show_secrets = false;
  /// Threads reading each state's resources when it is a plain file (the
  /// two states are read at once either way); the result is the same for
  /// any value.
  int jobs = 1;
  /// Keep resource changes whose type (`types`) or URN or former URN
  /// (`urns`) matches one of these shell globs; empty: all. Entries left
  /// out are not counted in the summary's added/removed/... counts.
  std::vector<std::string> types, urns;
  /// Kinds of change left out: "timestamps" (an update from one RFC 3339
  /// time to another: property values, created/modified, manifest.time; a
  /// changed resource left with no change counts as unchanged). Another
  /// kind fails the call (kInvalidArgument) before anything is read.
  std::vector<std::string> ignore;
  /// Progress of the read of `after` (both states are read at once).
  Progress on_progress;
};

/// `pstate diff`: what changed from `before` to `after`, resource by
/// resource. An unreadable state fails (its message names the file and
/// place); a wrong passphrase fails with kCrypto.
Result<DiffResult> Diff(const State& before, const State& after,
                        const DiffConfig& config = {});

// ---- ls, stats --------------------------------------------------------------

enum class ResourceFlag {
  kProtect,
  kTaint,
  kDelete,
  kExternal,
  kPendingReplacement,
  kRetainOnDelete,
};

/// One resource as the listing commands show it.
struct ResourceRow {
  std::size_t index = 0;  ///< position in `resources`
  std::string urn, type, id, name, parent, provider;
  bool custom = false;
  std::vector<ResourceFlag> flags;
  std::uint64_t bytes = 0;  ///< of its JSON text in the state
};

/// One pending operation.
struct PendingRow {
  std::size_t index = 0;
  std::string operation;  ///< "creating", "updating", ...
  std::string urn, type, id;
};

/// Every flag, in this order (the names ResourceFlagName gives).
inline constexpr ResourceFlag kResourceFlags[] = {
    ResourceFlag::kProtect,
    ResourceFlag::kTaint,
    ResourceFlag::kDelete,
    ResourceFlag::kExternal,
    ResourceFlag::kPendingReplacement,
    ResourceFlag::kRetainOnDelete};
/// "protect", "taint", "delete", "external", "pending-replacement",
/// "retain-on-delete".
std::string_view ResourceFlagName(ResourceFlag flag);
/// The flag ResourceFlagName names `name`, or nullopt.
std::optional<ResourceFlag> ResourceFlagNamed(std::string_view name);

/// Which resources a command takes (`ls`'s filters, edit's and extract's
/// selection). Filters are shell globs (fnmatch(3)); every filter given
/// must match.
struct ResourceFilter {
  std::optional<std::string> type, name, urn, provider;
  std::optional<std::string> parent;  ///< exact URN
  std::vector<ResourceFlag> flags;    ///< each must be set
  /// No filter given: every resource.
  bool empty() const {
    return !type && !name && !urn && !provider && !parent && flags.empty();
  }
};

struct ListConfig : ResourceFilter {
  /// Rows returned (0 = all); reading stops at the limit.
  std::size_t limit = 0;
  /// Threads that read a plain file's resources; rows still come in state
  /// order, and the same rows.
  int jobs = 1;
  /// Progress of the read (on the calling thread).
  Progress on_progress;
};

/// `pstate ls`: the resources that match, in state order.
Result<std::vector<ResourceRow>> List(const State& state,
                                      const ListConfig& config = {});
/// The same, streaming: `on_row` returns false to stop (memory stays
/// constant however large the state).
Status List(const State& state, const ListConfig& config,
            const std::function<bool(const ResourceRow&)>& on_row);
/// `pstate ls --pending`: the pending operations that match.
Result<std::vector<PendingRow>> ListPending(const State& state,
                                            const ListConfig& config = {});
/// The same, streaming: `on_row` returns false to stop.
Status ListPending(const State& state, const ListConfig& config,
                   const std::function<bool(const PendingRow&)>& on_row);

/// Which resource `Show` describes: a URN, or a position in `resources`.
struct ShowConfig {
  std::string urn;
  std::optional<std::size_t> index;  ///< used when `urn` is empty
  /// Open secrets (with `passphrase` for a passphrase provider); otherwise
  /// each secret is hidden (Value::hidden).
  bool show_secrets = false;
  PassphraseSource passphrase;
};

/// A resource that names the one shown.
struct Dependent {
  std::string urn;
  std::string via;  ///< the field that names it ("parent", "dependencies", ...)
};

struct ShowResult {
  ResourceRow row;
  std::size_t copies = 1;  ///< resources with this URN (duplicates)
  std::vector<std::string> dependencies;
  std::map<std::string, std::vector<std::string>> property_dependencies;
  std::string deleted_with;
  std::vector<std::string> replace_with;
  std::vector<Dependent> dependents;
  /// Inputs and outputs (nullopt when the resource has none); secrets
  /// hidden, or shown as ShowConfig says.
  std::optional<Value> inputs;
  std::optional<Value> outputs;
};

/// `pstate show`: one resource, its references and what refers to it.
/// kNotFound when no resource has the URN (or index).
Result<ShowResult> Show(const State& state, const ShowConfig& config);

struct Tally {
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
};

/// Where resources' bytes go: each member's span, from its key to the next
/// member's key (the last one to the closing brace), so the five add up to
/// the resources' bytes exactly (`other` also holds the braces and every
/// member not named here).
struct StatsSections {
  std::uint64_t inputs = 0, outputs = 0, dependencies = 0,
                property_dependencies = 0, other = 0;
  std::uint64_t total() const {
    return inputs + outputs + dependencies + property_dependencies + other;
  }
  StatsSections& operator+=(const StatsSections& o) {
    inputs += o.inputs;
    outputs += o.outputs;
    dependencies += o.dependencies;
    property_dependencies += o.property_dependencies;
    other += o.other;
    return *this;
  }
};

/// Why a state is big: `stats`' byte split (StatsConfig::sizes).
struct StatsSizes {
  StatsSections sections;  ///< over every resource
  std::map<std::string, StatsSections> by_type;
  /// Per type, its largest properties of inputs and outputs
  /// ("outputs.policy"), by bytes summed over the type's resources (member
  /// spans, as StatsSections), largest first, at most
  /// StatsConfig::top_properties each.
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::string>>>
      top_properties;
  /// Inside inputs and outputs: the bytes of secret objects, of assets and
  /// archives, and of the properties Pulumi's providers keep for themselves
  /// (names starting "__", such as "__inputs" and "__provider"). Exact
  /// spans of the input's text.
  std::uint64_t secret_bytes = 0, asset_bytes = 0, internal_bytes = 0;
};

struct StatsResult {
  std::string envelope;  ///< "export", "checkpoint", ...
  std::optional<std::int64_t> version;
  std::vector<std::string> features;
  Tally resources;
  std::map<std::string, Tally> by_package, by_type, by_provider;
  std::vector<std::pair<std::uint64_t, std::string>> largest;  ///< bytes, URN
  /// By flag name ("protect", "taint", "delete", "external",
  /// "pending-replacement", "retain-on-delete").
  std::map<std::string, std::uint64_t> flags;
  std::string secrets_provider;  ///< "passphrase", "b64", "awskms", ...
  std::uint64_t secrets = 0, assets = 0, archives = 0;
  std::map<std::string, std::uint64_t> pending;  ///< by operation type
  std::uint64_t stacks = 0, projects = 0;
  /// The byte split, with StatsConfig::sizes.
  std::optional<StatsSizes> sizes;
};

/// One resource of a TreeResult, as views into it (valid while it lives).
struct TreeNode {
  std::string_view urn_prefix;  ///< the URN before the name
  std::string_view name;        ///< the URN's name part
  std::string_view type;
  bool provider = false;
  bool deleted = false;     ///< a `delete: true` copy
  std::string urn() const;  ///< urn_prefix + name
};

/// Node indexes of a TreeResult (a node's children), in state order.
struct TreeIndexes {
  const std::uint32_t* first = nullptr;
  const std::uint32_t* last = nullptr;
  const std::uint32_t* begin() const { return first; }
  const std::uint32_t* end() const { return last; }
  std::size_t size() const { return static_cast<std::size_t>(last - first); }
  std::uint32_t operator[](std::size_t i) const { return first[i]; }
};

/// The parent/child tree of a state. A tree cannot be shown before its
/// last resource is read, so it is held, compactly: about 32 bytes a
/// resource plus its name (URN prefixes and types are interned, names
/// share one buffer, children are one array). Cheap to copy (copies share
/// it); immutable.
class TreeResult {
 public:
  TreeResult();
  /// Resources, in state order.
  std::size_t size() const;
  /// Resource `i` (< size()).
  TreeNode node(std::size_t i) const;
  /// The children of resource `i`, in state order.
  TreeIndexes children(std::size_t i) const;
  /// Resources with no parent in the state, in state order (and one member
  /// of each parent cycle).
  const std::vector<std::uint32_t>& roots() const;

  struct Impl;
  /// For the implementation (src/inspect/).
  explicit TreeResult(std::shared_ptr<const Impl> impl)
      : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<const Impl> impl_;
};

struct TreeConfig {
  /// Called as the state is read.
  Progress on_progress;
};

/// `pstate tree`: children hang under the first live resource with their
/// parent's URN; resources whose parent is missing are roots, as `pulumi
/// stack` shows orphans.
Result<TreeResult> Tree(const State& state, const TreeConfig& config = {});

struct StatsConfig {
  std::size_t top = 10;  ///< the N largest resources
  /// Threads that read a plain file's resources; the result is the same
  /// for any number.
  int jobs = 1;
  /// Also split the bytes by section and type (StatsResult::sizes).
  bool sizes = false;
  /// With `sizes`: how many of each type's largest properties to keep.
  std::size_t top_properties = 3;
  Progress on_progress;
};

/// `pstate stats`: counts and sizes by package, type and provider.
Result<StatsResult> Stats(const State& state, const StatsConfig& config = {});

// ---- normalize --------------------------------------------------------------

enum class Layout {
  kExport,           ///< `pulumi stack export`: 4-space indent
  kDiy,              ///< an engine save of a DIY checkpoint: compact
  kDiyStateCommand,  ///< `pulumi state ...`: compact, <, >, & escaped
};
enum class Compression { kNone, kGzip, kZstd };

/// The layout named "export", "diy" or "diy-state-command", or nullopt.
std::optional<Layout> LayoutNamed(const std::string& name);

enum class NoteKind {
  kDuplicateKey,   ///< a key that repeats: this occurrence was dropped
  kUnknownMember,  ///< a member Pulumi does not define (kept or dropped)
  kInexactNumber,  ///< Go would round or refuse this number; digits kept
  kDropped,        ///< something a conversion leaves out, as Pulumi does
  /// A string Go reads differently from its text (a lone UTF-16 surrogate
  /// escape, read as U+FFFD): written as Go would write what it reads.
  kInexactString,
};
/// How many NoteKinds there are (the size of the `counts` arrays).
inline constexpr std::size_t kNoteKinds = 5;

struct Note {
  NoteKind kind = NoteKind::kUnknownMember;
  std::string pointer;
  std::uint64_t line = 0;  ///< 0 when the note has no place in the input
  std::uint64_t column = 0;
  std::string message;
};

struct NormalizeConfig {
  /// Where to write ("-" is standard output); ignored with `check` or
  /// `in_place`.
  std::string output = "-";
  /// Replace the input file atomically, keeping the old one as "<in>.bak"
  /// (a state opened from a path only).
  bool in_place = false;
  /// Write nothing; report whether the input is already normalized.
  bool check = false;
  /// nullopt: kExport for export envelopes, kDiy for checkpoints.
  std::optional<Layout> layout;
  /// nullopt: from the output name (".gz", ".zst"); in place, the input's.
  std::optional<Compression> compression;
  /// Round every number through float64 as Pulumi does.
  bool pulumi_numbers = false;
  /// Leave out members Pulumi does not define, as Pulumi does.
  bool drop_unknown = false;
  Progress on_progress;
};

struct NormalizeResult {
  Layout layout = Layout::kExport;
  /// With `check`: the input is byte for byte its normalized form.
  bool normalized = true;
  /// With `check` and !normalized: the first byte that differs in the
  /// (decompressed) input, and the JSON pointer of the value holding it.
  std::uint64_t line = 0;
  std::uint64_t column = 0;
  std::string pointer;
  /// The first notes of each kind, in input order.
  std::vector<Note> notes;
  /// All notes, including those not kept, by NoteKind.
  std::uint64_t counts[kNoteKinds] = {};
};

/// `pstate normalize`: the state in one of Pulumi's exact layouts. On
/// failure no output file appears and an existing one is untouched.
Result<NormalizeResult> Normalize(const State& state,
                                  const NormalizeConfig& config = {});

// ---- convert ----------------------------------------------------------------

enum class ConvertTarget { kExport, kCheckpoint };

struct ConvertConfig {
  /// Where to write ("-" is standard output).
  std::string output = "-";
  ConvertTarget to = ConvertTarget::kExport;
  /// 3 or 4; nullopt: the input's, with versions 0-2 migrated to 3.
  std::optional<int> version;
  /// The checkpoint's stack ("ORG/PROJECT/STACK" or a bare "STACK") when
  /// the input does not name one. Every URN must agree with it.
  std::string stack;
  /// Convert even when URNs name another stack or project.
  bool force = false;
  std::optional<Layout> layout;
  bool pulumi_numbers = false;
  bool drop_unknown = false;
  /// nullopt: from the output name (".gz", ".zst").
  std::optional<Compression> compression;
  /// The input is read twice: checked, then converted.
  Progress on_progress;
};

struct ConvertResult {
  Layout layout = Layout::kExport;
  int version = 3;
  std::vector<std::string> features;
  std::string stack;  ///< the checkpoint's stack, when one was written
  std::vector<Note> notes;
  std::uint64_t counts[kNoteKinds] = {};  ///< all notes, by NoteKind
};

/// `pstate convert`: export <-> checkpoint, version migrations; the output
/// is verified before it is written. Fails with kInvalidArgument (a URN of
/// another stack, a missing stack), kUnsupported (version 4 features that
/// cannot go down to 3), kFormat (the output would not verify; nothing is
/// written) and the reader's failures.
Result<ConvertResult> Convert(const State& state, const ConvertConfig& config);

// ---- redact -----------------------------------------------------------------

struct RedactConfig {
  /// Where to write ("-" is standard output).
  std::string output = "-";
  /// Compact output instead of 4-space indents.
  bool compact = false;
  /// Secrets become keyed HMAC-SHA256 fingerprints instead of placeholders
  /// (docs/secrets.md), keyed by `key`.
  bool fingerprint = false;
  /// Also replace identifying data (cloud account and project IDs, e-mail
  /// and IP addresses, cloud hostnames, home-directory user names) by
  /// consistent pseudonyms keyed by `key`.
  bool anonymize = false;
  /// The key of `fingerprint` and `anonymize`; nullopt: one random key for
  /// the call.
  std::optional<FingerprintKey> key;
  /// Shell-style globs on property names whose plain values are redacted
  /// too.
  std::vector<std::string> also;
  /// Redact every value the leak scanner reports (plaintext credentials);
  /// false keeps them and counts them in RedactResult::kept_leaks.
  bool leaks = true;
  Progress on_progress;
};

/// What was redacted.
struct RedactResult {
  std::uint64_t secrets = 0;
  std::uint64_t config_values = 0;
  std::uint64_t provider_values = 0;
  std::uint64_t env_vars = 0;
  std::uint64_t also_values = 0;
  std::uint64_t leak_values = 0;
  /// integrity_error.command values cut back to program and subcommand.
  std::uint64_t commands = 0;
  /// With `leaks`: leaks inside reference fields (a secret embedded in a
  /// URN or id), reported by the scanner but deliberately left in place.
  std::uint64_t reference_leaks = 0;
  /// Without `leaks`: the values the leak scanner reported and the run left
  /// in place.
  std::uint64_t kept_leaks = 0;
  /// With --anonymize: strings in which identifying data was replaced.
  std::uint64_t anonymized_strings = 0;
  /// Strings (values or keys) Go reads differently from their text: a
  /// lone UTF-16 surrogate escape, written as U+FFFD as Go reads it.
  std::uint64_t inexact_strings = 0;
  /// With `anonymize`: the distinct values replaced, by kind ("e-mail
  /// addresses", ...), every kind in a fixed order.
  std::vector<std::pair<std::string, std::uint64_t>> anonymized;
};

/// `pstate redact`: the state with its secrets replaced, safe to share.
Result<RedactResult> Redact(const State& state, const RedactConfig& config);

// ---- decrypt, encrypt -------------------------------------------------------

struct CryptConfig {
  /// Where to write ("-" is standard output). Nothing appears there unless
  /// every secret was rewritten.
  std::string output = "-";
  /// A passphrase state's passphrase, asked for only when the state uses
  /// the passphrase provider (other providers need none, or are cloud
  /// services pstate does not call: kUnsupported).
  PassphraseSource passphrase;
  /// Compact output instead of 4-space indents.
  bool compact = false;
  /// Threads for the crypto, the caller's included (0: every processor).
  int jobs = 0;
  Progress on_progress;
};

struct CryptResult {
  std::uint64_t secrets = 0;   ///< secrets rewritten
  std::uint64_t distinct = 0;  ///< crypto operations done
  std::string provider;        ///< the secrets provider's type ("" if none)
  /// Strings written as U+FFFD where they held a lone surrogate escape.
  std::uint64_t inexact_strings = 0;
};

/// `pstate decrypt`: the state with every secret opened (its plaintext in
/// the output: handle it as the secret it is). A wrong passphrase fails
/// with kCrypto before anything is written.
Result<CryptResult> Decrypt(const State& state, const CryptConfig& config);
/// `pstate encrypt`: plaintext values marked secret sealed again with the
/// state's provider.
Result<CryptResult> Encrypt(const State& state, const CryptConfig& config);

// ---- edit -------------------------------------------------------------------

/// The operations of `pstate edit` (docs/edit.md has each against the
/// `pulumi state` command it mirrors).
enum class EditOperation {
  kDelete,
  kRename,
  kRenameStack,
  kReparent,
  kProtect,
  kUnprotect,
  kTaint,
  kUntaint,
  kClearPending,
  kImportPending,
  kRepair,
  kExtract,  ///< `pstate extract`: the selection and what it needs
};

struct EditConfig {
  EditOperation operation = EditOperation::kRepair;
  /// Targets: URNs, or resource names where one resource has the name.
  std::vector<std::string> urns;
  /// The resources these filters match are targets too (none given: only
  /// `urns`).
  ResourceFilter select;
  bool all = false;         ///< delete: every resource; flags: every live one
  std::string id;           ///< delete's --id; import-pending's ID
  std::string new_name;     ///< rename; rename-stack: the new stack
  std::string new_project;  ///< rename-stack ("" keeps the project)
  std::string new_parent;   ///< reparent
  bool target_dependents = false;  ///< delete
  bool with_dependencies = false;  ///< extract
  bool force = false;              ///< delete protected resources
  bool allow_new_errors = false;   ///< write a result that verifies worse
  std::string pending_type;        ///< clear-pending ("" = any)
  std::string pending_urn;         ///< clear-pending ("" = any)
  /// Where to write ("-" is standard output), unless `in_place` (a state
  /// opened from a path: the input replaced, "<input>.bak" kept) or
  /// `dry_run` (nothing written; EditResult::diff says what would change).
  std::string output = "-";
  bool in_place = false;
  bool dry_run = false;
  /// Fill EditResult's notes and change lists (envelope, resources,
  /// pending). An edit that moves or rewrites most resources of a large
  /// state has an entry per resource, which the edit itself holds in a few
  /// bytes each: false leaves them empty (the command line's -q, when
  /// nothing would print them).
  bool list_changes = true;
  Progress on_progress;
};

enum class EditChangeKind { kAdded, kRemoved, kChanged };

/// A field of the envelope, a resource or a pending operation the edit
/// changes. Values are compact JSON ("" when absent); property maps are
/// only said to have changed (they may hold secrets).
struct EditFieldChange {
  EditChangeKind kind = EditChangeKind::kChanged;
  std::string field;
  std::string before, after;
};

/// A resource (by URN) or pending operation the edit removes or changes.
struct EditElementChange {
  EditChangeKind kind = EditChangeKind::kChanged;
  std::string what;
  std::vector<EditFieldChange> fields;
};

/// A list an edit reports that may have an entry per resource (its notes,
/// its resource changes: a repair of a long chain has one of each per
/// resource). It is held compactly (the edit's typed records, bound to
/// what they name) and each entry is rendered as it is read, so listing
/// them costs no more memory than the edit did. Cheap to copy (copies
/// share it); immutable.
template <typename T>
class EditList {
 public:
  EditList() = default;
  /// Values held as they are.
  explicit EditList(std::vector<T> values) {
    auto held = std::make_shared<const std::vector<T>>(std::move(values));
    size_ = held->size();
    render_ = [held](std::size_t i) { return (*held)[i]; };
  }
  /// `size` entries, entry i being render(i) (for the implementation).
  EditList(std::size_t size, std::function<T(std::size_t)> render)
      : size_(size), render_(std::move(render)) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// Entry i (< size()), rendered now.
  T operator[](std::size_t i) const { return render_(i); }

  /// Reads the entries in order, each rendered as it is reached.
  class const_iterator {
   public:
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    const_iterator(const EditList* list, std::size_t i) : list_(list), i_(i) {}
    T operator*() const { return (*list_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

   private:
    const EditList* list_;
    std::size_t i_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

 private:
  std::size_t size_ = 0;
  std::function<T(std::size_t)> render_;
};

struct EditResult {
  /// Refused: nothing was written; `refusal` says why (a protected
  /// resource, an empty selection, a result that verifies worse, ...).
  bool refused = false;
  std::string refusal;
  /// The URNs that names or filters selected.
  std::vector<std::string> selected;
  EditList<std::string> notes;
  std::vector<EditFieldChange> envelope;
  EditList<EditElementChange> resources;
  std::vector<EditElementChange> pending;
  /// Error findings the result has that the input had not (the reason for
  /// a refusal, or written anyway with allow_new_errors).
  std::vector<Finding> new_errors;
  bool written = false;
  bool unchanged = false;  ///< the output equals the input
  std::string backup;      ///< the ".bak" of an in-place edit
  /// dry_run: the input against the edited state, as Diff reports it.
  std::optional<DiffResult> diff;
};

/// `pstate edit OPERATION`: offline state surgery, verified before it is
/// written. A refusal is a result (refused), not a failure; failures are an
/// unreadable input (located), bad arguments, or an output that cannot be
/// written.
Result<EditResult> Edit(const State& state, const EditConfig& config);

/// Whether `operation` acts on resources named by EditConfig::urns and
/// EditConfig::select (delete, rename, reparent, the flags, import-pending,
/// extract); the others take neither.
bool EditTakesSelection(EditOperation operation);

/// A dependency `edit move` would cut: `resource` (moving or staying) names
/// `target` (on the other side) in a structural reference field.
struct MoveBrokenDependency {
  std::string resource;
  std::string target;
  bool moving = false;  ///< `resource` moves and `target` stays
};

struct EditMoveConfig {
  /// The resources to move: URNs, or resource names where one resource has
  /// the name; their descendants move too.
  std::vector<std::string> urns;
  /// The resources these filters match move too (none given: only `urns`).
  ResourceFilter select;
  /// The selection's ancestors move too (the root stack and providers
  /// excepted).
  bool include_parents = false;
  /// Write results that verify worse than their inputs.
  bool allow_new_errors = false;
  /// The destination's stack and project when it has no resources to tell
  /// them ("": its checkpoint's "stack"); when it has, they must agree.
  std::string destination_stack, destination_project;
  /// Plan, splice and verify both files; write nothing (each side's
  /// EditResult::diff says what would change).
  bool dry_run = false;
  /// Fill each side's notes and change lists (EditConfig::list_changes).
  bool list_changes = true;
};

/// What `edit move` decided for both files: EditMoveResult but each file's
/// own changes.
struct MoveSummary {
  /// Refused: neither file was written; `refusal` says why.
  bool refused = false;
  std::string refusal;
  /// The dependencies that would cross the two files (a refusal).
  std::vector<MoveBrokenDependency> broken;
  /// The URNs that names or filters selected.
  std::vector<std::string> selected;
  std::vector<std::string> notes;
  /// Old URN -> new URN: each resource moved, in source order; each
  /// provider copied to the destination; each provider the destination
  /// already had (same URN and ID, or same inputs) and the moved resources
  /// now use.
  std::vector<std::pair<std::string, std::string>> moved;
  std::vector<std::pair<std::string, std::string>> providers_copied;
  std::vector<std::pair<std::string, std::string>> providers_reused;
};

struct EditMoveResult : MoveSummary {
  /// Each file's changes, added errors and .bak; `written` on both or on
  /// neither.
  EditResult source, destination;
};

/// `pstate edit move SOURCE DEST`: Pulumi's `pulumi state move` between two
/// state files, offline. Both files are written in place, each keeping a
/// ".bak", or neither is (both results must verify no worse than their
/// inputs). A refusal is a result; failures are an unreadable input
/// (located), standard input, a state in memory unless `dry_run`, the same
/// file twice (kInvalidArgument), or a file that cannot be written.
Result<EditMoveResult> EditMove(const State& source, const State& destination,
                                const EditMoveConfig& config);

// ---- history ----------------------------------------------------------------
//
// The update history of a DIY backend's stacks (docs/history.md): list it,
// restore a version, prune old files. These calls take paths in a backend
// (a `.pulumi` directory's parent, or a stack's checkpoint), not a State.

/// One stack of a DIY backend.
struct BackendStack {
  std::string root;     ///< the directory holding `.pulumi`
  std::string project;  ///< "" in the legacy layout
  std::string name;
  /// The current checkpoint: of `<stack>.json`, `.json.gz` and `.json.zst`
  /// the most recently modified, as Pulumi's stackPath picks it.
  std::string checkpoint;

  /// "organization/<project>/<stack>", or "<stack>" in the legacy layout
  /// (diyBackendReference.FullyQualifiedName).
  std::string QualifiedName() const;
  std::string HistoryDir() const;
  std::string BackupDir() const;
  std::string LockDir() const;
};

/// One update's record (Pulumi's backend.UpdateInfo).
struct UpdateInfo {
  std::string kind;     ///< "update", "refresh", "destroy", "import", ...
  std::string result;   ///< "succeeded", "failed", "in-progress"
  std::string message;  ///< the update's message (commit title, -m)
  std::int64_t start_time = 0;  ///< Unix seconds; 0 when absent
  std::int64_t end_time = 0;
  std::int64_t version = 0;
  /// resourceChanges: operation ("create", "update", "delete", "same",
  /// "replace", ...) -> count.
  std::map<std::string, std::int64_t> resource_changes;
  /// environment: "git.head", "exec.kind", ... (strings only).
  std::map<std::string, std::string> environment;

  /// resource_changes[op], 0 when absent.
  std::int64_t Changes(std::string_view op) const;
};

/// One update of a stack's history.
struct HistoryEntry {
  int number = 0;  ///< 1 for the oldest update
  std::int64_t unix_nano = 0;
  std::string stack_name;  ///< the <name> part of the file names
  std::string history_path;
  std::uint64_t history_bytes = 0;
  std::string checkpoint_path;  ///< "" when no copy exists
  std::uint64_t checkpoint_bytes = 0;
  UpdateInfo info;
};

/// One stack of a backend, summarized (`pstate history BACKEND_DIR`).
struct StackSummary {
  BackendStack stack;
  std::size_t updates = 0;
  std::optional<HistoryEntry> last;  ///< the newest update
  /// Resources of the current checkpoint; nullopt when it cannot be read
  /// (`error` says why).
  std::optional<std::uint64_t> resources;
  std::string error;
  std::uint64_t history_bytes = 0;  ///< history records and copies
  std::uint64_t backup_bytes = 0;   ///< .pulumi/backups/ files
  bool locked = false;
};

/// Every stack of the backend holding (or held by) `dir`.
Result<std::vector<StackSummary>> HistoryBackend(const std::string& dir);

/// A stack named by its current checkpoint's path, with its history.
struct HistoryTarget {
  BackendStack stack;
  std::vector<HistoryEntry> history;  ///< oldest first
};

/// The stack whose checkpoint `path` is; kInvalidArgument when it is not a
/// checkpoint inside a backend.
Result<HistoryTarget> HistoryOpen(const std::string& path);

enum class CopyState {
  kMissing,   ///< the update kept no checkpoint copy
  kPresent,   ///< a copy exists (not verified)
  kVerified,  ///< the copy verifies without errors
  kInvalid,   ///< the copy has errors or cannot be read
};

struct UpdateRow {
  HistoryEntry entry;
  CopyState copy = CopyState::kMissing;
  std::uint64_t errors = 0;  ///< with kInvalid
};

/// `pstate history STACKREF`: the updates of `target`, newest first; with
/// `verify`, each checkpoint copy is verified (otherwise only the small
/// history files are read).
std::vector<UpdateRow> HistoryList(const HistoryTarget& target,
                                   bool verify = false);

struct HistoryRestoreConfig {
  std::string ref;     ///< CHECKPOINT@VERSION
  std::string output;  ///< "-" is standard output
  bool in_place = false;
  /// The limits the version is read with.
  InputLimits limits;
};

struct HistoryRestoreResult {
  std::string version_file;  ///< the file the version was read from
  std::string written;       ///< the output, or the stack's checkpoint
  std::string backup;        ///< with in_place: the `.bak` kept
  /// From the current checkpoint to the restored version.
  DiffSummary changes;
};

/// `pstate history restore`: writes the version as a `pulumi stack import`
/// export (`output`), or makes it the stack's current checkpoint
/// (`in_place`, the current one kept as `.bak`). The version must verify
/// without errors (kRefused otherwise); in place is refused (kRefused)
/// while the stack has a lock file.
Result<HistoryRestoreResult> HistoryRestore(const HistoryRestoreConfig& config);

/// "30d", "12h", "90m", "45s", "2w" as seconds; nullopt when not one.
std::optional<std::int64_t> DurationSeconds(std::string_view text);

struct HistoryPruneConfig {
  std::string target;  ///< a backend directory or a stack's checkpoint
  std::optional<std::size_t> keep;           ///< newest updates kept
  std::optional<std::int64_t> older_than_s;  ///< only files older than this
  std::int64_t now_unix_nano = 0;            ///< "now" for older_than_s
  bool yes = false;                          ///< delete (else list only)
};

struct PruneFile {
  std::string stack;  ///< qualified name
  std::string kind;   ///< "history", "checkpoint-copy", "backup"
  std::string path;
  std::uint64_t bytes = 0;
  std::int64_t unix_nano = 0;
};

struct HistoryPruneResult {
  std::vector<PruneFile> files;  ///< beyond the retention
  std::uint64_t bytes = 0;
  bool deleted = false;
  std::vector<std::string> locked;  ///< stacks skipped: a lock file exists
};

/// `pstate history prune`: the history and backup files beyond the
/// retention (every condition given must hold: beyond the newest `keep`
/// updates, older than `older_than_s`), deleted with `yes`. A stack's
/// current checkpoint and its `.bak` are never touched. A stack named
/// directly is refused (kRefused) while locked; in a backend, locked stacks
/// are skipped.
Result<HistoryPruneResult> HistoryPrune(const HistoryPruneConfig& config);

struct HistoryBlameConfig {
  std::string ref;  ///< a stack's checkpoint
  std::string urn;
  /// "": any change; else a Pulumi property path below "inputs." or
  /// "outputs." (or in either section without that prefix).
  std::string path;
  /// The limits each version is read with.
  InputLimits limits;
};

enum class BlameKind { kPresent, kCreated, kChanged, kRenamed, kDeleted };
/// "present", "created", "changed", "renamed", "deleted".
std::string_view BlameKindName(BlameKind kind);

struct BlameEvent {
  BlameKind kind = BlameKind::kChanged;
  HistoryEntry entry;  ///< the update that made the change
  /// Updates between the previous version read and this one that kept no
  /// checkpoint copy: the change happened in one of them or in this one.
  std::vector<int> uncertain;
  std::string urn;   ///< the URN after the update
  std::string from;  ///< a rename's old URN
  /// Changed properties (inputs, outputs) and fields, as Diff gives them
  /// (secrets hidden). With a property path: only the properties on that
  /// path, no fields.
  std::vector<PropertyChange> properties;
  std::vector<FieldChange> fields;
};

struct HistoryBlameResult {
  std::vector<BlameEvent> events;  ///< oldest first
  std::size_t versions = 0;        ///< checkpoint copies compared
};

/// `pstate history blame`: the updates in which the resource was created,
/// changed, renamed or deleted, found by diffing consecutive checkpoint
/// copies; with a property path, only changes of that value (or of a value
/// holding it). kInvalidArgument when `ref` is not a checkpoint inside a
/// backend.
Result<HistoryBlameResult> HistoryBlame(const HistoryBlameConfig& config);

// ---- backend directories (ls, stats, verify of a backend)
// --------------------
//
// A DIY backend as one inventory: `ls`, `stats` and `verify` given a
// backend directory cover the current checkpoint of every stack in it, read
// `jobs` stacks at once and delivered in stack order (the same result for
// any number of jobs).

/// True when `dir` is a backend directory: a directory holding a `.pulumi`
/// directory, or a directory named `.pulumi`. A directory inside a backend
/// (`.pulumi/stacks/web`) is not one.
bool IsBackendDirectory(const std::string& dir);

/// The stacks of the backend directory `dir`, by project, then name, each
/// with its current checkpoint. kNotFound naming `dir` when it has none.
Result<std::vector<BackendStack>> BackendStacks(const std::string& dir);

/// How `ls` and `stats` name a stack: "<project>/<stack>", or "<stack>" in
/// the legacy layout (which has no project level).
std::string BackendStackLabel(const BackendStack& stack);

struct InventoryListConfig : ListConfig {
  /// List pending operations instead of resources.
  bool pending = false;
  /// The limits every checkpoint is read with (OpenOptions::limits).
  InputLimits limits;
  // `limit`: rows over all stacks (0: all); `jobs`: stacks read at once;
  // `on_progress` is not used.
};

/// One stack's rows, or why it could not be read (`status`, naming its
/// checkpoint; the rows read before the failure are kept).
struct InventoryStackRows {
  BackendStack stack;
  std::vector<ResourceRow> rows;
  std::vector<PendingRow> pending;  ///< with InventoryListConfig::pending
  Status status;
};

/// `pstate ls BACKEND_DIR`: each stack's rows that match, to `on_stack` in
/// stack order (on the calling thread; false stops). The stack that reaches
/// `limit` comes with its rows cut at the limit and is the last. Fails
/// (before any stack) when `dir` has no stacks.
Status InventoryList(const std::string& dir, const InventoryListConfig& config,
                     const std::function<bool(InventoryStackRows&&)>& on_stack);

/// The figures `stats` gives per stack and in total.
struct InventoryFigures {
  std::uint64_t resources = 0;
  std::uint64_t types = 0;             ///< distinct resource types
  std::uint64_t bytes = 0;             ///< of the resources' JSON text
  std::uint64_t checkpoint_bytes = 0;  ///< of the file (compressed or not)
  std::uint64_t secrets = 0;
  std::uint64_t assets = 0;  ///< assets and archives
  std::uint64_t pending = 0;
  std::uint64_t protect = 0;
};

/// The figures of `stats`, a StatsResult of `state` (checkpoint_bytes: its
/// file's size; 0 for standard input).
InventoryFigures InventoryFiguresOf(const State& state,
                                    const StatsResult& stats);

/// One stack's statistics, or why it could not be read (`status`).
struct InventoryStackStats {
  BackendStack stack;
  Status status;
  StatsResult stats;
  InventoryFigures figures;
};

struct InventoryStatsConfig {
  int jobs = 1;  ///< stacks read at once
  /// The limits every checkpoint is read with (OpenOptions::limits).
  InputLimits limits;
};

/// The backend's statistics.
struct InventoryStatsResult {
  /// The stacks that were read, in stack order.
  std::vector<InventoryStackStats> stacks;
  /// The stacks that could not be read, in stack order (`status` says why).
  std::vector<InventoryStackStats> failed;
  /// Over `stacks` (types: distinct over every stack).
  InventoryFigures total;
  /// Count and bytes of each type, summed over `stacks`.
  std::map<std::string, Tally> by_type;
};

/// `pstate stats BACKEND_DIR`: per-stack figures and the totals. Fails when
/// `dir` has no stacks.
Result<InventoryStatsResult> InventoryStats(
    const std::string& dir, const InventoryStatsConfig& config = {});

// ---- typecheck --------------------------------------------------------------

enum class TypeLanguage {
  kPulumi,
  kPulumiSchema,
  kPcl,
  kCty,
  kTerraform,
  kPuppet
};
enum class TypeOutcome { kOk, kConvert, kError };

struct TypecheckConfig {
  TypeLanguage language = TypeLanguage::kPulumi;
  /// The type in that language's syntax (JSON for cty and pulumi-schema).
  std::string type;
  /// Package schemas (.json or .json.gz) pulumi-schema `$ref`s resolve
  /// against.
  std::vector<std::string> schema_files;
  /// Puppet type aliases, for every puppet type: definitions ("type Name =
  /// T", or "Name = T"), and files of them (one after another, # comments).
  std::vector<std::string> puppet_aliases;
  std::vector<std::string> puppet_alias_files;
  /// The limits a value file or a cases file is read with (a state brings
  /// its own).
  InputLimits limits;
};

/// The language named `name` ("pulumi", "pulumi-schema", "pcl", "cty",
/// "terraform", "puppet"); nullopt for any other name.
std::optional<TypeLanguage> TypecheckLanguageNamed(std::string_view name);
/// "ok", "convert", "error".
std::string_view TypecheckOutcomeName(TypeOutcome outcome);

struct TypeVerdict {
  TypeOutcome outcome = TypeOutcome::kOk;
  /// kConvert: the converted value as compact JSON in state encoding,
  /// every secret in it masked (its plaintext is "[secret]").
  std::string converted;
  /// kError: RFC 6901 pointer inside the checked value ("" = the value),
  /// and why (never quoting a secret's plaintext).
  std::string pointer;
  std::string message;
};

/// `pstate typecheck VALUE`: `value_json` (JSON text in state encoding)
/// against the type. Fails (kInvalidArgument, kSyntax, kNotFound, ...) for
/// a value that is not JSON, a schema that cannot be loaded, a type that
/// does not parse or a type language feature pstate does not support.
Result<TypeVerdict> Typecheck(const std::string& value_json,
                              const TypecheckConfig& config);
/// `pstate typecheck --state S --pointer P`: the value at `pointer` in the
/// state (it must lead to a resource or inside one).
Result<TypeVerdict> TypecheckPointer(const State& state,
                                     const std::string& pointer,
                                     const TypecheckConfig& config);
/// `pstate typecheck --state S --output NAME`: the root stack's output.
Result<TypeVerdict> TypecheckOutput(const State& state,
                                    const std::string& output,
                                    const TypecheckConfig& config);
/// `pstate typecheck --value-file PATH`: the JSON value in the file ("-"
/// for standard input; gzip and zstd are read as such).
Result<TypeVerdict> TypecheckFile(const std::string& path,
                                  const TypecheckConfig& config);

/// One case of a cases file (`pstate typecheck --cases`).
struct TypecheckCase {
  std::uint64_t line = 0;  ///< 1-based line of the case
  /// Not empty: the line is no case (not JSON, a member missing, an
  /// unknown system or expectation, a type feature pstate does not
  /// support), and why, starting "line N"; nothing else is set.
  std::string invalid;
  /// The case's verdict (a type that does not parse is a kError verdict);
  /// a kConvert value has every secret masked (its plaintext is
  /// "[secret]").
  TypeVerdict verdict;
  /// With an "expect" member: whether the verdict is the one expected (and
  /// for kConvert, the converted value equals "converted" when given).
  std::optional<bool> pass;
};

struct TypecheckCasesResult {
  std::uint64_t cases = 0;    ///< lines holding a case (or an invalid one)
  std::uint64_t invalid = 0;  ///< TypecheckCase::invalid set
  std::uint64_t failed = 0;   ///< pass false
};

/// `pstate typecheck --cases PATH`: every case of a JSON Lines file ("-"
/// for standard input) of {"system", "type", "value"[, "expect",
/// "converted"]}, each with its own language and type (`config`'s
/// language and type are not used; its schemas and aliases serve every
/// case). The file is read as a stream: each case goes to `on_case` as
/// soon as it is checked, in file order (memory is bounded by the longest
/// line); blank lines hold no case. Fails for a schema or alias that cannot
/// be loaded (before any case) or an input that cannot be read (the cases
/// delivered before stay valid).
Result<TypecheckCasesResult> TypecheckCases(
    const std::string& path, const TypecheckConfig& config,
    const std::function<void(const TypecheckCase&)>& on_case);

// ---- assets -----------------------------------------------------------------

/// An input that could not be read to its end (or whose work could not
/// start), with its place: what a renderer needs besides the message.
struct ReadFailure {
  /// The fatal finding code (kJsonSyntax, kIoError, ...): CodeName names it.
  FindingCode code = FindingCode::kIoError;
  std::string reason;      ///< why, without the file, place or pointer
  std::uint64_t line = 0;  ///< 0 when there is no place
  std::uint64_t column = 0;
  std::string pointer;  ///< of the value at fault; "" when there is none
  /// The class, and the whole message: "FILE:LINE:COLUMN: reason (at
  /// POINTER)", without the parts there are none of.
  Status status;
};

/// The failure behind `status` (a failed Status naming `name`, the input):
/// its code is kIoError and the message stays as it is.
ReadFailure ReadFailureOf(const std::string& name, const Status& status);

enum class AssetKind { kAsset, kArchive };
/// The field Pulumi's engine reads, by its precedence: a non-empty `path`,
/// else a non-empty `uri`, else text (assets) / the member map (archives);
/// kNone for a hash-only placeholder that has no contents.
enum class AssetSource { kText, kPath, kUri, kAssets, kNone };
/// ok: the recorded hash matches; mismatch: it differs; missing: a file or
/// directory it names does not exist; error: it cannot be hashed;
/// unverifiable: it needs an http(s) fetch (or has no content); no-hash:
/// nothing recorded, content hashable.
enum class AssetStatus {
  kOk,
  kMismatch,
  kMissing,
  kError,
  kUnverifiable,
  kNoHash
};
inline constexpr std::size_t kAssetStatusCount = 6;
/// "ok", "mismatch", "missing", "error", "unverifiable", "no-hash".
std::string_view AssetStatusName(AssetStatus status);

/// A portability or hygiene note on an asset (an absolute path, a path
/// leaving the root, a backslash, a malformed recorded hash).
struct AssetWarning {
  std::string code;     ///< "asset-absolute-path", ...
  std::string pointer;  ///< the object it is about
  std::string message;
};

/// One asset or archive of a state and what its hash is now.
struct AssetRow {
  std::string pointer;  ///< RFC 6901 pointer of the object
  std::string urn;      ///< its resource's URN ("" when it has none)
  AssetKind kind = AssetKind::kAsset;
  AssetSource source = AssetSource::kNone;
  std::optional<std::string> recorded;  ///< the hash the state holds
  /// The hash computed now (lowercase hex SHA-256); never set for a file
  /// outside the root.
  std::optional<std::string> actual;
  AssetStatus status = AssetStatus::kError;
  std::string message;                 ///< why, for every status but ok
  std::uint64_t line = 0, column = 0;  ///< of the object in the input
  std::vector<AssetWarning> warnings;
};

/// Rows per status (in AssetStatus order) and warnings.
struct AssetTally {
  std::array<std::uint64_t, kAssetStatusCount> by_status{};
  std::uint64_t warnings = 0;

  std::uint64_t total() const {
    std::uint64_t n = 0;
    for (std::uint64_t c : by_status) n += c;
    return n;
  }
  std::uint64_t count(AssetStatus status) const {
    return by_status[static_cast<std::size_t>(status)];
  }
  /// Any mismatch, missing or error.
  bool failed() const {
    return count(AssetStatus::kMismatch) + count(AssetStatus::kMissing) +
               count(AssetStatus::kError) >
           0;
  }
};

/// The limits of one run (every state of one `pstate assets`, or of one
/// `verify --assets`), so that a state naming the same big file or archive
/// thousands of times costs a bounded amount of work; a whole file's hash
/// is computed once per run. 64 GiB hashed is a minute or two of disk and
/// SHA-256; 5 million members is 20 archives at the per-object limit.
struct AssetTotals {
  /// Content bytes hashed (files and archive members).
  std::uint64_t max_bytes = std::uint64_t{64} << 30;
  /// Archive members enumerated.
  std::uint64_t max_members = 5000000;
  /// Member bytes read out of tar, tgz and zip files.
  std::uint64_t max_expanded_bytes = std::uint64_t{64} << 30;
};

/// The totals one run has counted so far (AssetsConfig::run): an opaque
/// handle, shared by the calls of the run.
class AssetRun;

struct AssetsConfig {
  /// Where relative paths resolve (Pulumi: the program's working
  /// directory).
  std::string root = ".";
  /// Also read files outside `root` (absolute paths, file: URIs, ../
  /// paths, links leading out); their hashes are compared, never reported.
  /// Without it they are not opened (unverifiable).
  bool allow_outside_root = false;
  AssetTotals totals;
  /// Calls given one run count the totals together (one command over
  /// several states); null: the call is a run of its own.
  std::shared_ptr<AssetRun> run;
  /// Hashing threads, the caller's included (1 to 1024).
  int jobs = 1;
  Progress on_progress;
  /// Every row, in the state's order, as soon as it and every row before
  /// it are hashed (memory stays bounded), on the calling thread.
  std::function<void(AssetRow&&)> on_row;
};

/// A run limited by `config.totals` (pass it as AssetsConfig::run to every
/// call of the run).
std::shared_ptr<AssetRun> NewAssetRun(const AssetsConfig& config);

struct AssetsResult {
  AssetTally tally;
  /// The state could not be read to its end (rows delivered before stay
  /// valid).
  std::optional<ReadFailure> failure;
};

/// `pstate assets`: rehashes every asset and archive of the state as
/// Pulumi's engine does, handing each row to `config.on_row`. An input
/// that cannot be read is the result's `failure`; the call fails only for
/// a state it cannot start on (standard input read before).
Result<AssetsResult> Assets(const State& state, const AssetsConfig& config);

// ---- finding codes, ignore files --------------------------------------------

/// A finding code and its documentation (docs/diagnostics.md, compiled in):
/// what `pstate rules` and `pstate explain CODE` print.
struct FindingCodeInfo {
  std::string_view name;  ///< stable kebab-case name ("dependency-missing")
  Severity severity = Severity::kError;  ///< its default severity
  /// It means the input could not be read as a state.
  bool fatal = false;
  std::string_view summary;  ///< one line
  /// Its section of docs/diagnostics.md as markdown, without the heading
  /// (the summary when undocumented).
  std::string_view markdown;
  /// The section's description as one line of plain text (at most 1024
  /// bytes).
  std::string description;
  /// DocsBaseUri() + "/diagnostics.md#" + name.
  std::string help_uri;
};

/// Every finding code, in the order of docs/diagnostics.md's groups.
const std::vector<FindingCodeInfo>& FindingCodeInfos();
/// The code named `name`; null when there is none.
const FindingCodeInfo* FindingCodeInfoNamed(std::string_view name);
/// Where the documentation is (the installed docs as a file:// URI, or the
/// address the project publishes them at).
std::string_view DocsBaseUri();

struct IgnoreAddConfig {
  /// The ignore file (created when missing).
  std::string file = ".pstateignore";
  /// A finding's fingerprint: 32 hex digits (written in lower case).
  std::string fingerprint;
  /// Why it is accepted: written after the fingerprint as a # comment
  /// (one line).
  std::string reason;
};

struct IgnoreAddResult {
  bool already_listed = false;  ///< nothing was written
};

/// `pstate ignore add`: adds "FINGERPRINT  # REASON" to the ignore file
/// verify and scan read. Fails (kInvalidArgument) for a fingerprint that is
/// not 32 hex digits or a reason that spans lines or holds a control
/// character, (kFormat, with the line) for a file that is not an ignore
/// file (a broken file is never extended), and for a file that cannot be
/// read or written.
Result<IgnoreAddResult> IgnoreAdd(const IgnoreAddConfig& config);

// ---- graph ------------------------------------------------------------------

/// The references Pulumi's dependency graph follows, as edges (the name is
/// the state's field: "parent", "dependencies", "propertyDependencies",
/// "deletedWith", "replaceWith", "provider").
enum class GraphEdgeKind : std::uint8_t {
  kParent,
  kDependency,
  kPropertyDependency,
  kDeletedWith,
  kReplaceWith,
  kProvider,
};
inline constexpr GraphEdgeKind kGraphEdgeKinds[] = {
    GraphEdgeKind::kParent,
    GraphEdgeKind::kDependency,
    GraphEdgeKind::kPropertyDependency,
    GraphEdgeKind::kDeletedWith,
    GraphEdgeKind::kReplaceWith,
    GraphEdgeKind::kProvider};
std::string_view GraphEdgeKindName(GraphEdgeKind kind);
std::optional<GraphEdgeKind> GraphEdgeKindNamed(std::string_view name);

/// A set of edge kinds, one bit per GraphEdgeKind.
using GraphEdgeKinds = std::uint16_t;
constexpr GraphEdgeKinds GraphEdgeBit(GraphEdgeKind kind) {
  return static_cast<GraphEdgeKinds>(1U << static_cast<unsigned>(kind));
}
inline constexpr GraphEdgeKinds kEveryGraphEdge = 0x3F;
/// What `pstate graph` draws unless --edges says otherwise: parent is
/// drawn as clusters, propertyDependencies repeat dependencies.
inline constexpr GraphEdgeKinds kDefaultGraphEdges =
    GraphEdgeBit(GraphEdgeKind::kDependency) |
    GraphEdgeBit(GraphEdgeKind::kDeletedWith) |
    GraphEdgeBit(GraphEdgeKind::kReplaceWith) |
    GraphEdgeBit(GraphEdgeKind::kProvider);

enum class GraphDirection : std::uint8_t {
  kUp,    ///< what the focus refers to (its parent, dependencies, provider)
  kDown,  ///< what refers to the focus (children, dependents)
  kBoth,
};

struct GraphNode {
  std::string urn;
  std::string type;  ///< the URN's type (or the type field of a group)
  std::string name;  ///< the URN's name part (for a group: the type)
  bool custom = false;
  bool provider = false;
  /// A component: a resource that is not custom (and not the stack root)
  /// with children in the graph; drawn as a cluster.
  bool component = false;
  /// Named by a reference but absent from the state.
  bool missing = false;
  /// Every resource with this URN is marked for deletion.
  bool deleted = false;
  /// Selected by the focus.
  bool focus = false;
  /// One bit per ResourceFlag (bit `static_cast<int>(flag)`).
  std::uint8_t flags = 0;
  /// The node of its parent (index into ResourceGraph::nodes), or kNone:
  /// clusters are drawn from it whatever edges are chosen.
  std::uint32_t parent = kNone;
  /// Grouped by type: how many resources the node stands for; else 1.
  std::uint64_t count = 1;
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;
};

struct GraphEdge {
  std::uint32_t from = 0;  ///< the resource holding the reference
  std::uint32_t to = 0;    ///< the resource it names
  GraphEdgeKind kind = GraphEdgeKind::kDependency;
  /// kPropertyDependency: the properties whose lists name `to`, sorted.
  std::vector<std::string> properties;
};

/// The resources and their references: the same whatever the resources'
/// order in the state.
struct ResourceGraph {
  std::vector<GraphNode> nodes;  ///< sorted by URN
  std::vector<GraphEdge> edges;  ///< sorted by (from, to, kind)
  GraphEdgeKinds kinds = kDefaultGraphEdges;
  bool grouped = false;
  /// Resources read (before focus and grouping).
  std::uint64_t resources = 0;
};

struct GraphConfig {
  GraphEdgeKinds edges = kDefaultGraphEdges;
  /// Resources to draw the neighbourhood of (no filter: the whole state).
  ResourceFilter focus;
  /// Steps from the focus along the chosen edges (0: the focus alone).
  std::uint32_t depth = 1;
  GraphDirection direction = GraphDirection::kBoth;
  /// One node for all resources of a type.
  bool group_by_type = false;
};

/// `pstate graph`. Fails for a state that cannot be read (located).
Result<ResourceGraph> Graph(const State& state, const GraphConfig& config = {});

// ---- report (HTML) ----------------------------------------------------------

struct HtmlReportConfig {
  /// A second state: the page also shows the diff from the first to it.
  std::optional<State> after;
  /// Passphrase secrets are compared by value in the diff (never shown).
  PassphraseSource passphrase;
  /// Findings kept for the page (the counts are always whole).
  std::size_t max_findings = 2000;
  /// The largest resources the stats list.
  std::size_t top = 20;
};

/// What `pstate report`'s page shows, gathered by one streaming read of
/// the state per view (so the states must be files, not standard input).
struct HtmlReportModel {
  std::string file;
  StatsResult stats;
  /// Every resource, in state order.
  std::vector<ResourceRow> rows;
  /// Each row's parent row in the tree (kNoParent: a root).
  std::vector<std::uint32_t> tree_parent;
  static constexpr std::uint32_t kNoParent = 0xFFFFFFFF;
  /// Every edge kind.
  ResourceGraph graph;
  std::string after_file;  ///< "" without HtmlReportConfig::after
  /// verify's findings sorted by place (secrets masked as Verify masks
  /// them), the first HtmlReportConfig::max_findings kept; the counts are
  /// whole.
  Findings findings;
  /// Each resource type's bytes by section of its resources' JSON text,
  /// as `pstate stats` splits them (they add up to the type's bytes).
  std::map<std::string, StatsSections> sections_by_type;
  /// The diff from `after` (secrets never shown); nullopt without
  /// HtmlReportConfig::after.
  std::optional<DiffResult> diff;
};

/// `pstate report`: the model of the page (src/report/ writes it as HTML).
/// Fails for a state on standard input or one that cannot be read
/// (located).
Result<HtmlReportModel> HtmlReport(const State& state,
                                   const HtmlReportConfig& config = {});

}  // namespace pstate

#endif  // PSTATE_PSTATE_H_
