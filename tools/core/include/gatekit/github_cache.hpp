#pragma once
// Conditional requests for the GitHub client: a cache of GET answers kept between runs.
//
// GitHub answers a GET that carries `If-None-Match: <the ETag of its current answer>` with
// 304 Not Modified and no body, and such an answer does not count against the primary rate
// limit ("Use conditional requests if appropriate",
// https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api).
// A client given a ResponseCache (use_cache) sends If-None-Match for every GET whose URL the
// cache holds; a 304 is answered with the kept body and Link header, as a 200, so callers see
// no difference; every 200 with an ETag is kept. The token never enters the cache (answers are
// redacted before they are kept, and the URL carries no credentials).
//
// The cache file (a tool's --cache) is JSON Lines: the header {"gatekit_api_cache": 1}, then
// one {"url", "etag", "link", "body"} a line. After a complete run only the entries it used
// (found or stored) are written back, so the file follows what a run reads and never grows
// without end; after a partial one (its budget ran out) every entry is, so what earlier runs
// read is not lost and the next run goes through it with free 304s and gets further.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "gatekit/github.hpp"
#include "gatekit/result.hpp"

namespace gatekit::github {

struct CachedAnswer {
  std::string etag;
  std::string link;  // the answer's Link header, "" when none
  std::string body;
};

class ResponseCache {
 public:
  // Bodies above this many bytes in all are not kept (neither read from the file nor stored).
  explicit ResponseCache(std::size_t max_bytes = std::size_t{256} << 20) : max_bytes_(max_bytes) {}

  // The answer kept for a GET of `url` (marked used), or nullopt.
  std::optional<CachedAnswer> find(const std::string& url);
  void store(const std::string& url, CachedAnswer answer);
  void count_not_modified() { ++not_modified_; }

  std::size_t size() const { return entries_.size(); }
  // 304s answered from the cache: requests that did not count against the rate limit.
  std::size_t not_modified() const { return not_modified_; }

  // The file, a line at a time (Files::for_each_line). `where` is "FILE:LINE: "; an Error
  // names the field: "c.jsonl:3: etag: expected a string".
  Status add_line(std::string_view line, const std::string& where);
  // The header and the entries used by this run (keep_unused: every entry), in URL order.
  std::string to_lines(bool keep_unused = false) const;

 private:
  struct Entry {
    CachedAnswer answer;
    bool used = false;
  };
  bool fits(std::size_t more) const { return bytes_ + more <= max_bytes_; }
  std::map<std::string, Entry> entries_;
  std::size_t bytes_ = 0, max_bytes_;
  std::size_t not_modified_ = 0;
  bool header_ = false;
};

// Conditional requests for every GET of `client` from now on (nullptr: none). The cache must
// outlive the client's calls.
void use_cache(Client& client, ResponseCache* cache);

}  // namespace gatekit::github
