// CurlTransport: one CURL easy handle for the client's lifetime, so consecutive requests
// reuse one kept-alive connection. TLS verification is always on; proxies come from the
// usual environment variables (libcurl's default); redirects stay on http(s).
#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <mutex>

#include "gatekit/github.hpp"

namespace gatekit::github {

std::optional<std::string> HttpResponse::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() &&
        std::equal(key.begin(), key.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        }))
      return value;
  }
  return std::nullopt;
}

namespace {

void global_init_once() {
  static std::once_flag flag;
  std::call_once(flag, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

// Header lines arrive one per call; a new status line (redirect, 100-continue) starts over.
std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* headers = static_cast<std::vector<std::pair<std::string, std::string>>*>(user);
  std::string_view line(data, size * count);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.rfind("HTTP/", 0) == 0) {
    headers->clear();
  } else if (auto colon = line.find(':'); colon != std::string_view::npos) {
    std::string key(line.substr(0, colon));
    std::transform(key.begin(), key.end(), key.begin(),
                   [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
    auto value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    headers->emplace_back(std::move(key), std::string(value));
  }
  return size * count;
}

TransportErrorKind classify(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return TransportErrorKind::connect;
    case CURLE_OPERATION_TIMEDOUT:
      return TransportErrorKind::timeout;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2_STREAM:
      return TransportErrorKind::dropped;
    default:
      return TransportErrorKind::other;  // TLS verification, bad URL, ...: not retried
  }
}

class CurlTransport final : public HttpTransport {
 public:
  CurlTransport() {
    global_init_once();
    handle_ = curl_easy_init();
  }
  ~CurlTransport() override {
    if (handle_ != nullptr) curl_easy_cleanup(handle_);
  }
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  std::variant<HttpResponse, TransportError> send(const HttpRequest& request) override {
    if (handle_ == nullptr) return TransportError{TransportErrorKind::other, "curl_easy_init failed"};
    // Reset clears options but keeps the connection cache: the connection is reused.
    curl_easy_reset(handle_);
    HttpResponse response;
    char error_buffer[CURL_ERROR_SIZE] = {0};
    curl_slist* headers = nullptr;
    for (const auto& [name, value] : request.headers) headers = curl_slist_append(headers, (name + ": " + value).c_str());
    // No "Expect: 100-continue" round trip for larger bodies.
    headers = curl_slist_append(headers, "Expect:");

    curl_easy_setopt(handle_, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(handle_, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(handle_, CURLOPT_ERRORBUFFER, error_buffer);
    curl_easy_setopt(handle_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle_, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(handle_, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(handle_, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(handle_, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(handle_, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(handle_, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(handle_, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
    curl_easy_setopt(handle_, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(std::min<std::int64_t>(request.timeout.count(), 10'000)));
    curl_easy_setopt(handle_, CURLOPT_ACCEPT_ENCODING, "");  // gzip when the server offers it
    curl_easy_setopt(handle_, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(handle_, CURLOPT_WRITEDATA, &response.body);
    curl_easy_setopt(handle_, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(handle_, CURLOPT_HEADERDATA, &response.headers);
    if (request.method == "GET") {
      curl_easy_setopt(handle_, CURLOPT_HTTPGET, 1L);
    } else {
      curl_easy_setopt(handle_, CURLOPT_CUSTOMREQUEST, request.method.c_str());
      if (!request.body.empty() || request.method != "DELETE") {
        curl_easy_setopt(handle_, CURLOPT_POSTFIELDS, request.body.c_str());
        curl_easy_setopt(handle_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
      }
    }

    CURLcode code = curl_easy_perform(handle_);
    curl_slist_free_all(headers);
    if (code != CURLE_OK) {
      std::string message = error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(code);
      return TransportError{classify(code), message};
    }
    long status = 0;
    curl_easy_getinfo(handle_, CURLINFO_RESPONSE_CODE, &status);
    response.status = static_cast<int>(status);
    return response;
  }

 private:
  CURL* handle_ = nullptr;
};

}  // namespace

std::unique_ptr<HttpTransport> make_curl_transport() { return std::make_unique<CurlTransport>(); }

}  // namespace gatekit::github
