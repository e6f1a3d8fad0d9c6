#include "signatures.hpp"

#include <filesystem>
#include <random>
#include <system_error>

#include "gatekit/text.hpp"
#include "git_command.hpp"

namespace gatekit::gpu_gate {

namespace {

constexpr char kSeparator = '\x1f';
// %H %G? %GT %GK %GS: the principal last, so that whatever the allowed-signers file calls a
// signer cannot shift the other fields.
constexpr const char* kFormat = "--format=%H%x1f%G?%x1f%GT%x1f%GK%x1f%GS";

// A copy of the allowed-signers text where git can read it, removed when it goes out of scope.
class TempSignersFile {
 public:
  TempSignersFile() {
    std::random_device random;
    const auto suffix = std::to_string(random()) + std::to_string(random());
    path_ = std::filesystem::temp_directory_path() / ("gatekit-allowed-signers-" + suffix);
  }
  ~TempSignersFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  TempSignersFile(const TempSignersFile&) = delete;
  TempSignersFile& operator=(const TempSignersFile&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::vector<std::string_view> split_fields(std::string_view line, std::size_t count) {
  std::vector<std::string_view> fields;
  while (fields.size() + 1 < count) {
    const auto at = line.find(kSeparator);
    if (at == std::string_view::npos) break;
    fields.push_back(line.substr(0, at));
    line.remove_prefix(at + 1);
  }
  fields.push_back(line);
  return fields;
}

}  // namespace

std::string_view to_string(SignatureCheck check) {
  switch (check) {
    case SignatureCheck::trusted: return "trusted";
    case SignatureCheck::unsigned_: return "unsigned";
    case SignatureCheck::foreign: return "foreign";
    case SignatureCheck::bad: return "bad signature";
    case SignatureCheck::unverifiable: return "unverifiable";
  }
  return "unverifiable";
}

SignatureCheck classify_signature(std::string_view status_letter, std::string_view trust) {
  if (status_letter == "G") {
    return trust == "fully" || trust == "ultimate" ? SignatureCheck::trusted : SignatureCheck::foreign;
  }
  if (status_letter == "U" || status_letter == "X" || status_letter == "Y" || status_letter == "R")
    return SignatureCheck::foreign;
  if (status_letter == "B") return SignatureCheck::bad;
  if (status_letter == "N") return SignatureCheck::unsigned_;
  return SignatureCheck::unverifiable;
}

Result<std::map<std::string, SignatureVerdict>> parse_signature_log(std::string_view text) {
  std::map<std::string, SignatureVerdict> verdicts;
  int number = 0;
  for (const auto& line : split_lines(text)) {
    ++number;
    if (line.empty()) continue;
    const auto fields = split_fields(line, 5);
    if (fields.size() != 5 || !is_object_name(fields[0])) {
      return could_not_evaluate("unexpected output of git's signature check, line " + std::to_string(number) +
                                ": " + quote_for_message(line));
    }
    SignatureVerdict verdict;
    verdict.check = classify_signature(fields[1], fields[2]);
    verdict.key = std::string(fields[3]);
    if (verdict.check == SignatureCheck::trusted) verdict.signer = std::string(fields[4]);
    verdicts[std::string(fields[0])] = std::move(verdict);
  }
  return verdicts;
}

Result<std::map<std::string, SignatureVerdict>> verify_signatures(const Git& git, Files& files,
                                                                  std::string_view allowed_signers,
                                                                  const std::vector<std::string>& commits) {
  if (commits.empty()) return std::map<std::string, SignatureVerdict>{};
  std::string revisions;
  for (const auto& commit : commits) {
    if (!is_object_name(commit)) return could_not_evaluate("not a commit object name: " + quote_for_message(commit));
    revisions += commit + "\n";
  }
  TempSignersFile signers;
  if (auto written = files.write(signers.path(), allowed_signers); !written) return written.error();
  GitCall call;
  call.args = {"-c", "gpg.ssh.allowedSignersFile=" + signers.path().string(), "-c", "log.showSignature=false",
               "log", "--no-walk=unsorted", "--stdin", kFormat};
  call.stdin_data = std::move(revisions);
  auto out = git_output(git, call);
  if (!out) return out.error();
  auto verdicts = parse_signature_log(*out);
  if (!verdicts) return verdicts.error();
  for (const auto& commit : commits) {
    if (!verdicts->count(commit))
      return could_not_evaluate("git's signature check left out the result commit " + commit);
  }
  return verdicts;
}

}  // namespace gatekit::gpu_gate
