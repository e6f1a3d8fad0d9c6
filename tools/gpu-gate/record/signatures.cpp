#include "record/signatures.hpp"

#include <algorithm>
#include <chrono>

#include "common.hpp"
#include "gatekit/files.hpp"
#include "gatekit/process.hpp"
#include "gatekit/text.hpp"
#include "record/record.hpp"

namespace gatekit::gpu_gate {

namespace {

constexpr char kSeparator = '\x1f';
// %H %G? %GT %GK %GS: the principal last, so that whatever the allowed-signers file calls a
// signer cannot shift the other fields.
constexpr char kFormat[] = "--format=%H%x1f%G?%x1f%GT%x1f%GK%x1f%GS";

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

bool space(char c) { return c == ' ' || c == '\t'; }

// The next token of an allowed-signers line: up to white space outside double quotes.
std::string_view next_token(std::string_view& rest) {
  while (!rest.empty() && space(rest.front())) rest.remove_prefix(1);
  bool quoted = false;
  std::size_t i = 0;
  for (; i < rest.size(); ++i) {
    if (rest[i] == '"') quoted = !quoted;
    else if (!quoted && space(rest[i])) break;
  }
  const auto token = rest.substr(0, i);
  rest.remove_prefix(i);
  return token;
}

std::vector<std::string_view> split_options(std::string_view options) {
  std::vector<std::string_view> out;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= options.size(); ++i) {
    if (i < options.size() && options[i] == '"') quoted = !quoted;
    if (i == options.size() || (!quoted && options[i] == ',')) {
      out.push_back(options.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

bool key_type(std::string_view token) {
  return token.starts_with("ssh-") || token.starts_with("ecdsa-") || token.starts_with("sk-");
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// ssh-keygen's time: YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, a trailing Z for UTC.
std::optional<std::int64_t> ssh_time(std::string_view text, bool& utc) {
  utc = !text.empty() && (text.back() == 'Z' || text.back() == 'z');
  if (utc) text.remove_suffix(1);
  if (text.size() != 8 && text.size() != 12 && text.size() != 14) return std::nullopt;
  for (char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  auto number = [&text](std::size_t from, std::size_t count) {
    if (from + count > text.size()) return 0;
    int n = 0;
    for (std::size_t i = from; i < from + count; ++i) n = n * 10 + (text[i] - '0');
    return n;
  };
  return epoch_of(number(0, 4), number(4, 2), number(6, 2), number(8, 2), number(10, 2), number(12, 2));
}

}  // namespace

Result<SignersAtTime> signers_valid_at(std::string_view text, std::int64_t now, std::string_view file_name) {
  constexpr std::int64_t kLatestZone = 14 * 3600;   // UTC+14: local time is ahead of UTC by up to this
  constexpr std::int64_t kEarliestZone = 12 * 3600; // UTC-12
  SignersAtTime out;
  int number = 0;
  for (const auto& line : split_lines(text)) {
    ++number;
    std::string_view rest = line;
    const auto principals = next_token(rest);
    const auto second = next_token(rest);
    std::optional<std::string> excluded;
    if (!principals.empty() && !principals.starts_with('#') && !second.empty() && !key_type(second)) {
      for (const auto option : split_options(second)) {
        const auto equals = option.find('=');
        const std::string name = lower(option.substr(0, equals));
        if (name != "valid-after" && name != "valid-before") continue;
        std::string_view value = equals == std::string_view::npos ? std::string_view() : option.substr(equals + 1);
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
        bool utc = false;
        const auto time = ssh_time(value, utc);
        if (!time)
          return bad_input(std::string(file_name) + ":" + std::to_string(number) + ": " + name + ": " +
                           quote_for_message(value) + " is not a time like 20260101, 202601011200 or 20260101120000Z");
        const bool after = name == "valid-after";
        const std::int64_t strict = utc ? *time : after ? *time + kEarliestZone : *time - kLatestZone;
        if (after && now < strict) excluded = name + " " + std::string(value) + " is not reached";
        if (!after && now > strict) excluded = name + " " + std::string(value) + " has passed";
      }
    }
    if (excluded) {
      out.left_out.push_back("line " + std::to_string(number) + " (" + std::string(principals) + "): " + *excluded);
      continue;
    }
    out.text += line + "\n";
  }
  return out;
}

bool has_cert_authority(std::string_view text) {
  for (const auto& line : split_lines(text)) {
    std::string_view rest = line;
    const auto principals = next_token(rest);
    const auto second = next_token(rest);
    if (principals.empty() || principals.starts_with('#') || second.empty() || key_type(second)) continue;
    for (const auto option : split_options(second))
      if (lower(option) == "cert-authority") return true;
  }
  return false;
}

std::string_view to_string(SignatureCheck check) {
  switch (check) {
    case SignatureCheck::trusted: return "trusted";
    case SignatureCheck::unsigned_: return "unsigned";
    case SignatureCheck::foreign: return "foreign";
    case SignatureCheck::bad: return "bad signature";
    case SignatureCheck::unverifiable: return "unverifiable";
    case SignatureCheck::not_valid_now: return "key not valid now";
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

namespace {

Result<std::map<std::string, SignatureVerdict>> verify_with(const Git& git, Files& files, std::string_view allowed_signers,
                                                            std::optional<std::string_view> revoked,
                                                            const std::vector<std::string>& commits,
                                                            const std::string& revisions) {
  // The allowed-signers (and revoked-keys) text where git can read it, removed at return.
  auto folder = files.make_temp_folder("gatekit-signers-");
  if (!folder) return folder.error();
  const auto signers = *folder / "allowed-signers";
  const auto revoked_file = *folder / "revoked-keys";
  if (auto written = files.create(signers, allowed_signers); !written) return written.error();
  GitCommand log{"-c"};
  log.option("gpg.ssh.allowedSignersFile=", signers.string());
  if (revoked) {
    if (auto written = files.create(revoked_file, *revoked); !written) return written.error();
    log.words({"-c"}).option("gpg.ssh.revocationFile=", revoked_file.string());
  }
  log.words({"-c", "log.showSignature=false", "log", "--no-walk=unsorted", "--stdin", kFormat}).input(revisions);
  auto out = git.run(log);
  if (!out) return out.error();
  auto verdicts = parse_signature_log(*out);
  if (!verdicts) return verdicts.error();
  for (const auto& commit : commits) {
    if (!verdicts->count(commit))
      return could_not_evaluate("git's signature check left out the result commit " + commit);
  }
  return verdicts;
}

// ssh-keygen's form of a time for -Overify-time, in UTC: 20261201100000Z.
std::string ssh_utc(std::int64_t seconds) {
  std::string out;
  for (char c : format_utc(seconds))
    if (c != '-' && c != ':' && c != 'T') out += c;
  return out;
}

// Each trusted result asked again of ssh-keygen at `now`: git judged its certificate at the
// committer date, which the signer chose. A result whose key finds no principal of the
// file now (the certificate expired, or is not valid yet) is not_valid_now.
Status judge_certificates_now(const Git& git, Files& files, std::string_view signers_now, std::int64_t now,
                              std::map<std::string, SignatureVerdict>& verdicts) {
  std::vector<std::string> trusted;
  for (const auto& [commit, verdict] : verdicts)
    if (verdict.check == SignatureCheck::trusted) trusted.push_back(commit);
  if (trusted.empty()) return {};
  auto objects = read_commit_objects(git, trusted);
  if (!objects) return objects.error();
  auto folder = files.make_temp_folder("gatekit-signers-");
  if (!folder) return folder.error();
  const auto signers = *folder / "allowed-signers";
  const auto signature = *folder / "signature";
  if (auto written = files.create(signers, signers_now); !written) return written.error();
  auto configured = config_values(git, "gpg.ssh.program");
  if (!configured) return configured.error();
  const std::string program = configured->empty() || configured->back().empty() ? "ssh-keygen" : configured->back();
  for (const auto& commit : trusted) {
    auto& verdict = verdicts[commit];
    auto parsed = parse_record_commit(objects->at(commit));
    if (!parsed || parsed->signature.empty()) {
      verdict.check = SignatureCheck::unverifiable;
      continue;
    }
    if (auto written = files.replace(signature, parsed->signature + "\n"); !written) return written.error();
    ProcessSpec spec;
    spec.argv = {program, "-Y", "find-principals", "-s", signature.string(), "-f", signers.string(),
                 "-Overify-time=" + ssh_utc(now)};
    spec.timeout = std::chrono::seconds(60);
    spec.capture_limit = 64 * 1024;
    auto found = git.runner().run(spec);
    if (!found) return could_not_evaluate("cannot run " + program + " to check a certificate's validity: " + found.error().message);
    if (found->timed_out || found->signal != 0)
      return could_not_evaluate(program + " -Y find-principals " + found->describe(spec.timeout));
    const auto principals = split_lines(found->out);
    const bool now_valid = found->exit_code == 0 &&
                           std::find(principals.begin(), principals.end(), verdict.signer) != principals.end();
    if (!now_valid) verdict.check = SignatureCheck::not_valid_now;
  }
  return {};
}

}  // namespace

Result<std::map<std::string, SignatureVerdict>> verify_signatures(const Git& git, Files& files,
                                                                  std::string_view allowed_signers,
                                                                  const std::vector<std::string>& commits,
                                                                  std::int64_t now, std::string_view file_name,
                                                                  std::optional<std::string_view> revoked) {
  auto valid = signers_valid_at(allowed_signers, now, file_name);  // a file that does not read is an error, results or not
  if (!valid) return valid.error();
  if (commits.empty()) return std::map<std::string, SignatureVerdict>{};
  std::string revisions;
  for (const auto& commit : commits) {
    if (!is_object_name(commit)) return could_not_evaluate("not a commit object name: " + quote_for_message(commit));
    revisions += commit + "\n";
  }
  auto verdicts = verify_with(git, files, valid->text, revoked, commits, revisions);
  if (!verdicts) return verdicts;
  if (has_cert_authority(valid->text))
    if (auto judged = judge_certificates_now(git, files, valid->text, now, *verdicts); !judged) return judged.error();
  if (valid->left_out.empty()) return verdicts;
  auto whole = verify_with(git, files, allowed_signers, revoked, commits, revisions);
  if (!whole) return whole.error();
  for (auto& [commit, verdict] : *verdicts) {
    const auto& then = whole->at(commit);
    if (verdict.check != SignatureCheck::trusted && then.check == SignatureCheck::trusted) {
      verdict.check = SignatureCheck::not_valid_now;
      verdict.signer = then.signer;
    }
  }
  return verdicts;
}

}  // namespace gatekit::gpu_gate
