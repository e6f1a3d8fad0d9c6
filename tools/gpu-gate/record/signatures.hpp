#pragma once
// Who signed a gate result. A result is a commit (record.hpp); a GPU machine signs it with
// git's SSH signing (`signing.sign`), and the CI side counts it only when the signature is
// good and made by a key the allowed-signers file lists (ssh-keygen's ALLOWED SIGNERS format,
// the file git's `gpg.ssh.allowedSignersFile` names). The file's text comes from the base
// branch (ci_status.hpp): a pull request that adds its author's key to the file in its own
// tree gains nothing.
//
// Key validity is judged at the time of the check. git has ssh-keygen check a key's
// valid-after / valid-before at the record commit's committer date, which the signer sets, so
// an expired key could sign a commit dated back into its validity. Before git sees the file,
// signers_valid_at takes out every line whose validity excludes the check's `now` (the
// Context's clock); a result that only such a line would trust is `not_valid_now`.
//
// A certificate is judged now too. git also checks a certificate (signed by a `cert-authority`
// line's key) at the committer date, and a certificate carries its own validity, which no
// line of the file can narrow. So when the file (as it stands now) has a `cert-authority`
// line, each result git trusts is asked again of ssh-keygen itself, `-Y find-principals` at
// `now` (`-Overify-time`, UTC) with the signature taken from the record commit: a result whose
// certificate expired (or is not valid yet) finds no principal, and is `not_valid_now`.
//
// Verification is git's own: `git -c gpg.ssh.allowedSignersFile=<temp copy> log --no-walk
// --stdin` with the signature placeholders, one git process for every result (object names go
// through stdin, never argv). Nothing here decides a status: ci_status.cpp drops what is not
// `trusted` before decide_status sees it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/files.hpp"
#include "gatekit/git.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

enum class SignatureCheck {
  trusted,       // a good signature by a key of the allowed-signers file
  unsigned_,     // no signature at all
  foreign,       // a good signature by a key the file does not list (or expired, revoked)
  bad,           // a signature that does not match the commit
  unverifiable,  // git could not check it (no ssh-keygen, an unknown signature format)
  not_valid_now, // a good signature by a listed key whose validity excludes the time of the check
};
// "trusted", "unsigned", "foreign", "bad signature", "unverifiable", "key not valid now"
std::string_view to_string(SignatureCheck check);

struct SignatureVerdict {
  SignatureCheck check = SignatureCheck::unsigned_;
  std::string signer;  // the principal of the allowed-signers file (trusted only)
  std::string key;     // the key's fingerprint, when there is a signature
};

// Pure: whether the allowed-signers text has a line with the `cert-authority` option.
bool has_cert_authority(std::string_view text);

// Pure: git's `%G?` letter and `%GT` trust level to a verdict. Only a good signature (G) of
// full or ultimate trust (for SSH: a principal of the allowed-signers file matched) is
// trusted; U (good, key not listed), X/Y/R (expired signature or key, revoked key) are
// foreign; B is bad; N is unsigned; E and anything else is unverifiable.
SignatureCheck classify_signature(std::string_view status_letter, std::string_view trust);

// Pure: the output of the verification's `git log` (fields separated by 0x1f, one commit a
// line: %H %G? %GT %GK %GS) to a verdict per commit. Malformed lines are an error (git wrote
// something gatekit did not ask for).
Result<std::map<std::string, SignatureVerdict>> parse_signature_log(std::string_view text);

// Pure: the allowed-signers text as it stands at `now` (seconds since the epoch): every line
// whose valid-after lies after `now` or whose valid-before lies before it is taken out (and
// named in `left_out`: "line 3 (alice@example.com): valid-before 20200101 has passed"). A
// time with a trailing Z is UTC; one without is ssh-keygen's local time, of a zone gatekit
// does not know, so it is read the way that trusts the key least (valid-after 12 hours later,
// valid-before 14 hours earlier). A time that does not read is an error naming the file, the
// line and the option.
struct SignersAtTime {
  std::string text;
  std::vector<std::string> left_out;
};
Result<SignersAtTime> signers_valid_at(std::string_view text, std::int64_t now, std::string_view file_name);

// Verifies the given commits (full object names) against the allowed-signers text as it
// stands at `now`. The text is written to a temporary file through `files` (git needs a path)
// and removed afterwards. An empty allowed-signers text trusts nobody. Every commit gets a
// verdict. When lines were taken out for their validity, a second check against the whole
// file names the results only those lines would have trusted (`not_valid_now`); with a
// `cert-authority` line, a trusted result whose key ssh-keygen finds no principal for at
// `now` (an expired certificate) is `not_valid_now` too (one ssh-keygen per such result, the
// program git's gpg.ssh.program names, default ssh-keygen). `revoked`:
// the revoked keys (a KRL or public keys, one a line), given to ssh-keygen through git's
// gpg.ssh.revocationFile; a result signed by one of them is never trusted.
Result<std::map<std::string, SignatureVerdict>> verify_signatures(const Git& git, Files& files,
                                                                  std::string_view allowed_signers,
                                                                  const std::vector<std::string>& commits,
                                                                  std::int64_t now,
                                                                  std::string_view file_name = "allowed signers",
                                                                  std::optional<std::string_view> revoked = std::nullopt);

}  // namespace gatekit::gpu_gate
