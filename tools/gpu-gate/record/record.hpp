#pragma once
// The result record: what a gate run leaves behind, as a commit whose message holds the
// facts, pointed to by a ref of its own (one per run, never overwritten):
//   refs/<namespace>-mine/<tree>/<machine>@<run>    this machine's results (written by `run`)
//   refs/<namespace>/<tree>/<machine>@<run>         published results (pushed, fetched)
//   refs/<namespace>-nogpu/<tree>/<machine>@<run>   results recorded without a GPU: local only,
//                                                  never pushed by setup's refspec
// <run> is the record's time and its commit: 20261201T100000Z-0123456789ab (RunId below), so
// a ref name cannot lie about either, and two runs never share a name. Refs of the first
// layout, refs/<namespace>[-mine]/<tree>/<machine> (one per tree and machine, overwritten by
// each run), are still read; `prune` removes them once a newer result of that tree and
// machine exists, or when they expire.
// The record commit's own tree is the tested tree, so the ref keeps the tested objects alive.
//
// Refs from other machines are hostile input: parse_record is strict (known keys only, each
// once, every value checked and bounded) and read_records drops a record whose message
// disagrees with its ref name. The message format is documented in docs/gpu-gate.md.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/git.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

enum class Verdict { pass, fail };
std::string_view to_string(Verdict verdict);

struct TestCounts {
  std::int64_t passed = 0;
  std::int64_t failed = 0;
  std::int64_t skipped = 0;
  std::int64_t errors = 0;
  std::int64_t total() const { return passed + failed + skipped + errors; }
};

// What the core's GPU discovery saw on the machine (gatekit/gpu.hpp).
struct DeviceFacts {
  std::string backend;                // is_recorded_gpu_backend (gatekit/gpu_backends.hpp)
  int count = 0;                      // visible devices
  std::vector<std::string> gpus;      // device names, in visible order
  std::string driver_version;         // "" when unknown
  std::string runtime_version;        // "" when unknown
  std::string visible_devices;        // "CUDA_VISIBLE_DEVICES=0,1" ("" = none set), `;`-joined
};

// Where a result ref lives: published (on the remote, fetched), this machine's own (pushed by
// a plain push after setup), or recorded without a GPU (local only).
enum class RefHalf { published, mine, no_gpu };

struct GateRecord {
  Verdict verdict = Verdict::fail;
  std::chrono::milliseconds duration{0};
  TestCounts counts;
  std::string commit;           // the tested commit (full object name)
  std::string tree;             // its tree (full object name)
  std::string gatekit_version;  // of the gpu-gate that ran
  std::int64_t time = 0;        // when the run ended, seconds since the epoch (UTC)
  std::string machine;          // machine id: [A-Za-z0-9][A-Za-z0-9._-]*, at most 64 bytes
  DeviceFacts device;
  std::string scope;            // the scope used: "gate", "full", "affected" ... and a detail
  std::string stress;           // "not needed", "passed 3x", "failed" ...
  // The digest of the gate's configuration the run used (config_digest in config.hpp),
  // "sha256:<64 hex>"; "" in a record of the first format, written before gatekit recorded it.
  std::string config;
  int format = 2;               // the record's format: 2, or 1 (no `config` line)

  // Where the record was read from (not part of the message).
  std::string ref;            // full ref name ("" for a record not read from git)
  std::string record_commit;  // the object the ref points to
  RefHalf half = RefHalf::published;
  std::optional<std::int64_t> committer_time;  // the record commit's committer date (read from git)
  bool published() const { return half == RefHalf::published; }
};

// No GPU was visible when the result was recorded (gpu-count 0, or backend none).
bool without_gpu(const DeviceFacts& device);
// Where `run` records a result: this machine's half, or the local-only half when no GPU was
// visible and the configuration does not let a CPU machine gate (cpu_gate).
RefHalf half_for(const DeviceFacts& device, bool cpu_gate);
// The log line for a result kept local because it was recorded without a GPU.
std::string no_gpu_note(std::string_view ref);

// The prefixes that select every result of a half of a namespace.
std::string half_prefix(std::string_view ns, RefHalf half);
std::string published_prefix(std::string_view ns);  // "refs/<ns>/"
std::string mine_prefix(std::string_view ns);       // "refs/<ns>-mine/"
std::string no_gpu_prefix(std::string_view ns);     // "refs/<ns>-nogpu/"

// A run id: the record's time (UTC, basic ISO 8601) and the first 12 hex digits of its commit.
std::string run_id(std::int64_t time, std::string_view record_commit);
// refs/<half prefix><tree>/<machine>@<run>; `run` "" gives the first layout's name.
std::string result_ref(std::string_view ns, RefHalf half, std::string_view tree, std::string_view machine,
                       std::string_view run);
// The name a result of this machine gets on the remote: the same name under refs/<ns>/.
std::string published_name(std::string_view ns, std::string_view mine_ref);

struct RefParts {
  std::string tree;
  std::string machine;
  std::string run;  // "" for a ref of the first layout (refs/<ns>/<tree>/<machine>)
  RefHalf half = RefHalf::published;
};
// Splits a result ref name of namespace `ns`; nullopt when it is not one (wrong prefix, a tree
// that is not a full object name, a machine id that is not valid, a run id not in its form).
std::optional<RefParts> parse_ref_name(std::string_view ns, std::string_view ref);

// A machine id: 1..64 bytes of [A-Za-z0-9._-], starting with a letter or digit, no "..",
// not ending in ".lock" or "." (a valid ref name component). The error names the value.
Status valid_machine(std::string_view machine);
// A namespace: 1..64 bytes of [A-Za-z0-9._-], starting with a letter or digit, no "..",
// not ending in "-mine" or "-nogpu" (those suffixes are the local halves of another namespace).
Status valid_namespace(std::string_view ns);
// The default machine id: GATEKIT_GATE_MACHINE, else the host name with every byte outside
// the id alphabet replaced by '-' (cut at 64).
std::string machine_id_from_host(std::string_view host_name);

// The first line of the message body names the format; a reader refuses any other. Format 2
// adds the `config` line (the digest of the configuration the run used); format 1 records,
// written before it, still read (their `config` is ""), and a reader that checks the
// configuration leaves them out (status_decide.hpp).
inline constexpr std::string_view kRecordFormat = "gatekit-gpu-gate/2";
inline constexpr std::string_view kRecordFormatV1 = "gatekit-gpu-gate/1";
// The longest free-text value (GPU name, scope, stress) a record holds.
inline constexpr std::size_t kMaxFactBytes = 200;
// Outside text (a GPU name from the driver) as a record value: printable ASCII only (other
// bytes become '?'), cut at max_bytes, trimmed. The parser accepts exactly such values.
std::string clean_fact(std::string_view text, std::size_t max_bytes = kMaxFactBytes);

// "2026-12-01T10:00:00Z" (format_utc's form, the record's `time`) -> seconds since the epoch;
// nullopt for anything else.
std::optional<std::int64_t> parse_utc(std::string_view text);
// A UTC date and time -> seconds since the epoch; nullopt when it is not one (years 1970..9999).
std::optional<std::int64_t> epoch_of(int year, int month, int day, int hour, int minute, int second);

// The commit message. format_record(parse_record(m)) == m for any m format_record wrote.
std::string format_record(const GateRecord& record);
// Strict: the error says which line and what is wrong ("line 4: tests-passed: not a count").
// The largest message accepted is kMaxRecordBytes.
inline constexpr std::size_t kMaxRecordBytes = 16 * 1024;
Result<GateRecord> parse_record(std::string_view message);

// The record commit object, as gpu-gate writes it (write_record): a `tree` header, then
// `author` and `committer` (NAME <EMAIL> SECONDS ZONE, both at the same second), then at most
// one signature header (`gpgsig`, or `gpgsig-sha256` in a SHA-256 repository, its value on
// continuation lines that start with a space), each once and in that order, nothing else (no
// parent, no encoding, no mergetag, no header git does not write), then a blank line and the
// message. git verifies a signature at the date of the first `committer` line; a second one
// could carry another date for a reader that took the last. So any other shape is refused,
// the error naming what differs ("the record commit is not in the form gpu-gate writes: ...").
struct RecordCommit {
  std::string tree;
  std::int64_t committer_time = 0;  // seconds since the epoch
  std::string signature;            // the signature header's value, its lines joined with \n ("" = unsigned)
  std::string_view message;         // a view into the object given
};
Result<RecordCommit> parse_record_commit(std::string_view object);

// Creates the record commit (its tree the tested tree, no parent, the message
// format_record writes, author and committer "gatekit gpu-gate" at record.time) and points a
// new ref of `half` (mine, or no_gpu for a result that must stay local) to it:
// <prefix><tree>/<machine>@<run>; returns that ref. `sign`: git's SSH signing
// (gpg.format=ssh, the key in user.signingkey); a signing failure is an error, never an
// unsigned record. The ref is created, never moved: an existing one is an error.
Result<std::string> write_record(const Git& git, const std::string& ns, const GateRecord& record, bool sign,
                                 RefHalf half = RefHalf::mine);

// The raw objects of the given commits (full object names), by name: one `git cat-file
// --batch`. An object that is not a commit, or larger than a record commit can be, is an error.
Result<std::map<std::string, std::string>> read_commit_objects(const Git& git, const std::vector<std::string>& commits);

// How much of a ref name a message shows: a whole result ref name (namespace, tree, machine
// and run id together stay under it), and no more of a hostile one.
inline constexpr std::size_t kMaxRefShown = 256;

// A result ref found by name (nothing read yet).
struct ResultRef {
  std::string ref;
  std::string object;
  RefParts parts;
};
// One listing of every half of the namespace; refs that are not result ref names are
// left out (and reported in `rejected`).
Result<std::vector<ResultRef>> list_result_refs(Git& git, const std::string& ns,
                                                std::vector<std::string>* rejected = nullptr);
// The records of the listed refs: one size check and one read, whatever their number.
Result<std::vector<GateRecord>> read_listed_records(Git& git, const std::vector<ResultRef>& refs,
                                                    std::vector<std::string>* rejected = nullptr);

// Every record of the namespace (every half), parsed. Records whose message does not parse
// or disagrees with the ref name (tree, machine, run id) are left out; `rejected` (optional) receives
// one line per such ref naming it and the reason. Three git processes, whatever the number
// of refs: the listing, the size check (nothing larger than a record is read), the read.
Result<std::vector<GateRecord>> read_records(Git& git, const std::string& ns,
                                             std::vector<std::string>* rejected = nullptr);
// The same, reading only the records of the given trees (a status looks at a few trees among
// thousands of refs): the listing is filtered before any message is read.
Result<std::vector<GateRecord>> read_records_for_trees(Git& git, const std::string& ns,
                                                       const std::set<std::string>& trees,
                                                       std::vector<std::string>* rejected = nullptr);

}  // namespace gatekit::gpu_gate
