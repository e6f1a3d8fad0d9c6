// The token's forms and their redaction: what a server could echo back must never reach a
// tool's output.
#include <algorithm>

#include "catch.hpp"
#include "gatekit/github_detail.hpp"

using namespace gatekit::github::detail;

namespace {
bool has(const std::vector<std::string>& forms, const std::string& form) {
  return std::find(forms.begin(), forms.end(), form) != forms.end();
}
}  // namespace

TEST_CASE("secret_forms: raw, percent-encoded, JSON-escaped and base64 at every alignment") {
  auto forms = secret_forms("s3cret-token");
  CHECK(has(forms, "s3cret-token"));
  // base64 of the token at byte offsets 0, 1 and 2 of a longer text (as Python computes them)
  CHECK(has(forms, "czNjcmV0LXRva2Vu"));
  CHECK(has(forms, "MzY3JldC10b2tlb"));
  CHECK(has(forms, "zM2NyZXQtdG9rZW"));
  CHECK(forms.size() == 4);  // percent-encoding and JSON escaping change nothing here

  auto special = secret_forms("tok/en\"x+y");
  CHECK(has(special, "tok/en\"x+y"));
  CHECK(has(special, "tok%2Fen%22x%2By"));
  CHECK(has(special, "tok/en\\\"x+y"));
  CHECK(secret_forms("").empty());
  CHECK(secret_forms("ab") == std::vector<std::string>{"ab"});  // no 6-character forms of a short token
}

TEST_CASE("redact_secrets: every form, anywhere, however often") {
  const auto forms = secret_forms("s3cret-token");
  const std::vector<std::pair<std::string, std::string>> cases{
      {"Bad credentials: s3cret-token", "Bad credentials: ***"},
      {"s3cret-tokens3cret-token", "******"},
      {"src/s3cret-token.cu", "src/***.cu"},
      // Basic auth headers and other base64 text holding the token
      {"Authorization: Basic eC1hY2Nlc3MtdG9rZW46czNjcmV0LXRva2VuCg==", "Authorization: Basic eC1hY2Nlc3MtdG9rZW46***Cg=="},
      {"eHMzY3JldC10b2tlbgo=", "eH***go="},
      {"eC1zM2NyZXQtdG9rZW4K", "eC1***4K"},
      {"nothing to hide", "nothing to hide"},
  };
  for (const auto& [text, want] : cases) {
    INFO(text);
    CHECK(redact_secrets(text, forms) == want);
  }
  CHECK(redact_secrets("tok%2Fen%22x%2By and tok/en\"x+y", secret_forms("tok/en\"x+y")) == "*** and ***");
}
